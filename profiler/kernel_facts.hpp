// Static facts of a compiled kernel and its occupancy (issue 5, item 3).
// Read through the runtime API (cudaFuncGetAttributes, the occupancy API),
// which reports what cuFuncGetAttribute would, without linking libcuda.
#pragma once
#include <cstddef>
#include <string>

namespace bigtune::profiler {

struct KernelFacts {
  int registers_per_thread = 0;
  std::size_t static_shared_bytes = 0;
  std::size_t local_bytes_per_thread = 0;  // spills + local arrays (ptxas' "stack frame")
  std::size_t const_bytes = 0;
  int max_threads_per_block = 0;  // from __launch_bounds__ and register use
  int max_dynamic_shared_bytes = 0;  // current opt-in limit of this function
  int ptx_version = 0, binary_version = 0;  // e.g. 90 for sm_90
  std::string to_json() const;
};

// `kernel` is a __global__ function's address (as for cudaLaunchKernel).
// Throws bigtune::Error.
KernelFacts kernel_facts(const void* kernel);

enum class OccupancyLimit { Threads, Registers, SharedMemory, Blocks, None };
const char* occupancy_limit_name(OccupancyLimit limit);

struct Occupancy {
  int block_threads = 0;
  std::size_t dynamic_shared_bytes = 0;
  int active_blocks_per_sm = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  double fraction = 0;           // active warps / max warps (theoretical occupancy)
  OccupancyLimit limit = OccupancyLimit::None;  // the resource that binds first
  std::string to_json() const;
};

// Theoretical occupancy of `kernel` launched with `block_threads` threads and
// `dynamic_shared_bytes` of dynamic shared memory on `device`.
Occupancy occupancy(const void* kernel, int block_threads, std::size_t dynamic_shared_bytes,
                    int device = 0);

}  // namespace bigtune::profiler
