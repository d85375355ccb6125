// Measuring plans of any op for the tuner (bigtune tune / validate): batches
// laid out as runtime::op_layout says, filled with random operands once per
// (op, bits, count) and shared by every candidate plan of that size; each
// plan timed with the profiler's Timer (CUPTI, events fallback) and, on
// request, counted with one CounterSession for the whole run (its start
// costs 150-240 ms on the H100, so counters are queued with add() and read
// with one collect() per op).
//
// In-process: a faulting candidate is recorded with its reason and the run
// goes on only when the CUDA context survives (launch refusals do; a device
// fault does not, and ends the run with a clear error). The profiler's Worker
// isolation is the next step (profiler/isolated.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"

namespace bigtune::cli {

class OpBench {
 public:
  explicit OpBench(int device);
  ~OpBench();
  Context& context();
  const kernels::DeviceLimits& limits();
  // Allocates and fills the batches of (op, bits, count); `rotations` input
  // sets (0: enough to pass twice the L2, at most 4).
  void prepare(Op op, uint64_t bits, uint64_t count, int rotations = 0);
  // On (tune): powm from tuner::kShortExponentMinBits bits gets its sets
  // twice, with short exponents of two lengths, and every time and counter
  // below is the value extrapolated to full-size exponents
  // (tuner::extrapolate_exponent). Off (validate): full-size exponents.
  void set_short_exponents(bool on);
  // Median device time in microseconds; throws bigtune::Error on failure.
  double time_us(const Plan& plan, int warmup, int repetitions);
  // The same with fewer runs where they agree: `repetitions` timed runs,
  // and `extra` more only when their spread ((max - min) / median) exceeds
  // `spread` (the median of all runs then). Where the spread is small, more
  // runs would not change a decision (tuner samples differ by far more).
  // slow_us > 0: one launch is timed first (as the warm-up) and its time
  // returned as it is when it reaches slow_us.
  double time_us_adaptive(const Plan& plan, int warmup, int repetitions, int extra, double spread,
                          double slow_us = 0);
  // Kernels one launch of `plan`'s variant enqueued when last timed (CUPTI
  // records; 1 when unknown). Multi-kernel plans (NTT products, shifted-
  // inverse division) need it for the counters: the range profiler gives one
  // range per kernel, and a wrong count misaligns every later launch.
  int kernels_per_launch(const std::string& variant) const;
  // The same for `plan` at the prepared size (timed there), else the variant's.
  int kernels_per_launch(const Plan& plan) const;
  // Counters: queue one launch of `plan` on the prepared batches; collect()
  // returns one map per queued launch (empty maps when unavailable, with the
  // reason in counters_unavailable()).
  void queue_counters(const Plan& plan);
  std::vector<std::map<std::string, double>> collect_counters();
  const std::string& counters_unavailable() const;
  // Counters to collect (empty: the profiler's default set). The tuner
  // fits four; fewer metrics mean fewer replay passes per launch.
  void set_counter_metrics(std::vector<std::string> metrics);

  // Where the time goes (seconds of wall clock), for tune's log.
  struct Stats {
    double prepare_s = 0, timing_s = 0, counters_s = 0;
    int prepares = 0, timings = 0, extra_timings = 0, counter_launches = 0;
  };
  const Stats& stats() const;
  void reset_stats();

 private:
  struct State;
  std::unique_ptr<State> s_;
  std::vector<double> last_samples_;  // ns, of the last time_group call
  void launch(const Plan& plan, size_t set);
  // Timing on the sets of one exponent group, from set `first`.
  double time_group(const Plan& plan, int warmup, int repetitions, size_t first);
  double adaptive_group(const Plan& plan, int warmup, int repetitions, int extra, double spread, double slow_us,
                        size_t first);
};

}  // namespace bigtune::cli
