// Limb types and the few PTX carry-chain sequences bigtune's kernels use.
//
// This is the only file with inline assembly (STYLE.md, "layers"). Every asm
// block is self-contained: a carry flag never crosses two asm statements,
// because nvcc does not promise to preserve it between them.
#pragma once
#include <cstdint>

namespace bigtune::kernels::arith {

template <class Limb>
struct LimbTraits;

template <>
struct LimbTraits<uint32_t> {
  static constexpr int kBits = 32;
};

template <>
struct LimbTraits<uint64_t> {
  static constexpr int kBits = 64;
};

// A three-limb column accumulator (lo, hi, top) for sums of limb products:
// the sum of k products of L-bit limbs is below k * 2^(2L), so `top` counts
// the overflows of (hi, lo) and never wraps for k < 2^L terms.
template <class Limb>
struct Accumulator {
  Limb lo, hi, top;
};

// acc += a * b, the full 2L-bit product, in one carry chain.
__device__ __forceinline__ void mad_wide(Accumulator<uint32_t>& acc, uint32_t a, uint32_t b) {
  asm("mad.lo.cc.u32  %0, %3, %4, %0;\n\t"
      "madc.hi.cc.u32 %1, %3, %4, %1;\n\t"
      "addc.u32       %2, %2, 0;"
      : "+r"(acc.lo), "+r"(acc.hi), "+r"(acc.top)
      : "r"(a), "r"(b));
}

__device__ __forceinline__ void mad_wide(Accumulator<uint64_t>& acc, uint64_t a, uint64_t b) {
  asm("mad.lo.cc.u64  %0, %3, %4, %0;\n\t"
      "madc.hi.cc.u64 %1, %3, %4, %1;\n\t"
      "addc.u64       %2, %2, 0;"
      : "+l"(acc.lo), "+l"(acc.hi), "+l"(acc.top)
      : "l"(a), "l"(b));
}

// r = a + b + carry_in; returns the carry out (0 or 1). Plain C++: nvcc turns
// the comparisons into IADD3 carry-outs, as fast as add.cc here.
template <class Limb>
__host__ __device__ __forceinline__ Limb add_limb(Limb& r, Limb a, Limb b, Limb carry_in) {
  Limb s = a + b;
  Limb c = s < a;
  r = s + carry_in;
  return c | (r < s);
}

// r = a - b - borrow_in; returns the borrow out (0 or 1).
template <class Limb>
__host__ __device__ __forceinline__ Limb sub_limb(Limb& r, Limb a, Limb b, Limb borrow_in) {
  Limb d = a - b;
  Limb c = a < b;
  r = d - borrow_in;
  return c | (d < borrow_in);
}

}  // namespace bigtune::kernels::arith
