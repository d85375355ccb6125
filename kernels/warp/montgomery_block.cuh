// Warp-level Montgomery product on Q x Q column blocks ("block Montgomery"):
// the interleaved CIOS of kernels/warp/montgomery.cuh with the window shifted
// by a whole lane (Q digits, B^Q) per step instead of one digit, so that each
// lane's work between two shifts is two local Q x Q products by columns
// (Comba, seed 002 §3.2.2) on one three-limb accumulator, one IMAD.WIDE.U32
// per limb product, as the block-rotate product (mul_block_rotate.cuh) is of
// the sum-rotate one. Issue 9, task modfast.
//
// Why: the digit-serial CIOS step runs two addmul_1 chains (mad.lo.cc /
// madc.hi.cc), which ptxas splits into IMAD + IMAD.HI + IADD3.X: about 5
// SASS instructions per limb product, so the step is bound by instruction
// issue (1 per clock per scheduler), not by the IMAD pipe: the measured
// 58-66 % of the IMAD bound (bench/notes/modwarp-bound.md). The column form
// issues ~2.5 per limb product (bench/notes/warp-multiplication.md: 274 vs
// 408 per Q = 8 block of the plain product).
//
// Same layout and contract as WarpMontgomery (lane j holds limbs
// [jQ, jQ + Q) of a, b, m; R = 2^(32 S Q) for S = blocks): mul(r, a, b) =
// a b R^-1 mod m, below R (r < m when a < m or b < m). Block s
// (s = 0 .. S-1), window W held as w_j (Q limbs) plus a small pending carry
// c_j above it on each lane j:
//   1. acc_j = w_j + c_j B^Q + a_j B_s (B_s = b's limbs [sQ, sQ + Q),
//      broadcast from lane s), by columns: 2Q result limbs + a top word x_j;
//   2. lane 0's low Q limbs T are broadcast; every lane computes the block
//      quotient Q_s = T (-m^-1) mod B^Q digit by digit, each digit
//      q_k = (column k of T + m_0 (q_0 .. q_(k-1))) * (-m_0^-1) mod 2^32 —
//      the digits of the one-digit CIOS, found here on lane 0's limbs m_0
//      (broadcast once per product), Q(Q+1)/2 products per block;
//   3. acc_j += m_j Q_s by columns; lane 0's low half is now 0 (choice of
//      Q_s);
//   4. shift down one lane: lane j takes lane j+1's low half into its high
//      half (w_j = high + received, c_j = x_j + carry out); the top lane
//      receives lane 0's zero half and keeps its high half.
// After S blocks W = (a b + Q m) / R < b + m < 2R exactly, with the c_j
// pending: the same end as WarpMontgomery::mul (one ballot resolution, one
// conditional subtraction of m).
// Bounds: acc_j < B^Q + c_j B^Q + 2 (B^Q - 1)^2 < 3 B^(2Q) for c_j <= 3, so
// x_j <= 2 and c_j = x_j + (carry of hi + received) <= 3: every pending
// value fits a 32-bit word, and the column accumulators (at most 2Q + 2
// terms a column) never overflow their top word.
//
// Cost per block and lane (Q = 8, SASS): 401 instructions, 149 IMAD.WIDE,
// 82 other IMAD*, 24 shuffles; the digit-serial form: 615 instructions, 313
// IMAD* (no WIDE), 24 shuffles. The quotient digits cost Q(Q+1)/2 products
// a block on every lane (lane 0's work repeated in lock-step): 2.56 N^2
// limb products per product against 2 N^2, so this form wins only if an
// IMAD.WIDE costs the FMA pipe less than two IMADs (bench/notes/modfast-bound.md).
//
// Preconditions: as WarpMontgomery (all 32 lanes converged, same `blocks`,
// m odd, a, b, m < R, blocks <= L); Q in {2, 4, 8, 16}.
#pragma once
#include <cstdint>

#include "kernels/warp/montgomery.cuh"
#include "kernels/warp/mul_block_rotate.cuh"  // detail::mac, detail::add_low

namespace bigtune::kernels::warp {

template <int L, int Q>
struct WarpMontgomeryBlock : WarpMontgomery<L, Q> {
  static_assert(Q == 2 || Q == 4 || Q == 8 || Q == 16, "column blocks of Q in {2, 4, 8, 16}");
  using Base = WarpMontgomery<L, Q>;
  using Acc = arith::Accumulator<uint32_t>;

  __device__ __forceinline__ WarpMontgomeryBlock() {}
  __device__ __forceinline__ explicit WarpMontgomeryBlock(typename Base::TempStorage&) {}

  // acc.lo moves out, the column above moves in.
  __device__ __forceinline__ static uint32_t next_column(Acc& acc) {
    const uint32_t out = acc.lo;
    acc.lo = acc.hi, acc.hi = acc.top, acc.top = 0;
    return out;
  }

  // (lo, hi, top) = w + c B^Q + x y by columns, one accumulator chain: a
  // product step's w + c B^Q + a_j B_s, a reduction window's tl + tc B^Q +
  // m_j Q_s (here, montgomery_sqr.cuh, montgomery_sqr2.cuh).
  __device__ __forceinline__ static void column_product(uint32_t (&lo)[Q], uint32_t (&hi)[Q], uint32_t& top,
                                                        const uint32_t (&x)[Q], const uint32_t (&y)[Q],
                                                        const uint32_t (&w)[Q], uint32_t c) {
    Acc acc{0, 0, 0};
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      detail::add_low(acc, w[k]);
#pragma unroll
      for (int i = 0; i <= k; ++i) detail::mac(acc, x[i], y[k - i]);
      lo[k] = next_column(acc);
    }
    detail::add_low(acc, c);
#pragma unroll
    for (int k = Q; k < 2 * Q - 1; ++k) {
#pragma unroll
      for (int i = k - Q + 1; i < Q; ++i) detail::mac(acc, x[i], y[k - i]);
      hi[k - Q] = next_column(acc);
    }
    hi[Q - 1] = acc.lo;
    top = acc.hi;  // acc.top is 0: the sum is below 2^(32(2Q+1))
  }

