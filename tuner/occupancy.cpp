#include "tuner/occupancy.hpp"

#include <algorithm>

namespace bigtune::tuner {

namespace {
int64_t round_up(int64_t a, int64_t b) { return (a + b - 1) / b * b; }
}  // namespace

SmLimits SmLimits::h100() { return SmLimits{}; }

const char* occupancy_limit_name(OccupancyLimit l) {
  switch (l) {
    case OccupancyLimit::Warps: return "warps";
    case OccupancyLimit::Blocks: return "blocks";
    case OccupancyLimit::Registers: return "registers";
    case OccupancyLimit::SharedMemory: return "shared memory";
    case OccupancyLimit::Invalid: return "invalid";
  }
  return "?";
}

OccupancyResult occupancy(const SmLimits& sm, int block_threads, int regs, int64_t smem_bytes) {
  OccupancyResult r;
  if (block_threads <= 0 || block_threads > sm.max_threads_per_block) {
    r.why_zero = "block of " + std::to_string(block_threads) + " threads";
    return r;
  }
  const int max_warps = sm.max_threads_per_sm / sm.warp_size;
  const int warps_per_block = (block_threads + sm.warp_size - 1) / sm.warp_size;
  const int by_warps = max_warps / warps_per_block;
  const int by_blocks = sm.max_blocks_per_sm;
  int by_regs = by_blocks;
  if (regs > 0) {
    if (regs > sm.max_regs_per_thread) {
      r.why_zero = std::to_string(regs) + " registers per thread";
      return r;
    }
    const int64_t per_warp = round_up(int64_t(regs) * sm.warp_size, sm.reg_alloc_unit);
    if (per_warp * warps_per_block > sm.regs_per_block) {
      r.why_zero = "block needs more registers than the register file allows per block";
      return r;
    }
    const int64_t warps_per_part = (sm.regs_per_sm / sm.sub_partitions) / per_warp;
    by_regs = int(warps_per_part * sm.sub_partitions / warps_per_block);
  }
  int by_smem = by_blocks;
  if (smem_bytes > 0) {
    if (smem_bytes > sm.smem_per_block_optin) {
      r.why_zero = "block needs more shared memory than the device allows per block";
      return r;
    }
    const int64_t per_block = round_up(smem_bytes + sm.smem_reserved_per_block, sm.smem_alloc_unit);
    by_smem = int(sm.smem_per_sm / per_block);
  }
  r.blocks_per_sm = std::min({by_warps, by_blocks, by_regs, by_smem});
  // The binding limit; ties name the first of warps, blocks, registers, shared memory.
  if (r.blocks_per_sm == by_warps) r.limit = OccupancyLimit::Warps;
  else if (r.blocks_per_sm == by_blocks) r.limit = OccupancyLimit::Blocks;
  else if (r.blocks_per_sm == by_regs) r.limit = OccupancyLimit::Registers;
  else r.limit = OccupancyLimit::SharedMemory;
  if (r.blocks_per_sm == 0) {
    r.limit = OccupancyLimit::Invalid;
    r.why_zero = by_regs == 0 ? "registers" : "shared memory";
  }
  r.warps_per_sm = r.blocks_per_sm * warps_per_block;
  r.fraction = double(r.warps_per_sm) / max_warps;
  return r;
}

}  // namespace bigtune::tuner
