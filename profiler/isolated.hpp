// Measurements in a worker process (issue 5, item 5), ready to use: the
// parent sends a MeasureRequest naming a target by an opaque spec string; the
// worker builds the LaunchTarget with the factory it was given (the runtime's,
// for bigtune variants), times it, optionally reads its counters, and replies.
// Faults, hangs and invalid targets come back as an Outcome with a reason.
//
//   // worker side (bigtune-worker's main, or a test binary re-executed):
//   return serve_worker(measurement_handler(my_factory));
//   // parent side:
//   Worker worker({"bigtune-worker"});
//   MeasureResult r = measure_isolated(worker, request, /*timeout_s=*/30);
//
// The worker keeps one CounterSession across requests (a session start costs
// 150-240 ms); timing runs before counters in each request. When counters are
// refused, every reply says so (counters_unavailable) and carries durations.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "profiler/launch_target.hpp"
#include "profiler/statistics.hpp"
#include "profiler/timer.hpp"
#include "profiler/worker.hpp"

namespace bigtune::profiler {

struct MeasureRequest {
  std::string target;  // opaque to the profiler: handed to the worker's factory
  int warmup = 3;
  int repetitions = 20;
  TimingBackend backend = TimingBackend::Auto;
  bool flush_l2 = false;
  bool counters = false;             // also read hardware counters (a separate run)
  std::vector<std::string> metrics;  // empty: default_metrics()
};

struct MeasureResult {
  Outcome outcome = Outcome::Fault;
  std::string reason;  // not ok: what happened
  double seconds = 0;  // wall time of the request, worker start included
  // Timing (ok only).
  std::string backend;  // "cupti" or "events"
  std::string fallback_reason;
  std::vector<double> samples_ns;
  Summary summary;
  // Counters (ok and requested).
  std::vector<std::pair<std::string, double>> counters;
  std::string counters_error;        // counters were read but could not be attributed
  std::string counters_unavailable;  // why there are none (privileges, another profiler, ...)
  std::vector<std::pair<std::string, std::string>> rejected_metrics;  // name, reason
};

// Builds the target for a spec; throws bigtune::Error InvalidArgument or
// Unsupported for a spec that cannot run (outcome "invalid").
using TargetFactory = std::function<LaunchTarget(const std::string& spec)>;

// The worker-side handler: decode, build, time, count, encode.
WorkerHandler measurement_handler(TargetFactory factory);

// Parent side: one request through `worker`, at most `timeout_seconds`.
MeasureResult measure_isolated(Worker& worker, const MeasureRequest& request, double timeout_seconds);

// The wire format (line-based "key value", values escaped); exposed for tests.
std::string encode_request(const MeasureRequest& request);
MeasureRequest decode_request(const std::string& text);
std::string encode_result(const MeasureResult& result);  // ok payload: timing + counters
MeasureResult decode_result(const std::string& text);

}  // namespace bigtune::profiler