  // (lo, hi) += m q by columns; returns the carry out of the top column.
  __device__ __forceinline__ static uint32_t add_column_product(uint32_t (&lo)[Q], uint32_t (&hi)[Q],
                                                                const uint32_t (&m)[Q], const uint32_t (&q)[Q]) {
    Acc acc{0, 0, 0};
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      detail::add_low(acc, lo[k]);
#pragma unroll
      for (int i = 0; i <= k; ++i) detail::mac(acc, m[i], q[k - i]);
      lo[k] = next_column(acc);
    }
#pragma unroll
    for (int k = Q; k < 2 * Q; ++k) {
      detail::add_low(acc, hi[k - Q]);
#pragma unroll
      for (int i = k - Q + 1; i < Q; ++i) detail::mac(acc, m[i], q[k - i]);
      hi[k - Q] = next_column(acc);
    }
    return acc.lo;
  }

  // (lo, hi) = a^2 by columns: the off-diagonal products once, doubled, plus
  // the squares a_k^2 (one 2Q-limb pass; the squarings of montgomery_sqr.cuh
  // and montgomery_sqr2.cuh).
  __device__ __forceinline__ static void square_columns(uint32_t (&lo)[Q], uint32_t (&hi)[Q],
                                                        const uint32_t (&a)[Q]) {
    uint32_t od[2 * Q];
    Acc acc{0, 0, 0};
    od[0] = 0;
#pragma unroll
    for (int k = 1; k < 2 * Q - 1; ++k) {
#pragma unroll
      for (int i = (k - Q + 1 > 0 ? k - Q + 1 : 0); 2 * i < k; ++i) detail::mac(acc, a[i], a[k - i]);
      od[k] = next_column(acc);
    }
    od[2 * Q - 1] = acc.lo;
    uint64_t carry = 0;
#pragma unroll
    for (int k = 0; k < 2 * Q; ++k) {
      const uint64_t sq = uint64_t(a[k / 2]) * a[k / 2];
      const uint32_t dbl = (od[k] << 1) | (k > 0 ? od[k - 1] >> 31 : 0u);
      carry += uint64_t(dbl) + uint32_t(k % 2 ? sq >> 32 : sq);
      if (k < Q)
        lo[k] = uint32_t(carry);
      else
        hi[k - Q] = uint32_t(carry);
      carry >>= 32;
    }
  }

  // r = a b R^-1 mod m, below R (see the file comment). r may alias a or b.
  // setup() and the doublings are the base class's (its digit-serial mul is
  // used there only: 5 products per modulus).
  __device__ __forceinline__ void mul(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q],
                                      const uint32_t (&m)[Q], uint32_t minv, uint32_t blocks) const {
    const uint32_t j = Base::lane();
    const bool top_lane = j == uint32_t(L - 1);
    const int above = int((j + 1) & uint32_t(L - 1));
    uint32_t m0[Q];  // lane 0's modulus limbs, for the quotient digits
#pragma unroll
    for (int k = 0; k < Q; ++k) m0[k] = __shfl_sync(0xffffffffu, m[k], 0, L);
    uint32_t w[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) w[k] = 0;
    uint32_t c = 0;
    for (uint32_t s = 0; s < blocks; ++s) {
      uint32_t bb[Q], lo[Q], hi[Q], q[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) bb[k] = __shfl_sync(0xffffffffu, b[k], int(s), L);
      // 1. (lo, hi, x) = w + c B^Q + a_j B_s.
      uint32_t x;
      column_product(lo, hi, x, a, bb, w, c);
      // 2. Q_s from lane 0's low half, digit by digit (every lane).
      Acc qa{0, 0, 0};
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t t = __shfl_sync(0xffffffffu, lo[k], 0, L);
        if (k < Q - 1) {
          detail::add_low(qa, t);
#pragma unroll
          for (int i = 1; i <= k; ++i) detail::mac(qa, m0[i], q[k - i]);
          q[k] = qa.lo * minv;
          detail::mac(qa, m0[0], q[k]);  // column k is now 0 mod 2^32
          next_column(qa);
        } else {
          // The last digit needs only the low word of its column.
          uint32_t col = qa.lo + t;
#pragma unroll
          for (int i = 1; i <= k; ++i) col += m0[i] * q[k - i];
          q[k] = col * minv;
        }
      }
      // 3. (lo, hi, x) += m_j Q_s.
      x += add_column_product(lo, hi, m, q);
      // 4. Shift down one lane (lane 0's low half, now 0, is dropped).
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t recv = __shfl_sync(0xffffffffu, lo[k], above, L);
        carry += uint64_t(hi[k]) + (top_lane ? 0u : recv);
        w[k] = uint32_t(carry);
        carry >>= 32;
      }
      c = x + uint32_t(carry);
    }
    // c_j belongs to limb 0 of lane j + 1; the top lane's is above the window.
    Base::finish(r, w, c, m);
  }
};

}  // namespace bigtune::kernels::warp
