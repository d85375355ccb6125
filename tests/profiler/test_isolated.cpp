// The measurement protocol of isolated.hpp without a GPU: the wire format,
// and outcomes decided before any CUDA call (invalid targets, crashing
// factories, batches split after a crash), through fork-mode workers.
#include <gtest/gtest.h>
#include <signal.h>

#include "bigtune/error.hpp"
#include "profiler/isolated.hpp"

namespace bigtune::profiler {
namespace {

TEST(Isolated, RequestRoundTrip) {
  MeasureRequest r;
  r.targets = {"mul.classical.u64.q4 bits=4096\nsecond line \\ backslash", "add.scan.u32.q4 bits=64"};
  r.warmup = 1;
  r.repetitions = 7;
  r.backend = TimingBackend::Events;
  r.flush_l2 = true;
  r.counters = true;
  r.metrics = {"smsp__inst_executed.sum", "dram__bytes_read.sum"};
  const MeasureRequest d = decode_request(encode_request(r));
  EXPECT_EQ(d.targets, r.targets);
  EXPECT_EQ(d.warmup, 1);
  EXPECT_EQ(d.repetitions, 7);
  EXPECT_EQ(d.backend, TimingBackend::Events);
  EXPECT_TRUE(d.flush_l2);
  EXPECT_TRUE(d.counters);
  EXPECT_EQ(d.metrics, r.metrics);
  EXPECT_THROW(decode_request("bogus 1\n"), Error);
}

TEST(Isolated, ResultsRoundTrip) {
  MeasureResult a;
  a.target = "a";
  a.outcome = Outcome::Ok;
  a.backend = "cupti";
  a.samples_ns = {1000.5, 999.25, 1001};
  a.counters = {{"smsp__inst_executed.sum", 123456789012.0}, {"sm__cycles_elapsed.avg", 0.5}};
  a.rejected_metrics = {{"x.sumx", "not a metric of GH100: CUPTI_ERROR_INVALID_METRIC_NAME"}};
  MeasureResult b;
  b.target = "b\nwith newline";
  b.outcome = Outcome::Invalid;
  b.reason = "too big";
  MeasureResult c;
  c.target = "c";
  c.outcome = Outcome::Ok;
  c.backend = "events";
  c.fallback_reason = "CUPTI delivered no kernel records";
  c.samples_ns = {5};
  c.counters_unavailable = "hardware counters are unavailable: ...\nsecond line";
  const auto d = decode_results(encode_results({a, b, c}));
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].outcome, Outcome::Ok);
  EXPECT_EQ(d[0].backend, "cupti");
  EXPECT_EQ(d[0].samples_ns, a.samples_ns);
  EXPECT_DOUBLE_EQ(d[0].summary.median, 1000.5);
  EXPECT_EQ(d[0].counters, a.counters);
  EXPECT_EQ(d[0].rejected_metrics, a.rejected_metrics);
  EXPECT_EQ(d[1].target, b.target);
  EXPECT_EQ(d[1].outcome, Outcome::Invalid);
  EXPECT_EQ(d[1].reason, "too big");
  EXPECT_TRUE(d[1].samples_ns.empty());
  EXPECT_EQ(d[2].fallback_reason, c.fallback_reason);
  EXPECT_EQ(d[2].counters_unavailable, c.counters_unavailable);
}

LaunchTarget cpu_factory(const std::string& spec) {
  if (spec == "crash") raise(SIGSEGV);
  if (spec == "hang")
    for (;;) pause();
  throw Error(ErrorCode::Unsupported, "variant '" + spec + "' cannot run this size");
}

TEST(Isolated, InvalidTargetsAreOutcomesAndTheWorkerGoesOn) {
  Worker worker(measurement_handler(cpu_factory));
  MeasureRequest r;
  r.targets = {"too.big", "also.too.big"};
  const auto m = measure_isolated(worker, r, 10);
  ASSERT_EQ(m.size(), 2u);
  for (const auto& x : m) {
    EXPECT_EQ(x.outcome, Outcome::Invalid);
    EXPECT_NE(x.reason.find("cannot run this size"), std::string::npos) << x.reason;
  }
  EXPECT_EQ(m[1].target, "also.too.big");
  EXPECT_EQ(worker.starts(), 1);
}

TEST(Isolated, ACrashInABatchIsPinnedOnItsTarget) {
  Worker worker(measurement_handler(cpu_factory));
  MeasureRequest r;
  r.targets = {"first", "crash", "third"};
  const auto m = measure_isolated(worker, r, 10);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].outcome, Outcome::Invalid);
  EXPECT_EQ(m[1].outcome, Outcome::Fault);
  EXPECT_NE(m[1].reason.find("signal 11"), std::string::npos) << m[1].reason;
  EXPECT_EQ(m[2].outcome, Outcome::Invalid);
  EXPECT_EQ(m[2].target, "third");
}

TEST(Isolated, AHangingTargetTimesOut) {
  Worker worker(measurement_handler(cpu_factory));
  MeasureRequest r;
  r.targets = {"hang"};
  const auto m = measure_isolated(worker, r, 0.25);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].outcome, Outcome::Timeout);
  EXPECT_LT(m[0].seconds, 3);
  r.targets = {"next"};
  EXPECT_EQ(measure_isolated(worker, r, 10).front().outcome, Outcome::Invalid);
}

}  // namespace
}  // namespace bigtune::profiler
