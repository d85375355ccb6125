// Export format: export -> import -> export gives the same text (lossless),
// importing twice changes nothing, and malformed input is refused with its line.
#include <gtest/gtest.h>

#include <cstdio>

#include <sstream>

#include "bigtune/error.hpp"
#include "db/profiles.hpp"
#include "db/store.hpp"
#include "db/text_format.hpp"
#include "test_util.hpp"

namespace bigtune::db {
namespace {

// A database with every kind of row and awkward values.
Dump awkward_dump() {
  Dump d;
  DeviceRecord dev;
  dev.uuid = "GPU-1";
  dev.name = "Tab\there, newline\nhere, back\\slash, café";
  dev.cc_major = 9;
  dev.sm_count = 132;
  dev.global_memory_bytes = int64_t{85} << 30;
  dev.probes = {{"copy_gbps", 1.0 / 3.0}, {"tiny", 1e-300}};
  dev.first_seen = "2026-01-01T00:00:00.000Z";
  d.devices.push_back(dev);
  DeviceRecord bare;
  bare.uuid = "model:Named";
  bare.name = "Named";
  bare.first_seen = "2026-01-02T00:00:00.000Z";
  d.devices.push_back(bare);
  d.variants.push_back({"mul.classical.u64.q4", "b1", "mul", "block", "classical", 64, 4});
  SampleRecord s;
  s.device_uuid = "GPU-1";
  s.variant_name = "mul.classical.u64.q4";
  s.build_id = "b1";
  s.bits = uint64_t{1} << 40;
  s.count = 3;
  s.ipb = 2;
  s.reps = 20;
  s.time_us_median = 0.1;
  s.time_us_min = 0.09999999999999999;
  s.time_us_max = 1e300;
  s.counters = {{"smsp__inst_executed.sum", 123456789012345.0}};
  s.measured_at = "2026-01-01T00:00:01.000Z";
  d.samples.push_back(s);
  s.status = SampleStatus::Fault;
  s.reason = "illegal\taddress\n";
  s.time_us_median.reset();
  s.time_us_min.reset();
  s.time_us_max.reset();
  s.counters.clear();
  d.samples.push_back(s);
  d.models.push_back({"GPU-1", "mul.classical.u64.q4", "b1", "time_us", "2,1",
                      {1.5, -2.2250738585072014e-308, 3e10}, std::nullopt, 5,
                      "2026-01-01T00:00:02.000Z"});
  DecisionRecord dec;
  dec.device_uuid = "GPU-1";
  dec.op = "mul";
  dec.bits = bits_bucket(100000);
  dec.count = count_bucket(1000);
  dec.variant = "mul.classical.u64.q4";
  dec.ipb = 2;
  dec.predicted_us = 12.25;
  dec.measured_us = 12.5;
  dec.source = "tuner";
  dec.decided_at = "2026-01-01T00:00:03.000Z";
  d.decisions.push_back(dec);
  d.history.push_back({"GPU-1", "", "mul", 100000, 1000, "mul.classical.u64.q4", 2, "decision",
                       12.25, std::nullopt, 99, "2026-01-01T00:00:04.000Z",
                       "2026-01-01T00:00:05.000Z"});
  d.history.push_back({"model:Named", "", "add", 7, 1, "add.scan.u32.q1", 1, "default",
                       std::nullopt, 0.5, 1, "2026-01-01T00:00:06.000Z",
                       "2026-01-01T00:00:06.000Z"});
  return d;
}

std::string to_text(const Dump& d) {
  std::ostringstream out;
  write_text(out, d);
  return out.str();
}

Dump from_text(const std::string& text) {
  std::istringstream in(text);
  return read_text(in, "test.tsv");
}

TEST(TextFormat, ExportImportExportIsLossless) {
  test::TempDir dir;
  Store a(dir.file("a.db"));
  a.load(awkward_dump());
  const std::string first = to_text(a.dump());
  EXPECT_EQ(first.rfind("bigtune-tuning\t2\n", 0), 0u);
  Store b(dir.file("b.db"));
  b.load(from_text(first));
  const std::string second = to_text(b.dump());
  EXPECT_EQ(first, second);
  // Spot checks that the values, not only the text, came through.
  const Dump back = b.dump();
  ASSERT_EQ(back.devices.size(), 2u);
  EXPECT_EQ(back.devices[0].name, awkward_dump().devices[0].name);
  EXPECT_EQ(back.devices[0].probes.at("copy_gbps"), 1.0 / 3.0);
  ASSERT_EQ(back.samples.size(), 2u);
  EXPECT_EQ(back.samples[0].time_us_min, 0.09999999999999999);
  EXPECT_EQ(back.samples[1].reason, "illegal\taddress\n");
  EXPECT_EQ(back.models[0].coefficients[1], -2.2250738585072014e-308);
  EXPECT_FALSE(back.models[0].fit_error.has_value());
  EXPECT_EQ(back.history[0].calls, 99);
  EXPECT_EQ(back.history[1].measured_us, 0.5);
}

TEST(TextFormat, ImportingTwiceAddsNothing) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  const Dump d = awkward_dump();
  store.load(d);
  const std::string once = to_text(store.dump());
  store.load(from_text(once));
  EXPECT_EQ(to_text(store.dump()), once);
}

TEST(TextFormat, ImportIsAllOrNothing) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  Dump d = awkward_dump();
  d.history.back().device_uuid = "GPU-unknown";  // the last row fails
  EXPECT_THROW(store.load(d), Error);
  EXPECT_TRUE(store.devices().empty());
}

