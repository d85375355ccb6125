// Classical (quadratic) multiplication inside one block, seed 000 §3.
//
// Each thread computes two chunks of Q consecutive result limbs (the seed's
// "Q is half the sequentialization factor", Fig. 5) with the load-balanced
// partitioning of Fig. 4: for the low half (mod B^M) chunk c is paired with its
// mirror 2T-1-c; for the full product chunk c is paired with c+T, whose column
// sums have M-1-k terms against k+1, so every thread does about Q*M products.
//
// Column sums accumulate in 32-bit digit rows (arith::MadRow) from a window
// over B held in registers: one shared load of A and one of B per step feed Q
// limb products (Fig. 7, with the window replacing the Q re-loads). A chunk
// is then Q+2 limbs (Fig. 6): Q limbs in place plus a two-limb overflow that
// lands on the next chunk. The overflows are added with one
// block carry scan (add_sub.cuh), twice for Q = 1 where overflows of
// neighbouring chunks overlap.
//
// Preconditions: operands zero-padded to M_pad limbs (layout.hpp), B with Q
// zero guard limbs on each side so no step needs a bounds check.
// Cost per thread: about Q*M_pad limb products, 2*M_pad shared loads.
#pragma once
#include <cstdint>
#include "kernels/arith/limb.cuh"
#include "kernels/arith/mad_row.cuh"
#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Column sums of result limbs [p0, p0+Q) of A*B, folded into Q+2 limbs, where
// A starts at logical shared index a0 and B[0] at b0 (both M_pad limbs, B
// with Q zero guards each side, so no step needs a bounds check).
//
// The window of B limbs a step needs, B[p0 + q - i] for column q, lives in
// buf[(q - i) mod Q]: each step loads one new limb into the slot the oldest
// one leaves, and unrolling the step loop by Q makes every slot index a
// compile-time constant — no register moves (Fig. 7 re-reads B instead).
// The chunk accumulates in 32-bit digits through arith::MadRow: a 64-bit
// limb step is two rows, a_lo at digit 0 and a_hi at digit 1.
template <class Limb, int Q>
__device__ __forceinline__ void mul_chunk(Limb (&out)[Q + 2], const Limb* smem, uint32_t a0, uint32_t b0,
                                          uint32_t padded, uint32_t p0) {
  constexpr int D = sizeof(Limb) / 4;  // 32-bit digits per limb
  constexpr int N = Q * D;             // digits in a row
  constexpr int L = N + 3;             // accumulator digits: the chunk, its overflow, carries
  uint32_t e[L], o[L];
#pragma unroll
  for (int d = 0; d < L; ++d) e[d] = o[d] = 0;
  const int i_lo = max(0, int(p0) - int(padded - 1));
  // Start on a multiple of Q so that slot indices are static; the extra step
  // (high chunks of the full product only) multiplies B's zero guard.
  const int i_start = i_lo - i_lo % Q;
  const int i_hi = min(int(p0) + Q - 1, int(padded) - 1);  // i_hi + 1 - i_start is a multiple of Q
  Limb buf[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) buf[q] = smem[smem_physical<Limb>(b0 + p0 + q - i_start)];
  for (int i = i_start; i <= i_hi; i += Q) {
#pragma unroll
    for (int s = 0; s < Q; ++s) {
      const Limb a = smem[smem_physical<Limb>(a0 + i + s)];
      uint32_t w[N];
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const Limb v = buf[(q - s + Q) % Q];
        w[q * D] = uint32_t(v);
        if constexpr (D == 2) w[q * D + 1] = uint32_t(uint64_t(v) >> 32);
      }
      arith::mad_row<N, L, false>(e, o, uint32_t(a), w);
      if constexpr (D == 2) arith::mad_row<N, L, true>(e, o, uint32_t(uint64_t(a) >> 32), w);
      buf[(Q - 1 - s) % Q] = smem[smem_physical<Limb>(b0 + p0 - (i + s) - 1)];
    }
  }
  // r = E + O * 2^32 in digits, then digits to limbs: Q limbs in place and
  // the two-limb overflow (the sum is below B^(Q+2): fewer than 2^32 terms).
  uint32_t r[L + 1];
  r[0] = e[0];
  uint32_t carry = 0;
#pragma unroll
  for (int d = 1; d < L; ++d) carry = arith::add_limb(r[d], e[d], o[d - 1], carry);
  r[L] = o[L - 1] + carry;
#pragma unroll
  for (int k = 0; k < Q + 2; ++k) {
    if constexpr (D == 1) {
      out[k] = r[k];
    } else {
      out[k] = Limb(r[2 * k]) | (Limb(2 * k + 1 <= L ? r[2 * k + 1] : 0u) << 32);
    }
  }
}

}  // namespace bigtune::kernels::block
