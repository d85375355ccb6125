// Measurements in a worker process (issue 5, item 5), ready to use: the
// parent sends a MeasureRequest naming one or more targets by opaque spec
// strings; the worker builds each LaunchTarget with the factory it was given
// (the runtime's, for bigtune variants at a size), times them, optionally
// reads their counters, and replies. Every target gets an Outcome with its
// reason: a faulting or hanging target does not end the run.
//
//   // worker side (bigtune-worker's main, or a test binary re-executed):
//   return serve_worker(measurement_handler(my_factory));
//   // parent side:
//   Worker worker(std::vector<std::string>{"bigtune-worker"});
//   std::vector<MeasureResult> r = measure_isolated(worker, request, 30);
//
// Batches: counters of all targets of a request are read in one range-
// profiler pass (add() each, one collect()), because each collect stops the
// session and the next start costs 150-240 ms on the H100; so send the sample
// points of a variant together. The worker keeps its CounterSession between
// requests. If a batch faults or times out, measure_isolated measures its
// targets again one by one (in fresh workers) to find the culprit, so each
// target still gets its own outcome. All targets of a batch are built before
// measuring and live until the reply: keep batches to sizes that fit.
// A target the factory refuses, or whose launch the device refuses, is
// "invalid" without disturbing the others.
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
  std::vector<std::string> targets;  // opaque to the profiler: each handed to the worker's factory
  int warmup = 3;
  int repetitions = 20;
  TimingBackend backend = TimingBackend::Auto;
  bool flush_l2 = false;
  bool counters = false;             // also read hardware counters (a separate run)
  std::vector<std::string> metrics;  // empty: default_metrics()
};

struct MeasureResult {
  std::string target;
  Outcome outcome = Outcome::Fault;
  std::string reason;  // not ok: what happened
  double seconds = 0;  // wall time of the worker call that produced it (whole batch)
  // Timing (ok only).
  std::string backend;  // "cupti" or "events"
  std::string fallback_reason;
  std::vector<double> samples_ns;
  Summary summary;
  // Counters (ok and requested).
  std::vector<std::pair<std::string, double>> counters;
  std::string counters_error;        // read, but could not be attributed to this launch
  std::string counters_unavailable;  // why there are none (privileges, another profiler, ...)
  std::vector<std::pair<std::string, std::string>> rejected_metrics;  // name, reason
};

// Builds the target for a spec; throws bigtune::Error InvalidArgument or
// Unsupported for a spec that cannot run (outcome "invalid").
using TargetFactory = std::function<LaunchTarget(const std::string& spec)>;

// The worker-side handler: decode, build, time, count, encode.
WorkerHandler measurement_handler(TargetFactory factory);

// Parent side: one result per target, in order. `timeout_seconds` applies to
// each target (a batch of n gets n times it, plus one for the worker start).
std::vector<MeasureResult> measure_isolated(Worker& worker, const MeasureRequest& request,
                                            double timeout_seconds);

// The wire format (line-based "key value", values escaped); exposed for tests.
std::string encode_request(const MeasureRequest& request);
MeasureRequest decode_request(const std::string& text);
std::string encode_results(const std::vector<MeasureResult>& results);
std::vector<MeasureResult> decode_results(const std::string& text);

}  // namespace bigtune::profiler
