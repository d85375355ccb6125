// Warp Montgomery squaring for the block Montgomery product (issue 9, task
// powmsqr): r = a^2 R^-1 mod m at about half the square's limb products, for
// the squarings of powm (~85 % of its products, bench/results/
// 2026-11-22-h100-modfast.md). The product (montgomery_block.cuh) interleaves
// a b and the reduction (CIOS); here the square is first formed whole and
// then reduced (separated operand scanning, SOS):
//
// 1. Square, off-diagonal half. O = sum_{x<y} a_x a_y X^(x+y) (a_x: lane x's
//    Q-limb block, X = B^Q, B = 2^32) has L(L-1)/2 block products. A window
//    as in mul_block_rotate.cuh, but shifted by TWO lanes a step: at step s
//    (s = 0 .. L/2-1) lane j holds position j + 2s (w_j, Q limbs, plus a
//    pending word c_j at position j + 2s + 1) and adds one whole block
//    product a_x a_y with x + y = j + 2s:
//      j = 0: nothing (its position 2s is a diagonal one);
//      s + j < L: (x, y) = (s, s + j)          — every pair with x < L/2;
//      else:      (x, y) = (L/2 + s + j - L, L/2 + s) — the pairs with
//                 x >= L/2 (y - L/2 = s in 1 .. L/2-1, x - L/2 in 0 .. s-1).
//    Each pair x < y exactly once, and L/2 steps instead of the product's L:
//    L/2 Q^2 limb products a lane against L Q^2. acc_j = w_j + c_j X + a_x a_y
//    (Comba by columns, one IMAD.WIDE a limb product, as the product's step 1)
//    is 2Q limbs (lo, hi) plus a top word t_j <= 1. Shift: lane j takes
//    lo of lane j + 2 and hi of lane j + 1 (positions j + 2s + 2), plus its
//    own t_j; the carry out is the new c_j <= 1. Positions 2s (lane 0's lo)
//    and 2s + 1 (lane 1's lo + lane 0's hi) are final after step s: they
//    reach lanes L-2 and L-1 through the same two shuffles (the indices wrap)
//    and are kept in a capture register tl (Q limbs + pending word tc) that
//    rotates down two lanes a step, so that after L/2 steps lane p holds
//    block p (p < L) and the window lane j holds block L + j.
// 2. T = a^2 = 2 O + D, D = sum_x a_x^2 X^(2x): each lane squares its own
//    block (Q(Q-1)/2 + Q limb products), doubles its two blocks of O (one
//    shift each) and adds the D blocks it holds (D's block b is lane b/2's,
//    low or high half: 4Q shuffles).
// 3. Reduction: the product's CIOS steps 2-4 (montgomery_block.cuh) without
//    its step 1, over S = blocks steps, from the window T's blocks 0 .. L-1
//    (pending words included). T's blocks L .. 2L-1 take no part in the
//    quotients, so they are added after the last step: (T + Q_tot m) / R =
//    T_high X^(L-S) + (T_low + Q_tot m) / R, block L + i going to lane
//    i + L - S (a shuffle up when S < L). Then the product's end: the
//    pending words, one ballot carry resolution, one conditional subtraction:
//    W = (a^2 + Q_tot m) / R < a^2 / R + m < 2m for a < m (r < m); for any
//    a < R, W < R + m and r < R (the product's contract with b = a).
//
// Cost per lane (Q = 8): square L/2 (Q^2 + overhead) + reduction L (Q^2 +
// Q(Q+1)/2) IMAD.WIDE-chains against the product's L (2 Q^2 + Q(Q+1)/2):
// 164 L -> 132 L limb products, ~0.8x, plus a fixed part (D, the doubling, the
// D shuffles) worth ~0.6 of one reduction step, so the gain grows with L
// (bench/notes/powmsqr-bound.md). Shuffles per square step 5Q + 1 (two
// operands, two shift halves, the capture) against the product's 3Q a step.
// Measured (H100, bench/results/2026-11-22-h100-powmsqr.md): the powm
// kernels are latency-bound (16 warps per SM), so the gain follows the
// instruction count (1.11 / 1.03 / 0.99 / 0.97 of the product's at L = 4 / 8
// / 16 / 32) more than the IMAD.WIDE: powm 0.99 / 1.04 / 1.07 / 1.08x.
// Bounds: w_j + c_j X + a_x a_y <= X - 1 + X + (X - 1)^2 < X^2 + X, so t_j <= 1;
// lo + hi + t <= 2X - 1, so c_j <= 1. After doubling and D, pending words
// <= 4; the reduction's acc < X + 4X + X^2 < 2 X^2 (top word <= 1, c <= 2);
// at the end c <= 2 + 4 + 1 (T_high's pending word and the add's carry).
// Preconditions: as WarpMontgomeryBlock (32 lanes converged, the same
// `blocks` on every lane, m odd, a, m < R, blocks <= L, L >= 4 even).
#pragma once
#include <cstdint>

