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

namespace detail {
// (b.lo, b.hi, b.top) += (lo, hi) as one 64-bit addend with the carry into
// b.top (the join of two column accumulators, task powmpipe): a PTX add
// chain so that ptxas keeps it on the ALU pipe (with 64-bit C++ sums it
// emits IMAD.X / IMAD.MOV, FMA-pipe instructions: bench/notes/powmregs-bound.md).
__device__ __forceinline__ void join(arith::Accumulator<uint32_t>& b, uint32_t lo, uint32_t hi) {
#if defined(__CUDA_ARCH__)
  asm("add.cc.u32  %0, %0, %3;\n\t"
      "addc.cc.u32 %1, %1, %4;\n\t"
      "addc.u32    %2, %2, 0;"
      : "+r"(b.lo), "+r"(b.hi), "+r"(b.top)
      : "r"(lo), "r"(hi));
#else
  const uint64_t t = (uint64_t(b.hi) << 32 | b.lo) + (uint64_t(hi) << 32 | lo);
  b.top += t < (uint64_t(hi) << 32 | lo);
  b.lo = uint32_t(t);
  b.hi = uint32_t(t >> 32);
#endif
}

// Columns [0, K) of sum_i x_i y_(k-i) X^k (i in [0, Q), k - i in [0, Q)) plus
// add[k] at column k plus (c0, c1) at column 0 (a two-word carry in):
// out[k] = the columns' limbs, (c0, c1) = the carry out of column K-1, a
// two-word value. Each column on its OWN accumulator (task powmpipe): the
// column chains of one accumulator (montgomery_block.cuh's column_product)
// issue an IMAD.WIDE every ~5 cycles on one warp (each waits on the previous
// one's result and carry), the FMA-heavy pipe takes one every 4; two
// independent chains, interleaved two columns at a time, let one warp keep
// the pipe busy. The columns are joined afterwards by 3-instruction ALU add
// chains (join above). Bounds: each column's sum and the carry in fit the
// three words as in column_product (the columns of a (2Q+1)-word sum).
// acc = x y when `some`, else 0 (a column's first product, task powmpipe).
__device__ __forceinline__ arith::Accumulator<uint32_t> first_product(uint32_t x, uint32_t y, bool some) {
  const uint64_t p = some ? uint64_t(x) * y : 0u;
  return {uint32_t(p), uint32_t(p >> 32), 0u};
}

// (b.lo, b.hi, b.top) += (lo, hi) + v: join with a column addend, in C++
// (ptxas: IADD3 with two carries out, IADD3.X, IADD3.X).
__device__ __forceinline__ void join_add(arith::Accumulator<uint32_t>& b, uint32_t lo, uint32_t hi, uint32_t v) {
  const uint64_t t = uint64_t(b.lo) + lo + v;
  b.lo = uint32_t(t);
  const uint64_t u = uint64_t(b.hi) + hi + uint32_t(t >> 32);
  b.hi = uint32_t(u);
  b.top += uint32_t(u >> 32);
}

// kHalf: only the products with i < k - i (a square's off-diagonal half, x = y).
// kLean: first_product / join_add instead of a cleared accumulator (fewer instructions).
template <int Q, int K, bool kHalf = false, bool kLean = false>
__device__ __forceinline__ void paired_columns(uint32_t (&out)[K], uint32_t& c0, uint32_t& c1, const uint32_t (&x)[Q],
                                               const uint32_t (&y)[Q], const uint32_t (&add)[K]) {
  using Acc = arith::Accumulator<uint32_t>;
  static_for(
      [&](auto kc) {
        constexpr int k = 2 * decltype(kc)::value;
        constexpr bool two = k + 1 < K;
        constexpr int a0 = k - Q + 1 > 0 ? k - Q + 1 : 0, a1f = k < Q - 1 ? k : Q - 1;  // column k's i
        constexpr int b0 = k + 1 - Q + 1 > 0 ? k + 1 - Q + 1 : 0, b1f = k + 1 < Q - 1 ? k + 1 : Q - 1;
        constexpr int a1 = kHalf ? (k >= 1 ? (k - 1) / 2 : -1) : a1f, b1 = kHalf ? k / 2 : b1f;  // i < k - i
        constexpr int na = k <= 2 * Q - 2 && a1 >= a0 ? a1 - a0 + 1 : 0;
        constexpr int nb = two && k + 1 <= 2 * Q - 2 && b1 >= b0 ? b1 - b0 + 1 : 0;
        Acc A{add[k], 0, 0}, B{two ? add[two ? k + 1 : k] : 0u, 0, 0};
        if constexpr (kLean) {
          // The first product without an addend (a plain 64-bit product: no
          // register pair to clear), the addend in the join.
          A = first_product(na > 0 ? x[a0] : 0u, na > 0 ? y[k - a0] : 0u, na > 0);
          B = first_product(nb > 0 ? x[b0] : 0u, nb > 0 ? y[two ? k + 1 - b0 : 0] : 0u, nb > 0);
        }
#pragma unroll
        for (int t = kLean ? 1 : 0; t < (na > nb ? na : nb); ++t) {
          if (t < na) mac(A, x[a0 + t], y[k - a0 - t]);
          if (t < nb) mac(B, x[b0 + t], y[k + 1 - b0 - t]);
        }
        if constexpr (kLean) {
          join_add(A, c0, c1, add[k]);
        } else {
          join(A, c0, c1);
        }
        out[k] = A.lo;
        if constexpr (two && kLean) {
          join_add(B, A.hi, A.top, add[two ? k + 1 : k]);
          out[two ? k + 1 : k] = B.lo;
          c0 = B.hi, c1 = B.top;
        } else if constexpr (two) {
          join(B, A.hi, A.top);
          out[two ? k + 1 : k] = B.lo;
          c0 = B.hi, c1 = B.top;
        } else {
          c0 = A.hi, c1 = A.top;
        }
      },
      std::make_integer_sequence<int, (K + 1) / 2>{});
}
}  // namespace detail

