// One-thread addition and subtraction with a ripple carry (seed 002 §3.2: the
// thread-per-instance regime, where one instance is a few limbs and a carry
// scan across threads would cost more than it saves).
//
// The operands lie in the thread's own shared-memory region (thread_layout.hpp):
// a at x[0, n), b at x[n, 2n); the result overwrites a. Cost: n limb additions
// and 3n conflict-free shared accesses; the kernel is bound by global memory
// (3 * bits / 8 bytes per instance), not by this loop.
#pragma once
#include <cstdint>

#include "kernels/arith/limb.cuh"

namespace bigtune::kernels::thread {

// x[0, n) = a +/- b; returns the carry out of bit `bits` of the sum (add) or
// the borrow out of the whole subtraction (sub), as the block kernels do.
// Precondition: a, b < 2^bits, bits <= n * L.
template <class Limb, bool kSub>
__device__ __forceinline__ uint32_t add_sub_n(Limb* x, uint32_t n, uint64_t bits) {
  constexpr int L = arith::LimbTraits<Limb>::kBits;
  Limb carry = 0;
#pragma unroll 4
  for (uint32_t j = 0; j < n; ++j) {
    Limb r;
    carry = kSub ? arith::sub_limb(r, x[j], x[n + j], carry) : arith::add_limb(r, x[j], x[n + j], carry);
    x[j] = r;
  }
  if (kSub) return uint32_t(carry);
  // When bits does not fill the limbs, the carry is a bit inside the sum.
  const uint64_t carry_limb = bits / L;
  if (carry_limb < n) return uint32_t((x[carry_limb] >> (bits % L)) & 1);
  return uint32_t(carry);
}

}  // namespace bigtune::kernels::thread
