// Coalesced global <-> shared <-> register staging (seed 001 Listing 1.1).
//
// A block's *tile* is the contiguous run of its instances in global memory.
// Global accesses are striped (thread i touches i, i + blockDim, ...), so a
// warp reads or writes consecutive words; shared memory then regroups them so
// that each thread owns Q consecutive limbs of one instance (blocked). Shared
// indices go through smem_physical() (layout.hpp) to avoid bank conflicts.
//
// Loads use cp.async (sm_80+, through cuda_pipeline.h): the copy goes straight
// to shared memory, so no registers are tied up while it is in flight and two
// operands can be fetched at once.
#pragma once
#include <cuda_pipeline.h>

#include <cstdint>

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Starts copying tile[0, len) to logical shared indices [offset, offset+len),
// striped; completes at wait_tiles().
template <class Limb>
__device__ __forceinline__ void copy_tile_async(Limb* smem, uint32_t offset, const Limb* __restrict__ tile,
                                                uint32_t len) {
  for (uint32_t i = threadIdx.x; i < len; i += blockDim.x)
    __pipeline_memcpy_async(&smem[smem_physical<Limb>(offset + i)], &tile[i], sizeof(Limb));
  __pipeline_commit();
}

// Waits for this thread's copies; a __syncthreads() must follow before other
// threads' copies are read.
__device__ __forceinline__ void wait_tiles() { __pipeline_wait_prior(0); }

// Writes logical shared [offset, offset+len) to tile[0, len), striped.
template <class Limb>
__device__ __forceinline__ void store_tile(Limb* __restrict__ tile, const Limb* smem, uint32_t offset,
                                           uint32_t len) {
  for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) tile[i] = smem[smem_physical<Limb>(offset + i)];
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