#include "kernels/warp/montgomery_block.cuh"

namespace bigtune::kernels::warp {

// Measured and dropped (H100, bench/results/2026-11-22-h100-powmsqr.md):
// each column product as two independent accumulator chains (columns 0 .. Q-1
// and Q .. 2Q-2, joined by a Q-word carry add; the ncu counters showed the
// warps stalled on fixed-latency dependencies): +17 instructions a step,
// 0.97-0.98x this form at every size.
template <int L, int Q>
struct WarpMontgomerySqr : WarpMontgomeryBlock<L, Q> {
  static_assert(L >= 4 && (L & (L - 1)) == 0, "the two-lane shift needs L >= 4, a power of 2");
  using Block = WarpMontgomeryBlock<L, Q>;
  using Base = WarpMontgomery<L, Q>;
  using Acc = arith::Accumulator<uint32_t>;
  static constexpr bool kHasSqr = true;  // powm_warp_body squares with sqr()

  __device__ __forceinline__ WarpMontgomerySqr() {}
  __device__ __forceinline__ explicit WarpMontgomerySqr(typename Base::TempStorage&) {}

  // x = 2x + (in), Q limbs with a pending word above: returns the new pending word.
  __device__ __forceinline__ static uint32_t double_add(uint32_t (&x)[Q], uint32_t pending, const uint32_t (&d)[Q]) {
    const uint32_t out_bit = x[Q - 1] >> 31;
#pragma unroll
    for (int k = Q - 1; k > 0; --k) x[k] = (x[k] << 1) | (x[k - 1] >> 31);
    x[0] <<= 1;
    uint64_t carry = 0;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      carry += uint64_t(x[k]) + d[k];
      x[k] = uint32_t(carry);
      carry >>= 32;
    }
    return 2 * pending + out_bit + uint32_t(carry);
  }

