// Blocked loads and stores between an instance-major batch and the Q limbs a
// lane holds (lane j of an instance: limbs [jQ, jQ + Q)). 32-bit limbs; an
// instance has an even number of them (limbs_for_bits), so 8-byte vectors are
// always aligned, and 16-byte vectors are when the instance length and Q are
// multiples of 4. Limbs past the instance read as 0 and are not written.
// A warp's lanes cover consecutive limbs of consecutive instances, so each
// vector access of the warp touches whole 32-byte sectors.
#pragma once
#include <cstdint>

namespace bigtune::kernels::warp {

// x[k] = p[first + k] for first + k < limbs, else 0; zeros when !active.
template <int Q>
__device__ __forceinline__ void load_blocked(uint32_t (&x)[Q], const uint32_t* p, uint32_t first, uint32_t limbs,
                                             bool active) {
  static_assert(Q % 2 == 0, "Q must be even (8-byte vectors)");
#pragma unroll
  for (int k = 0; k < Q; ++k) x[k] = 0;
  if (!active) return;
  if constexpr (Q % 4 == 0) {
    if (limbs % 4 == 0) {
#pragma unroll
      for (int k = 0; k < Q; k += 4)
        if (first + k < limbs) {
          const uint4 v = __ldg(reinterpret_cast<const uint4*>(p + first + k));
          x[k] = v.x, x[k + 1] = v.y, x[k + 2] = v.z, x[k + 3] = v.w;
        }
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < Q; k += 2)
    if (first + k < limbs) {
      const uint2 v = __ldg(reinterpret_cast<const uint2*>(p + first + k));
      x[k] = v.x, x[k + 1] = v.y;
    }
}

// p[first + k] = x[k] for first + k < limbs; nothing when !active.
template <int Q>
__device__ __forceinline__ void store_blocked(uint32_t* p, const uint32_t (&x)[Q], uint32_t first, uint32_t limbs,
                                              bool active) {
  if (!active) return;
  if constexpr (Q % 4 == 0) {
    if (limbs % 4 == 0) {
#pragma unroll
      for (int k = 0; k < Q; k += 4)
        if (first + k < limbs) *reinterpret_cast<uint4*>(p + first + k) = make_uint4(x[k], x[k + 1], x[k + 2], x[k + 3]);
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < Q; k += 2)
    if (first + k < limbs) *reinterpret_cast<uint2*>(p + first + k) = make_uint2(x[k], x[k + 1]);
}

// Reduces limbs [first, first + Q) of a number modulo 2^bits.
template <int Q>
__device__ __forceinline__ void mask_to_bits(uint32_t (&x)[Q], uint32_t first, uint64_t bits) {
  const uint64_t top = bits / 32;
  const uint32_t top_mask = (uint32_t(1) << (bits % 32)) - 1u;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint64_t pos = uint64_t(first) + k;
    if (pos > top) x[k] = 0;
    if (pos == top) x[k] &= top_mask;
  }
}

}  // namespace bigtune::kernels::warp
