// Coalesced global <-> shared <-> register staging (seed 001 Listing 1.1).
//
// A block's *tile* is the contiguous run of its instances in global memory.
// Global accesses are striped (thread i touches i, i + blockDim, ...), so a
// warp reads or writes consecutive words; shared memory then regroups them so
// that each thread owns Q consecutive limbs of one instance (blocked). Shared
// indices go through smem_physical() (layout.hpp) to avoid bank conflicts.
#pragma once
#include <cstdint>
#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// regs[k] = tile[threadIdx.x + k*blockDim.x], 0 past tile_len. All loads are
// issued before any is used, so several operands can be in flight at once.
// Requires Q * blockDim.x >= tile_len.
template <class Limb, int Q>
__device__ __forceinline__ void load_striped(Limb (&regs)[Q], const Limb* __restrict__ tile,
                                             uint32_t tile_len) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t i = threadIdx.x + k * blockDim.x;
    regs[k] = i < tile_len ? tile[i] : Limb(0);
  }
}

template <class Limb, int Q>
__device__ __forceinline__ void store_striped(Limb* __restrict__ tile, const Limb (&regs)[Q],
                                              uint32_t tile_len) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t i = threadIdx.x + k * blockDim.x;
    if (i < tile_len) tile[i] = regs[k];
  }
}

template <class Limb, int Q>
__device__ __forceinline__ void striped_to_smem(Limb* smem, const Limb (&regs)[Q], uint32_t tile_len) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t i = threadIdx.x + k * blockDim.x;
    if (i < tile_len) smem[smem_physical<Limb>(i)] = regs[k];
  }
}

template <class Limb, int Q>
__device__ __forceinline__ void smem_to_striped(Limb (&regs)[Q], const Limb* smem, uint32_t tile_len) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t i = threadIdx.x + k * blockDim.x;
    regs[k] = i < tile_len ? smem[smem_physical<Limb>(i)] : Limb(0);
  }
}

// Thread-owned view: regs[k] = limb (first + k) of the instance whose limbs
// start at logical index `base`; limbs at or past `limbs` read as 0.
template <class Limb, int Q>
__device__ __forceinline__ void smem_to_blocked(Limb (&regs)[Q], const Limb* smem, uint32_t base,
                                                uint32_t first, uint32_t limbs) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t j = first + k;
    regs[k] = j < limbs ? smem[smem_physical<Limb>(base + j)] : Limb(0);
  }
}

template <class Limb, int Q>
__device__ __forceinline__ void blocked_to_smem(Limb* smem, const Limb (&regs)[Q], uint32_t base,
                                                uint32_t first, uint32_t limbs) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t j = first + k;
    if (j < limbs) smem[smem_physical<Limb>(base + j)] = regs[k];
  }
}

}  // namespace bigtune::kernels::block
