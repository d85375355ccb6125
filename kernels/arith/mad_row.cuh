// Row multiply-accumulate on 32-bit digits with even/odd accumulators.
//
// A row a * w[0 .. N) is split by the parity of the w digit: products of
// even digits go to an accumulator E, products of odd digits to O (which
// holds digit j+1 at index j), so that in both every product's 64 bits land
// on an even-aligned register pair and enter the sum through one carry-chained
// IMAD.WIDE.U32. E + O * 2^32 is formed once per chunk, not per step. The
// chains are generated (gen_mad_rows.py) because an asm string must be a
// literal.
#pragma once
#include <cstdint>

namespace bigtune::kernels::arith {

#include "kernels/arith/mad_rows.inc"

// E += a * w[even digits], O += a * w[odd digits] for a row of N digits w
// (N = 1 or even); `shifted` places the row one digit up (a 64-bit limb's
// high half), which swaps the roles of E and O. E and O hold L digits each.
template <int N, int L, bool kShifted>
__device__ __forceinline__ void mad_row(uint32_t* e, uint32_t* o, uint32_t a, const uint32_t* w) {
  constexpr int kEven = (N + 1) / 2, kOdd = N / 2;
  if constexpr (!kShifted) {
    PairRow<kEven, L - 2 * kEven>::apply(e, a, w);                    // w[2k] at digit 2k
    if constexpr (kOdd > 0) PairRow<kOdd, L - 2 * kOdd>::apply(o, a, w + 1);  // w[2k+1] at 2k+1
  } else {
    PairRow<kEven, L - 2 * kEven>::apply(o, a, w);                    // w[2k] at digit 2k+1
    if constexpr (kOdd > 0) PairRow<kOdd, L - 2 - 2 * kOdd>::apply(e + 2, a, w + 1);  // w[2k+1] at 2k+2
  }
}

}  // namespace bigtune::kernels::arith