TEST(TextFormat, MalformedInputNamesTheLine) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      from_text(text);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_NE(error_of("hello\n").find("test.tsv:1"), std::string::npos);
  EXPECT_NE(error_of("bigtune-tuning\t3\n").find("v3"), std::string::npos);
  EXPECT_NE(error_of("bigtune-tuning\t1\n# note\nwidget\tx\n").find("test.tsv:3: unknown record kind"),
            std::string::npos);
  EXPECT_NE(error_of("bigtune-tuning\t1\nvariant\ta\tb\n").find("fields"), std::string::npos);
  EXPECT_NE(error_of("bigtune-tuning\t1\nvariant\ta\tb\tc\td\te\tsixty-four\t4\n").find("not an integer"),
            std::string::npos);
  EXPECT_NE(error_of("bigtune-tuning\t1\nvariant\ta\\q\tb\tc\td\te\t64\t4\n").find("escape"),
            std::string::npos);
}

TEST(TextFormat, MetricNamesThatCannotBeWrittenAreRefused) {
  Dump d;
  DeviceRecord dev;
  dev.uuid = "GPU-1";
  dev.probes = {{"bad name", 1.0}};
  d.devices.push_back(dev);
  std::ostringstream out;
  EXPECT_THROW(write_text(out, d), Error);
}

TEST(Profiles, FileNameIsTheLowerCaseModelName) {
  EXPECT_EQ(profile_file_name("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3.tsv");
  EXPECT_EQ(profile_file_name("  NVIDIA  A100-SXM4-40GB "), "nvidia-a100-sxm4-40gb.tsv");
}

TEST(Profiles, LoadsTheTestProfile) {
  auto p = load_profile(test::fixture_path("profiles"), "Bigtune Test GPU");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->decisions.size(), 2u);
  const DecisionRecord* d = p->find("mul", 100000, 1);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->variant, "mul.profile.test.a");
  EXPECT_EQ(p->find("mul", 100000, 2), nullptr);
  EXPECT_FALSE(load_profile(test::fixture_path("profiles"), "No Such GPU"));
}

TEST(TextFormat, Version1BucketsMoveUpOneBitAsTheSchemaMigrationDoes) {
  // v1 wrote bits buckets as [2^k, 1.25 2^k); v2 (db/buckets.hpp) as
  // (2^k, 1.25 2^k], stored [2^k + 1, 1.25 2^k + 1). Tiny buckets stay.
  const std::string row = "\tmul\t%s\t1024\t2048\tv\t1\t\\N\t\\N\ttuner\t2026-01-01T00:00:00.000Z\n";
  auto text = [&](const char* version, const char* bits) {
    char line[256];
    std::snprintf(line, sizeof line, row.c_str(), bits);
    return std::string("bigtune-tuning\t") + version + "\ndecision\tGPU-1" + line;
  };
  Dump v1 = from_text(text("1", "32768\t40960"));
  ASSERT_EQ(v1.decisions.size(), 1u);
  EXPECT_EQ(v1.decisions[0].bits.lo, 32769u);
  EXPECT_EQ(v1.decisions[0].bits.hi, 40961u);
  EXPECT_EQ(v1.decisions[0].bits.lo, bits_bucket(40000).lo);
  Dump tiny = from_text(text("1", "5\t6"));
  EXPECT_EQ(tiny.decisions[0].bits.lo, 5u);
  Dump v2 = from_text(text("2", "32769\t40961"));
  EXPECT_EQ(v2.decisions[0].bits.lo, 32769u);
}

TEST(Profiles, RefusesAProfileOfAnotherModelOrWithOtherRows) {
  test::TempDir dir;
  const std::string text = test::read_bytes(test::fixture_path("profiles/bigtune-test-gpu.tsv"));
  // Same file under another model's name.
  test::write_bytes(dir.file("bigtune-test-gpu-2.tsv"), text);
  EXPECT_THROW(load_profile(dir.path().string(), "Bigtune Test GPU 2"), Error);
  test::write_bytes(dir.file("bigtune-test-gpu.tsv"),
                    text + "variant\ta\tb\tc\td\te\t64\t4\n");
  EXPECT_THROW(load_profile(dir.path().string(), "Bigtune Test GPU"), Error);
}

TEST(Profiles, MadeFromADumpKeepTheNewestDecisionPerBucket) {
  Dump all = awkward_dump();
  all.devices[1].name = all.devices[0].name;  // a second card of the same model
  DecisionRecord newer = all.decisions[0];
  newer.device_uuid = "model:Named";
  newer.variant = "newer";
  newer.decided_at = "2026-02-01T00:00:00.000Z";
  all.decisions.push_back(newer);
  const Dump profile = make_profile(all, all.devices[0].name);
  ASSERT_EQ(profile.devices.size(), 1u);
  EXPECT_EQ(profile.devices[0].uuid, "model:" + all.devices[0].name);
  EXPECT_TRUE(profile.devices[0].probes.empty());
  ASSERT_EQ(profile.decisions.size(), 1u);
  EXPECT_EQ(profile.decisions[0].variant, "newer");
  EXPECT_TRUE(profile.samples.empty() && profile.history.empty());
  // It is a loadable profile.
  test::TempDir dir;
  const std::string name = all.devices[0].name;
  test::write_bytes(dir.file(profile_file_name(name)), to_text(profile));
  auto loaded = load_profile(dir.path().string(), name);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->decisions.size(), 1u);
  EXPECT_THROW(make_profile(all, "Unknown"), Error);
}

}  // namespace
}  // namespace bigtune::db