template <int L, int Q, int kPipe = 0>
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

  // column_product and add_column_product on detail::paired_columns (task
  // powmpipe): the same sums, each column on its own accumulator.
  __device__ __forceinline__ static void column_product_pipe(uint32_t (&lo)[Q], uint32_t (&hi)[Q], uint32_t& top,
                                                             const uint32_t (&x)[Q], const uint32_t (&y)[Q],
                                                             const uint32_t (&w)[Q], uint32_t c) {
    uint32_t add[2 * Q], out[2 * Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) add[k] = w[k], add[Q + k] = k == 0 ? c : 0u;
    uint32_t c0 = 0, c1 = 0;
    detail::paired_columns<Q, 2 * Q, false, (kPipe & 512) != 0>(out, c0, c1, x, y, add);
#pragma unroll
    for (int k = 0; k < Q; ++k) lo[k] = out[k], hi[k] = out[Q + k];
    top = c0;  // c1 is 0: the sum is below 2^(32(2Q+1))
  }
  __device__ __forceinline__ static uint32_t add_column_product_pipe(uint32_t (&lo)[Q], uint32_t (&hi)[Q],
                                                                     const uint32_t (&m)[Q], const uint32_t (&q)[Q]) {
    uint32_t add[2 * Q], out[2 * Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) add[k] = lo[k], add[Q + k] = hi[k];
    uint32_t c0 = 0, c1 = 0;
    detail::paired_columns<Q, 2 * Q, false, (kPipe & 512) != 0>(out, c0, c1, m, q, add);
#pragma unroll
    for (int k = 0; k < Q; ++k) lo[k] = out[k], hi[k] = out[Q + k];
    return c0;
  }

  // The block quotient Q_s = t (-m^-1) mod X from t (lane 0's low block,
  // broadcast) and m0 (lane 0's modulus limbs), digit by digit as in mul()
  // step 2, but each column on its own accumulator (task powmpipe): column
  // k first takes the products of the digits before q_(k-1), which do not
  // wait for q_(k-1), then the carry of column k-1 and m0_1 q_(k-1); so the
  // serial path a digit is ~3 dependent instructions plus the 3-instruction
  // join instead of the whole column's chain.
  __device__ __forceinline__ static void quotient_pipe(uint32_t (&q)[Q], const uint32_t (&t)[Q],
                                                       const uint32_t (&m0)[Q], uint32_t minv) {
    uint32_t c0 = 0, c1 = 0;
    detail::static_for(
        [&](auto kc) {
          constexpr int k = decltype(kc)::value;
          if constexpr (k < Q - 1) {
            Acc col{t[k], 0, 0};
#pragma unroll
            for (int i = k; i >= 2; --i) detail::mac(col, m0[i], q[k - i]);
            detail::join(col, c0, c1);
            if constexpr (k >= 1) detail::mac(col, m0[1], q[k - 1]);
            q[k] = col.lo * minv;
            detail::mac(col, m0[0], q[k]);  // column k is now 0 mod 2^32
            c0 = col.hi, c1 = col.top;
          } else {
            // The last digit needs only the low word of its column.
            uint32_t low = t[k] + c0;
#pragma unroll
            for (int i = 1; i <= k; ++i) low += m0[i] * q[k - i];
            q[k] = low * minv;
          }
        },
        std::make_integer_sequence<int, Q>{});
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

  // square_columns with the off-diagonal half on detail::paired_columns (task powmpipe).
  __device__ __forceinline__ static void square_columns_pipe(uint32_t (&lo)[Q], uint32_t (&hi)[Q],
                                                             const uint32_t (&a)[Q]) {
    uint32_t od[2 * Q], zero[2 * Q];
#pragma unroll
    for (int k = 0; k < 2 * Q; ++k) zero[k] = 0;
    uint32_t c0 = 0, c1 = 0;
    detail::paired_columns<Q, 2 * Q, true>(od, c0, c1, a, a, zero);
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
      if constexpr ((kPipe & 1) != 0)
        column_product_pipe(lo, hi, x, a, bb, w, c);
      else
        column_product(lo, hi, x, a, bb, w, c);
      // 2. Q_s from lane 0's low half, digit by digit (every lane).
      if constexpr ((kPipe & 256) != 0) {
        uint32_t t0[Q];
#pragma unroll
        for (int k = 0; k < Q; ++k) t0[k] = __shfl_sync(0xffffffffu, lo[k], 0, L);
        quotient_pipe(q, t0, m0, minv);
      } else {
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
      }
      // 3. (lo, hi, x) += m_j Q_s.
      x += (kPipe & 2) != 0 ? add_column_product_pipe(lo, hi, m, q) : add_column_product(lo, hi, m, q);
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
