// Block-level comparison and shifts of instances staged in shared memory.
//
// cmp: each thread compares its Q limbs from the top; the instance's answer is
// that of the most significant thread that saw a difference, found with one
// shared-memory atomicMax per instance (cheaper than a scan: no carries).
// shl/shr: seed 001 Listing 1.2 generalised to any bit count: limb j of the
// result reads limbs j -/+ w and j -/+ (w+1) of the staged source, w = s / L.
#pragma once
#include <cstdint>
#include "kernels/arith/limb.cuh"
#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// -1, 0 or +1 for the Q limbs a vs b, most significant limb first.
template <class Limb, int Q>
__device__ __forceinline__ int chunk_cmp(const Limb (&a)[Q], const Limb (&b)[Q]) {
  int c = 0;
#pragma unroll
  for (int k = Q - 1; k >= 0; --k) {
    if (c == 0 && a[k] != b[k]) c = a[k] > b[k] ? 1 : -1;
  }
  return c;
}

// Key for atomicMax: a higher thread's difference outranks a lower one's.
__device__ __forceinline__ uint32_t cmp_key(uint32_t local_thread, int c) {
  return c == 0 ? 0u : ((local_thread + 1) << 2) | uint32_t(c + 1);
}
__device__ __forceinline__ int cmp_from_key(uint32_t key) {
  return key == 0 ? 0 : int(key & 3) - 1;
}

// Limb `j` of the source instance staged at logical `base` with `limbs` limbs;
// out-of-range indices (negative ones included, as huge unsigned) read 0.
template <class Limb>
__device__ __forceinline__ Limb staged_limb(const Limb* smem, uint32_t base, int64_t j, uint32_t limbs) {
  return (j >= 0 && j < int64_t(limbs)) ? smem[smem_physical<Limb>(base + uint32_t(j))] : Limb(0);
}

// r = limbs [first, first+Q) of (source << shift) (kLeft) or (source >> shift).
template <class Limb, int Q, bool kLeft>
__device__ __forceinline__ void chunk_shift(Limb (&r)[Q], const Limb* smem, uint32_t base, uint32_t first,
                                            uint32_t limbs, uint64_t shift) {
  constexpr int L = arith::LimbTraits<Limb>::kBits;
  const uint64_t limb_shift64 = shift / L;
  const int64_t w = limb_shift64 > limbs ? int64_t(limbs) + 1 : int64_t(limb_shift64);
  const int s = int(shift % L);
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const int64_t j = int64_t(first) + k;
    if constexpr (kLeft) {
      const Limb hi = staged_limb(smem, base, j - w, limbs);
      const Limb lo = staged_limb(smem, base, j - w - 1, limbs);
      r[k] = s == 0 ? hi : Limb((hi << s) | (lo >> (L - s)));
    } else {
      const Limb lo = staged_limb(smem, base, j + w, limbs);
      const Limb hi = staged_limb(smem, base, j + w + 1, limbs);
      r[k] = s == 0 ? lo : Limb((lo >> s) | (hi << (L - s)));
    }
  }
}

// Clears the bits at and above `bits` in limbs [first, first+Q): results are
// taken modulo 2^bits.
template <class Limb, int Q>
__device__ __forceinline__ void chunk_mask_to_bits(Limb (&r)[Q], uint32_t first, uint64_t bits) {
  constexpr int L = arith::LimbTraits<Limb>::kBits;
  const uint64_t top_limb = bits / L;
  const int top_bit = int(bits % L);
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint64_t j = uint64_t(first) + k;
    if (j > top_limb) r[k] = 0;
    if (j == top_limb) r[k] &= (Limb(1) << top_bit) - 1;
  }
}

}  // namespace bigtune::kernels::block
