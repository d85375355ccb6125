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
  // Median device time in microseconds; throws bigtune::Error on failure.
  double time_us(const Plan& plan, int warmup, int repetitions);
  // Counters: queue one launch of `plan` on the prepared batches; collect()
  // returns one map per queued launch (empty maps when unavailable, with the
  // reason in counters_unavailable()).
  void queue_counters(const Plan& plan);
  std::vector<std::map<std::string, double>> collect_counters();
  const std::string& counters_unavailable() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
  void launch(const Plan& plan, int rotation);
};

}  // namespace bigtune::cli
