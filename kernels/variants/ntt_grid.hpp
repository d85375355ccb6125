// Grid size of the persistent NTT kernels (ntt_kernels.cuh): every block
// loops over instances, so a grid larger than what the GPU holds at once runs
// in waves, and the last, partial wave leaves SMs idle. 1024 blocks (the
// scratch slots, ntt_layout.hpp) of a kernel that fits one block per SM run
// as 7.76 waves on an H100's 132 SMs: 8 waves' time for 7.76 waves' work, ~3 %
// (ncu, 2026-11-22: "partial wave of 233 blocks" for m12). A grid of exactly
// the resident blocks (occupancy x SMs) runs one wave; the blocks' instance
// counts then differ by at most one.
#pragma once
#include <cstdint>

#include "kernels/block/ntt_layout.hpp"
#include "kernels/variants/resident_grid.hpp"

namespace bigtune::kernels::variants {

// Blocks to launch for `count` instances: at most ntt_slots(count) (the
// scratch slots allocated), at most the blocks resident at once; falls back
// to ntt_slots(count) if the occupancy query fails. Call after the kernel's
// dynamic shared memory attribute is set.
inline uint32_t ntt_grid_blocks(const void* kernel, uint32_t threads, uint32_t smem, uint64_t count) {
  const uint32_t slots = block::ntt_slots(count);
  const uint64_t resident = resident_blocks(kernel, threads, smem);
  return resident != 0 && resident < slots ? uint32_t(resident) : slots;
}

}  // namespace bigtune::kernels::variants
