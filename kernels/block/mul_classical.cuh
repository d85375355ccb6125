// Classical (quadratic) multiplication inside one block, seed 000 §3.
//
// Each thread computes two chunks of Q consecutive result limbs (the seed's
// "Q is half the sequentialization factor", Fig. 5) with the load-balanced
// partitioning of Fig. 4: for the low half (mod B^M) chunk c is paired with its
// mirror 2T-1-c; for the full product chunk c is paired with c+T, whose column
// sums have M-1-k terms against k+1, so every thread does about Q*M products.
//
// Column sums accumulate in three limbs (arith::Accumulator) from a sliding
// window over B held in registers: one shared load of A and one of B per step
// feed Q multiply-adds (Fig. 7, with the window replacing the Q re-loads).
// A chunk then folds into Q+2 limbs (Fig. 6): Q limbs in place plus a two-limb
// overflow that lands on the next chunk. The overflows are added with one
// block carry scan (add_sub.cuh), twice for Q = 1 where overflows of
// neighbouring chunks overlap.
//
// Preconditions: operands zero-padded to M_pad limbs (layout.hpp), B with Q
// zero guard limbs on each side so no step needs a bounds check.
// Cost per thread: about Q*M_pad limb products, 2*M_pad shared loads.
#pragma once
#include <cstdint>
#include "kernels/arith/limb.cuh"
#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// out[0..Q+2) = sum over the chunk's Q column accumulators, column q at B^q.
template <class Limb, int Q>
__device__ __forceinline__ void fold_columns(Limb (&out)[Q + 2], const arith::Accumulator<Limb> (&acc)[Q]) {
#pragma unroll
  for (int q = 0; q < Q; ++q) out[q] = acc[q].lo;
  out[Q] = 0;
  out[Q + 1] = 0;
  Limb carry = 0;
#pragma unroll
  for (int q = 0; q < Q; ++q) carry = arith::add_limb(out[q + 1], out[q + 1], acc[q].hi, carry);
  out[Q + 1] += carry;
  carry = 0;
#pragma unroll
  for (int q = 0; q < Q; ++q) carry = arith::add_limb(out[q + 2], out[q + 2], acc[q].top, carry);
}

// Column sums of result limbs [p0, p0+Q) of A*B, where A starts at logical
// shared index a0 and B[0] at b0 (both M_pad limbs, B guarded).
template <class Limb, int Q>
__device__ __forceinline__ void mul_chunk(Limb (&out)[Q + 2], const Limb* smem, uint32_t a0, uint32_t b0,
                                          uint32_t padded, uint32_t p0) {
  arith::Accumulator<Limb> acc[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) acc[q] = {0, 0, 0};
  const int i_lo = max(0, int(p0) - int(padded - 1));
  const int i_hi = min(int(p0) + Q - 1, int(padded) - 1);
  Limb window[Q];  // window[q] = B[p0 + q - i]
#pragma unroll
  for (int q = 0; q < Q; ++q) window[q] = smem[smem_physical<Limb>(b0 + p0 + q - i_lo)];
#pragma unroll 2
  for (int i = i_lo; i <= i_hi; ++i) {
    const Limb a = smem[smem_physical<Limb>(a0 + i)];
#pragma unroll
    for (int q = 0; q < Q; ++q) arith::mad_wide(acc[q], a, window[q]);
#pragma unroll
    for (int q = Q - 1; q > 0; --q) window[q] = window[q - 1];
    window[0] = smem[smem_physical<Limb>(b0 + p0 - i - 1)];
  }
  fold_columns<Limb, Q>(out, acc);
}

}  // namespace bigtune::kernels::block
