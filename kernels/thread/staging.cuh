// Coalesced global <-> shared staging for thread-per-instance kernels
// (seed 002 §2.3's coalesced access for §3's one-product-per-thread kernels;
// region layout in thread_layout.hpp).
//
// A block's tile is the contiguous run of its instances in global memory
// (instance-major). Threads walk it striped — thread i touches words i,
// i + blockDim, ... — so a warp reads or writes 32 consecutive words, and each
// word lands in (or comes from) its instance's region. The word -> (instance,
// limb) split is kept incrementally: one division per thread, not per word.
// Loads use cp.async so a thread keeps many in flight without registers.
#pragma once
#include <cuda_pipeline.h>

#include <cstdint>

namespace bigtune::kernels::thread {

template <class Limb>
__device__ __forceinline__ Limb* region_smem() {
  extern __shared__ __align__(16) unsigned char bigtune_smem[];
  return reinterpret_cast<Limb*>(bigtune_smem);
}

// Walks e = threadIdx.x, + blockDim.x, ... below here * n, giving (inst, j)
// with e = inst * n + j.
class StripedWalk {
 public:
  __device__ StripedWalk(uint32_t n) : n_(n) {
    step_inst_ = blockDim.x / n;
    step_j_ = blockDim.x - step_inst_ * n;
    inst_ = threadIdx.x / n;
    j_ = threadIdx.x - inst_ * n;
  }
  __device__ __forceinline__ uint32_t inst() const { return inst_; }
  __device__ __forceinline__ uint32_t j() const { return j_; }
  __device__ __forceinline__ void next() {
    inst_ += step_inst_;
    j_ += step_j_;
    if (j_ >= n_) {
      j_ -= n_;
      ++inst_;
    }
  }

 private:
  uint32_t n_, step_inst_, step_j_, inst_, j_;
};

// Starts copying `here` instances of n limbs from `tile` to limbs
// [offset, offset + n) of each region (R limbs apart). Completes at
// wait_regions(); a __syncthreads() must follow before other threads read.
template <class Limb>
__device__ __forceinline__ void load_regions_async(Limb* smem, uint32_t R, uint32_t offset,
                                                   const Limb* __restrict__ tile, uint32_t n, uint32_t here) {
  const uint32_t total = here * n;
  StripedWalk w(n);
  for (uint32_t e = threadIdx.x; e < total; e += blockDim.x, w.next())
    __pipeline_memcpy_async(&smem[w.inst() * R + offset + w.j()], &tile[e], sizeof(Limb));
  __pipeline_commit();
}

__device__ __forceinline__ void wait_regions() { __pipeline_wait_prior(0); }

// Writes `out` limbs per instance to `tile`: limb j is region limb
// offset + j when j < valid, else 0; the result is reduced modulo 2^bits.
template <class Limb>
__device__ __forceinline__ void store_regions(Limb* __restrict__ tile, uint32_t out, const Limb* smem, uint32_t R,
                                              uint32_t offset, uint32_t valid, uint32_t here, uint64_t bits) {
  constexpr int L = int(sizeof(Limb) * 8);
  const uint64_t top_limb = bits / L;
  const Limb top_mask = (Limb(1) << (bits % L)) - 1;
  const uint32_t total = here * out;
  StripedWalk w(out);
  for (uint32_t e = threadIdx.x; e < total; e += blockDim.x, w.next()) {
    const uint32_t j = w.j();
    Limb v = j < valid ? smem[w.inst() * R + offset + j] : Limb(0);
    if (j > top_limb) v = 0;
    if (j == top_limb) v &= top_mask;
    tile[e] = v;
  }
}

}  // namespace bigtune::kernels::thread