  // r = a^2 R^-1 mod m (see the file comment). r may alias a.
  __device__ __forceinline__ void sqr(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&m)[Q],
                                      uint32_t minv, uint32_t blocks) const {
    const uint32_t j = Base::lane();
    const uint32_t lane_mask = uint32_t(L - 1);
    const int two_above = int((j + 2) & lane_mask), one_above = int((j + 1) & lane_mask);
    const bool take_lo = j < uint32_t(L - 2), take_hi = j < uint32_t(L - 1);
    const bool capture = !take_lo;  // lanes L-2 and L-1 receive the final positions 2s, 2s+1

    // 1. O, the off-diagonal half: window (w, c) ends at blocks L + j, the
    // capture (tl, tc) at blocks j.
    uint32_t w[Q], tl[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) w[k] = 0, tl[k] = 0;
    uint32_t c = 0, tc = 0;
#pragma unroll 1
    for (uint32_t s = 0; s < uint32_t(L / 2); ++s) {
      const bool low_pair = s + j < uint32_t(L);
      const int x = int(low_pair ? s : s + j - uint32_t(L / 2));
      const int y = int(low_pair ? s + j : s + uint32_t(L / 2));
      uint32_t ux[Q], uy[Q], lo[Q], hi[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        ux[k] = __shfl_sync(0xffffffffu, a[k], x, L);
        const uint32_t v = __shfl_sync(0xffffffffu, a[k], y, L);
        uy[k] = j == 0 ? 0u : v;
      }
      uint32_t t;  // position j + 2s + 2, limb 0
      Block::column_product(lo, hi, t, ux, uy, w, c);
      // Shift by two lanes; the capture rotates with it.
      uint64_t carry = t, dep = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t rl = __shfl_sync(0xffffffffu, lo[k], two_above, L);
        const uint32_t rh = __shfl_sync(0xffffffffu, hi[k], one_above, L);
        const uint32_t rt = __shfl_sync(0xffffffffu, tl[k], two_above, L);
        carry += uint64_t(take_lo ? rl : 0u) + (take_hi ? rh : 0u);
        w[k] = uint32_t(carry);
        carry >>= 32;
        // Lane L-2: position 2s = lane 0's lo; lane L-1: position 2s + 1 =
        // lane 1's lo + lane 0's hi (its carry is the block's pending word).
        dep += uint64_t(rl) + (take_hi ? 0u : rh);
        tl[k] = capture ? uint32_t(dep) : rt;
        dep >>= 32;
      }
      c = uint32_t(carry);
      const uint32_t rtc = __shfl_sync(0xffffffffu, tc, two_above, L);
      tc = capture ? uint32_t(dep) : rtc;
    }

    // 2. T = 2 O + D. D_j = a_j^2: the off-diagonal columns, doubled, plus
    // the squares a_k^2 (one 2Q-limb pass).
    uint32_t dlo[Q], dhi[Q];
    Block::square_columns(dlo, dhi, a);
    // D's block b sits on lane b/2 (low half for even b): lane j needs block
    // j (for T's low half) and block L + j (high half); L is even, so both
    // have j's parity.
    const bool odd = (j & 1u) != 0;
    uint32_t d_low[Q], d_high[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t l0 = __shfl_sync(0xffffffffu, dlo[k], int(j >> 1), L);
      const uint32_t l1 = __shfl_sync(0xffffffffu, dhi[k], int(j >> 1), L);
      const uint32_t h0 = __shfl_sync(0xffffffffu, dlo[k], int((uint32_t(L) + j) >> 1), L);
      const uint32_t h1 = __shfl_sync(0xffffffffu, dhi[k], int((uint32_t(L) + j) >> 1), L);
      d_low[k] = odd ? l1 : l0;
      d_high[k] = odd ? h1 : h0;
    }
    tc = double_add(tl, tc, d_low);  // T's block j (pending word at j + 1)
    c = double_add(w, c, d_high);    // T's block L + j

    // 3. Reduction of the window tl (blocks 0 .. L-1 of T), S steps.
    uint32_t m0[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) m0[k] = __shfl_sync(0xffffffffu, m[k], 0, L);
    const bool top_lane = j == lane_mask;
#pragma unroll 1
    for (uint32_t s = 0; s < blocks; ++s) {
      uint32_t lo[Q], hi[Q], q[Q];
      // Q_s from lane 0's low block, digit by digit (montgomery_block.cuh step 2).
      Acc qa{0, 0, 0};
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t tk = __shfl_sync(0xffffffffu, tl[k], 0, L);
        if (k < Q - 1) {
          detail::add_low(qa, tk);
#pragma unroll
          for (int i = 1; i <= k; ++i) detail::mac(qa, m0[i], q[k - i]);
          q[k] = qa.lo * minv;
          detail::mac(qa, m0[0], q[k]);
          Block::next_column(qa);
        } else {
          uint32_t col = qa.lo + tk;
#pragma unroll
          for (int i = 1; i <= k; ++i) col += m0[i] * q[k - i];
          q[k] = col * minv;
        }
      }
      // acc = tl + tc X + m_j Q_s (step 3).
      uint32_t top;
      Block::column_product(lo, hi, top, m, q, tl, tc);
      // Shift down one lane (step 4).
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t recv = __shfl_sync(0xffffffffu, lo[k], one_above, L);
        carry += uint64_t(hi[k]) + (top_lane ? 0u : recv);
        tl[k] = uint32_t(carry);
        carry >>= 32;
      }
      tc = top + uint32_t(carry);
    }
    // T's high half: block L + i to lane i + L - S.
    if (blocks < uint32_t(L)) {
      const uint32_t delta = uint32_t(L) - blocks;
      const bool none = j < delta;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t v = __shfl_up_sync(0xffffffffu, w[k], delta, L);
        w[k] = none ? 0u : v;
      }
      const uint32_t v = __shfl_up_sync(0xffffffffu, c, delta, L);
      c = none ? 0u : v;
    }
    {
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        carry += uint64_t(tl[k]) + w[k];
        tl[k] = uint32_t(carry);
        carry >>= 32;
      }
      tc += c + uint32_t(carry);
    }
    // The product's end: pending words up one lane, one carry resolution.
    Base::finish(r, tl, tc, m);
  }
};

}  // namespace bigtune::kernels::warp
