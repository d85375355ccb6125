// The measurement protocol of isolated.hpp without a GPU: the wire format,
// and outcomes decided before any CUDA call (invalid targets, crashing
// factories), through a fork-mode worker.
#include <gtest/gtest.h>
#include <signal.h>

#include "bigtune/error.hpp"
#include "profiler/isolated.hpp"

namespace bigtune::profiler {
namespace {

TEST(Isolated, RequestRoundTrip) {
  MeasureRequest r;
  r.target = "mul.classical.u64.q4 bits=4096\nsecond line \\ backslash";
  r.warmup = 1;
  r.repetitions = 7;
  r.backend = TimingBackend::Events;
  r.flush_l2 = true;
  r.counters = true;
  r.metrics = {"smsp__inst_executed.sum", "dram__bytes_read.sum"};
  const MeasureRequest d = decode_request(encode_request(r));
  EXPECT_EQ(d.target, r.target);
  EXPECT_EQ(d.warmup, 1);
  EXPECT_EQ(d.repetitions, 7);
  EXPECT_EQ(d.backend, TimingBackend::Events);
  EXPECT_TRUE(d.flush_l2);
  EXPECT_TRUE(d.counters);
  EXPECT_EQ(d.metrics, r.metrics);
  EXPECT_THROW(decode_request("bogus 1\n"), Error);
}

TEST(Isolated, ResultRoundTrip) {
  MeasureResult r;
  r.backend = "cupti";
  r.samples_ns = {1000.5, 999.25, 1001};
  r.counters = {{"smsp__inst_executed.sum", 123456789012.0}, {"sm__cycles_elapsed.avg", 0.5}};
  r.counters_unavailable = "";
  r.rejected_metrics = {{"x.sumx", "not a metric of GH100: CUPTI_ERROR_INVALID_METRIC_NAME"}};
  const MeasureResult d = decode_result(encode_result(r));
  EXPECT_EQ(d.outcome, Outcome::Ok);
  EXPECT_EQ(d.backend, "cupti");
  EXPECT_EQ(d.samples_ns, r.samples_ns);
  EXPECT_DOUBLE_EQ(d.summary.median, 1000.5);
  EXPECT_EQ(d.counters, r.counters);
  EXPECT_EQ(d.rejected_metrics, r.rejected_metrics);

  MeasureResult refused;
  refused.backend = "events";
  refused.fallback_reason = "CUPTI delivered no kernel records";
  refused.counters_unavailable = "hardware counters are unavailable: ...\nsecond line";
  const MeasureResult e = decode_result(encode_result(refused));
  EXPECT_EQ(e.fallback_reason, refused.fallback_reason);
  EXPECT_EQ(e.counters_unavailable, refused.counters_unavailable);
  EXPECT_TRUE(e.samples_ns.empty());
}

LaunchTarget cpu_factory(const std::string& spec) {
  if (spec == "crash") raise(SIGSEGV);
  throw Error(ErrorCode::Unsupported, "variant '" + spec + "' cannot run this size");
}

TEST(Isolated, InvalidTargetAndCrashingFactoryAreOutcomes) {
  Worker worker(measurement_handler(cpu_factory));
  MeasureRequest r;
  r.target = "too.big";
  MeasureResult m = measure_isolated(worker, r, 10);
  EXPECT_EQ(m.outcome, Outcome::Invalid);
  EXPECT_NE(m.reason.find("cannot run this size"), std::string::npos) << m.reason;
  r.target = "crash";
  m = measure_isolated(worker, r, 10);
  EXPECT_EQ(m.outcome, Outcome::Fault);
  EXPECT_NE(m.reason.find("signal"), std::string::npos) << m.reason;
  r.target = "again";
  EXPECT_EQ(measure_isolated(worker, r, 10).outcome, Outcome::Invalid);
}

}  // namespace
}  // namespace bigtune::profiler
