// A launch prepared for measurement: what `bigtune profile` (and the tuner)
// hand to the profiler. The profiler stays generic: whoever knows the kernel
// (the runtime, for a bigtune variant at a size) builds the target, owns its
// buffers through keep_alive, and describes the work so that throughputs can
// be printed.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "profiler/timer.hpp"

namespace bigtune::profiler {

struct LaunchTarget {
  std::string name;            // e.g. "mul.classical.u64.q4 bits=4096 count=65536 ipb=1"
  LaunchFn launch;             // enqueues one run on the stream, with input set `rotation`
  int rotations = 1;           // input sets prepared (enough to exceed the L2 when possible)
  int kernels_per_launch = 1;  // kernels one launch() enqueues
  // For static facts and occupancy (optional: nullptr / 0 skip them).
  const void* kernel = nullptr;  // the __global__ function
  int block_threads = 0;
  std::size_t dynamic_shared_bytes = 0;
  // Work of one launch in named units, e.g. {"bytes", 3.0 * bits / 8 * count}
  // or {"instances", count}; printed as units per second.
  std::vector<std::pair<std::string, double>> work;
  std::shared_ptr<void> keep_alive;  // device buffers etc., freed with the target
};

}  // namespace bigtune::profiler
