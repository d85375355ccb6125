// Hardware counters of kernel launches through the CUPTI range profiler
// (issue 5, item 2): auto range (one range per kernel) + kernel replay (CUPTI
// re-runs each kernel once per pass, saving and restoring device memory).
//
// One CounterSession = one range-profiler session: starting it costs 150-240
// ms on the H100 (DESIGN.md), so open one and profile many launches. add()
// enqueues a launch closure; collect() decodes what is pending and returns one
// CounterSample per add(), in order. The counter-data image holds max_ranges
// ranges: CUPTI silently drops launches past that while still reporting zero
// dropped ranges, so the session collects by itself before it would overflow
// (each such refill stops and restarts the session).
//
// Counters are exact for instruction and load/store counts (4x the work gives
// 4x smsp__inst_executed.sum); cycles, DRAM bytes and duration under replay
// vary ~1 %. Durations come from Timer, never from here (separate runs).
//
// Counter access can be refused (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: driver
// restricts counters to admin users; another profiler such as ncu/nsys is
// attached): the constructor then throws CountersUnavailable, whose message
// says so; callers go on in timing-only mode.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bigtune/error.hpp"
#include "profiler/metric_config.hpp"

namespace bigtune::profiler {

class CountersUnavailable : public Error {
 public:
  explicit CountersUnavailable(const std::string& why)
      : Error(ErrorCode::Profiler, "hardware counters are unavailable: " + why,
              "measuring durations only (timing-only mode)") {}
};

struct CounterOptions {
  int device = 0;
  std::vector<std::string> metrics = default_metrics();
  std::size_t max_ranges = 256;  // kernels per counter-data image (>= 1)
};

struct CounterSample {
  bool ok = false;
  std::string error;                 // why not ok (range count mismatch, ...)
  int ranges = 0;                    // kernels profiled for this launch
  std::vector<std::string> names;    // metric names, as in values
  // Per metric: counters summed over the launch's kernels; ratios and
  // percentages averaged over them (identical to the value for one kernel).
  std::vector<double> values;
  double value(const std::string& name) const;  // NaN when absent
  std::string to_json() const;
};

class CounterSession {
 public:
  // Throws CountersUnavailable when counters cannot be read on this device,
  // bigtune::Error otherwise. Metrics the chip lacks go to rejected().
  explicit CounterSession(const CounterOptions& options = {});
  ~CounterSession();
  CounterSession(const CounterSession&) = delete;
  CounterSession& operator=(const CounterSession&) = delete;

  // Enqueues one profiled run of `launch` on the session's stream (it is
  // executed now; results are decoded at collect()). `kernels_per_launch` is
  // the number of kernels the closure launches (each one range).
  void add(const std::function<void(cudaStream_t)>& launch, int kernels_per_launch = 1);
  // One CounterSample per add() since the last collect(), in order.
  std::vector<CounterSample> collect();
  // add() + collect() for one launch.
  CounterSample measure(const std::function<void(cudaStream_t)>& launch, int kernels_per_launch = 1);

  const std::string& chip() const;
  const std::vector<MetricInfo>& metrics() const;
  const std::vector<RejectedMetric>& rejected() const;
  std::size_t passes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  void start();
  void stop_and_decode();
  void release() noexcept;
};

}  // namespace bigtune::profiler
