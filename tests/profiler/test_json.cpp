// JSON output of the profiler's result structs (what the db and --json read).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "profiler/counters.hpp"
#include "profiler/device_probe.hpp"
#include "profiler/json.hpp"
#include "profiler/kernel_facts.hpp"
#include "profiler/timer.hpp"

namespace bigtune::profiler {
namespace {

// Structural check: brackets balance outside strings and strings close.
bool balanced(const std::string& json) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      else if (static_cast<unsigned char>(c) < 0x20) return false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth < 0) return false;
    }
  }
  return depth == 0 && !in_string;
}

TEST(Json, WriterSeparatorsAndNesting) {
  JsonWriter w;
  w.begin_object().field("a", 1).key("b").begin_array().value(1.5).value("x").null().end_array();
  w.key("c").begin_object().end_object().field("d", true).end_object();
  EXPECT_EQ(w.str(), R"({"a":1,"b":[1.5,"x",null],"c":{},"d":true})");
}

TEST(Json, EscapesAndNonFinite) {
  EXPECT_EQ(json_quote("a\"b\\c\nd\x01"), R"("a\"b\\c\nd\u0001")");
  JsonWriter w;
  w.begin_array().value(std::numeric_limits<double>::quiet_NaN()).value(1.0 / 0.0).end_array();
  EXPECT_EQ(w.str(), "[null,null]");
  JsonWriter big;
  big.value(std::uint64_t{18446744073709551615u});
  EXPECT_EQ(big.str(), "18446744073709551615");
}

TEST(Json, DeviceProbe) {
  DeviceProbe p;
  p.name = "NVIDIA H100 80GB HBM3";
  p.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
  p.chip = "GH100";
  p.cc_major = 9;
  p.sm_count = 132;
  p.global_memory_bytes = 85520809984ull;
  std::string j = p.to_json();
  EXPECT_TRUE(balanced(j)) << j;
  EXPECT_NE(j.find(R"("name":"NVIDIA H100 80GB HBM3")"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("compute_capability":[9,0])"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("global_memory_bytes":85520809984)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("benchmarks":null)"), std::string::npos) << j;
  p.benchmarked = true;
  p.copy_bandwidth_gbs = 3050.5;
  j = p.to_json();
  EXPECT_TRUE(balanced(j)) << j;
  EXPECT_NE(j.find(R"("copy_bandwidth_gbs":3050.5)"), std::string::npos) << j;
}

TEST(Json, TimingResultAndCounters) {
  TimingResult t;
  t.backend = TimingBackend::Cupti;
  t.samples_ns = {1000, 1010};
  t.summary = summarize(t.samples_ns);
  KernelRecord k;
  k.name = "copy<\"x\">";
  k.start_ns = 5;
  k.end_ns = 1005;
  k.grid = {132, 1, 1};
  k.block = {256, 1, 1};
  t.kernels = {k};
  std::string j = t.to_json();
  EXPECT_TRUE(balanced(j)) << j;
  EXPECT_NE(j.find(R"("backend":"cupti")"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("median_ns":1005)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("grid":[132,1,1])"), std::string::npos) << j;

  CounterSample c;
  c.ok = true;
  c.ranges = 1;
  c.names = {"smsp__inst_executed.sum"};
  c.values = {4096};
  j = c.to_json();
  EXPECT_TRUE(balanced(j)) << j;
  EXPECT_NE(j.find(R"("smsp__inst_executed.sum":4096)"), std::string::npos) << j;
  EXPECT_EQ(c.value("smsp__inst_executed.sum"), 4096);
  EXPECT_TRUE(std::isnan(c.value("nothing")));

  EXPECT_TRUE(balanced(KernelFacts{}.to_json()));
  EXPECT_TRUE(balanced(Occupancy{}.to_json()));
}

}  // namespace
}  // namespace bigtune::profiler
