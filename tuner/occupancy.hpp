// Exact occupancy: the decision node of the rational program that needs no
// fitting (seed 004 §4.2: "occupancy ... determined by the device limits,
// registers and shared memory"). It follows the CUDA occupancy calculator
// (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor) so that the
// tuner can answer offline, for any block size, what the driver would:
//  - warps: floor(max warps per SM / warps per block), at most max blocks per SM;
//  - registers: per warp, regs/thread x 32 rounded up to the allocation unit
//    (256); registers are split among the SM's 4 sub-partitions, each holding
//    floor(regs_per_sm / 4 / regs_per_warp) warps; blocks = those warps / warps
//    per block; 0 when a thread needs more than the per-thread maximum or a
//    block more than the per-block register file;
//  - shared memory: per block, static + dynamic + the driver's reserved bytes
//    (1 KB on sm_80/sm_90), rounded up to 128 B; blocks = floor(per-SM / that).
#pragma once
#include <cstdint>
#include <string>

namespace bigtune::tuner {

struct SmLimits {
  int sm_count = 132;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int regs_per_sm = 65536;
  int regs_per_block = 65536;
  int max_regs_per_thread = 255;
  int reg_alloc_unit = 256;      // registers, per warp
  int sub_partitions = 4;        // register file split (schedulers per SM)
  int64_t smem_per_sm = 233472;  // bytes usable by blocks on one SM (largest carveout)
  int64_t smem_per_block_optin = 232448;
  int smem_reserved_per_block = 1024;
  int smem_alloc_unit = 128;
  static SmLimits h100();  // sm_90, 132 SMs (the same numbers as kernels::DeviceLimits::h100)
};

enum class OccupancyLimit { Warps, Blocks, Registers, SharedMemory, Invalid };
const char* occupancy_limit_name(OccupancyLimit l);

struct OccupancyResult {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  double fraction = 0;  // active warps / max warps
  OccupancyLimit limit = OccupancyLimit::Invalid;
  std::string why_zero;  // when blocks_per_sm == 0
};

// block_threads: threads per block; regs: per thread (cudaFuncAttributes::numRegs);
// smem_bytes: static + dynamic shared memory of one block.
OccupancyResult occupancy(const SmLimits& sm, int block_threads, int regs, int64_t smem_bytes);

}  // namespace bigtune::tuner
