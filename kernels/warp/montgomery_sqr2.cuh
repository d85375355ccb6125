// Two-lane Montgomery squaring (issue 9, task powm1k): r = a^2 R^-1 mod m on
// segments of L = 2 lanes of Q limbs (Q = 16 at 1 Kbit: 16 instances per
// warp), for powm's squarings. The session-6 two-lane block-rotate product
// (mul.blockrot.u32.q16.l2, bench/results/2026-11-22-h100-smallmul.md) ran
// 1.6x fewer SASS instructions per instance than q8.l4: fewer shuffles and
// carry resolutions per limb product. Here the same for powm.
//
// montgomery_sqr.cuh needs L >= 4 (a window shifted by two lanes a step);
// with two lanes the off-diagonal half is ONE block product a_0 a_1, which
// that schedule gives to lane 1 alone (lane 0 multiplies zeros in lock-step).
// This form splits it by halves of a_1 instead, so that each lane does half:
//
// 1. D_j = a_j^2 on lane j (2Q limbs: Q(Q-1)/2 column products doubled, plus
//    the Q squares), as montgomery_sqr.cuh step 2.
// 2. P_j = a_0 y_j, y_0 = a_1's low H = Q/2 limbs, y_1 = its high H limbs
//    (one Q x H column product a lane, 3H limbs; x = a_0 is Q broadcasts from
//    lane 0, y_0 is H shuffles from lane 1). O = a_0 a_1 = P_0 + P_1 B^H and
//    a^2 = D_0 + 2 O X + D_1 X^2 (X = B^Q, B = 2^32).
// 3. Chunks of H limbs c_0 .. c_7 of T = a^2: D_0 = c_0..c_3 (lane 0), D_1 =
//    c_4..c_7 (lane 1), 2 P_0 = c_2..c_4 plus a bit (lane 0), 2 P_1 = c_3..c_5
//    plus a bit (lane 1). Each lane first adds its own pieces: lane 0
//    U_0 = D_0 + 2 P_0 X (c_0..c_4, a word at c_5), lane 1 U_1 = D_1 X^2 +
//    2 P_1 B^H X (c_3..c_7). Then one exchange of Q limbs (lane 0 sends c_2,
//    c_3 of U_0, lane 1 sends c_4, c_5 of U_1) gives the layout of the
//    reduction window: lane j holds T's block j (tl, pending word tc above
//    it) and block 2 + j (w, pending word c):
//      lane 0: tl = U_0's c_0 c_1;                  w = recv + U_0's c_4, c_5 word
//      lane 1: tl = recv + U_1's c_3 (upper half);  w = U_1's c_6 c_7
// 4. The reduction (montgomery_sqr.cuh step 3, the block CIOS steps 2-4 of
//    montgomery_block.cuh without the product), S = blocks steps on the
//    window tl, then T's high half (w) added, block 2 + i to lane
//    i + 2 - S, and the product's end (WarpMontgomery::finish).
//
// Cost a lane (Q = 16): D 136 + P 128 IMAD.WIDE (the two chains independent,
// so the scheduler can interleave them), reduction S (Q^2 + Q(Q-1)/2); the
// block product: S (2 Q^2 + Q(Q-1)/2). At S = 2: 1016 against 1264 (0.80x);
// montgomery_sqr.cuh's schedule at L = 2 would be 1144 (its lane 0 idles
// through the Q^2 pair product). Shuffles: 3H + Q (operands, exchange) + Q
// (m_0) + S Q (reduction) against the product's S 3Q + Q.
// Bounds: U_0, U_1 <= T < X^4, so no local sum overflows its chunks; the
// exchange sums give carries 0/1 (tc, c <= 1); the reduction's acc < X +
// X + X^2 (its top word <= 1, tc <= 2), at the end tc <= 2 + 1 + 1.
// Preconditions: as WarpMontgomeryBlock (32 lanes converged, the same
// `blocks` on every lane, m odd, a, m < R, blocks <= 2), Q even.
#pragma once
#include <cstdint>

#include "kernels/warp/montgomery_block.cuh"

namespace bigtune::kernels::warp {

template <int Q>
struct WarpMontgomerySqr2 : WarpMontgomeryBlock<2, Q> {
  static constexpr int L = 2, H = Q / 2;
  static_assert(Q % 2 == 0, "the cross product is split by halves of a block");
  using Block = WarpMontgomeryBlock<2, Q>;
  using Base = WarpMontgomery<2, Q>;
  using Acc = arith::Accumulator<uint32_t>;
  static constexpr bool kHasSqr = true;  // powm_warp_body squares with sqr()

  __device__ __forceinline__ WarpMontgomerySqr2() {}
  __device__ __forceinline__ explicit WarpMontgomerySqr2(typename Base::TempStorage&) {}

  // The block quotient Q_s = t (-m^-1) mod X digit by digit (montgomery_block.cuh
  // step 2), computed from this lane's own t and m, so right on lane 0 only
  // (lane 1 runs the same instructions on its own limbs), then broadcast
  // from lane 0. The block product broadcasts lane 0's t and m instead (every
  // lane computes Q_s): the same Q shuffles a step, but m_0's Q registers
  // live through the product (172-174 registers at Q = 16, 8 warps per SM).
  __device__ __forceinline__ static void quotient(uint32_t (&q)[Q], const uint32_t (&t)[Q], const uint32_t (&m)[Q],
                                                  uint32_t minv) {
    Acc qa{0, 0, 0};
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      if (k < Q - 1) {
        detail::add_low(qa, t[k]);
#pragma unroll
        for (int i = 1; i <= k; ++i) detail::mac(qa, m[i], q[k - i]);
        q[k] = qa.lo * minv;
        detail::mac(qa, m[0], q[k]);
        Block::next_column(qa);
      } else {
        uint32_t col = qa.lo + t[k];
#pragma unroll
        for (int i = 1; i <= k; ++i) col += m[i] * q[k - i];
        q[k] = col * minv;
      }
    }
#pragma unroll
    for (int k = 0; k < Q; ++k) q[k] = __shfl_sync(0xffffffffu, q[k], 0, L);
  }

  // r = a b R^-1 mod m, below R: WarpMontgomeryBlock::mul at L = 2 with the
  // quotient from lane 0 (quotient() above). r may alias a or b.
  __device__ __forceinline__ void mul(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q],
                                      const uint32_t (&m)[Q], uint32_t minv, uint32_t blocks) const {
    const bool top_lane = Base::lane() != 0;
    uint32_t w[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) w[k] = 0;
    uint32_t c = 0;
#pragma unroll 1
    for (uint32_t s = 0; s < blocks; ++s) {
      uint32_t bb[Q], lo[Q], hi[Q], q[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) bb[k] = __shfl_sync(0xffffffffu, b[k], int(s), L);
      // 1. (lo, hi, x) = w + c X + a_j B_s.
      uint32_t x;
      Block::column_product(lo, hi, x, a, bb, w, c);
      // 2. Q_s from lane 0's low half.
      quotient(q, lo, m, minv);
      // 3. (lo, hi, x) += m_j Q_s.
      x += Block::add_column_product(lo, hi, m, q);
      // 4. Shift down one lane (lane 0's low half, now 0, is dropped).
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t recv = __shfl_xor_sync(0xffffffffu, lo[k], 1, L);
        carry += uint64_t(hi[k]) + (top_lane ? 0u : recv);
        w[k] = uint32_t(carry);
        carry >>= 32;
      }
      c = x + uint32_t(carry);
    }
    Base::finish(r, w, c, m);
  }

  // r = a^2 R^-1 mod m (see the file comment). r may alias a.
  __device__ __forceinline__ void sqr(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&m)[Q],
                                      uint32_t minv, uint32_t blocks) const {
    const uint32_t j = Base::lane();
    const bool lane0 = j == 0;

    // Operands of the cross product: x = a_0, y = a_1's half of this lane.
    uint32_t x[Q], y[H];
#pragma unroll
    for (int k = 0; k < Q; ++k) x[k] = __shfl_sync(0xffffffffu, a[k], 0, L);
#pragma unroll
    for (int k = 0; k < H; ++k) {
      const uint32_t v = __shfl_sync(0xffffffffu, a[k], 1, L);
      y[k] = lane0 ? v : a[H + k];
    }

    // 1. D = a_j^2 (lo, hi): the off-diagonal columns, doubled, plus the squares.
    uint32_t lo[Q], hi[Q];
    Block::square_columns(lo, hi, a);

    // 2. p = 2 P_j = 2 x y (3H limbs) and the bit above it.
    uint32_t p[3 * H], pbit;
    {
      Acc acc{0, 0, 0};
#pragma unroll
      for (int k = 0; k < Q + H - 1; ++k) {
#pragma unroll
        for (int i = (k - H + 1 > 0 ? k - H + 1 : 0); i <= k && i < Q; ++i) detail::mac(acc, x[i], y[k - i]);
        p[k] = Block::next_column(acc);
      }
      p[Q + H - 1] = acc.lo;  // x y < B^(3H): nothing above
      pbit = p[3 * H - 1] >> 31;
#pragma unroll
      for (int k = 3 * H - 1; k > 0; --k) p[k] = (p[k] << 1) | (p[k - 1] >> 31);
      p[0] <<= 1;
    }

    // 3. Each lane's own sum U_j in (lo, hi) plus ext (lane 0: c_4 and the
    // word of c_5; lane 1: c_3, below lo), then the exchange.
    uint32_t ext[H], ext_top;
    {
      // Lane 0 adds p[0 .. 2H) into hi (c_2, c_3), lane 1 p[H .. 3H) into lo (c_4, c_5).
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t t = lane0 ? hi[k] : lo[k];
        carry += uint64_t(t) + (lane0 ? p[k] : p[H + k]);
        if (lane0)
          hi[k] = uint32_t(carry);
        else
          lo[k] = uint32_t(carry);
        carry >>= 32;
      }
      // Lane 0: ext = p[2H .. 3H) + carry, ext_top = pbit + carry out.
      // Lane 1: hi += carry + pbit (T < X^4: no carry out of hi); ext = p[0 .. H).
      uint64_t c0 = carry;
#pragma unroll
      for (int k = 0; k < H; ++k) {
        c0 += p[2 * H + k];
        ext[k] = lane0 ? uint32_t(c0) : p[k];
        c0 >>= 32;
      }
      ext_top = pbit + uint32_t(c0);
      uint64_t c1 = lane0 ? 0u : carry + pbit;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        c1 += hi[k];
        hi[k] = uint32_t(c1);
        c1 >>= 32;
      }
    }
    uint32_t tl[Q], w[Q], tc, c;
    {
      // Lane 0 sends c_2, c_3 (its hi), lane 1 c_4, c_5 (its lo).
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t recv = __shfl_xor_sync(0xffffffffu, lane0 ? hi[k] : lo[k], 1, L);
        // Lane 0: w = recv + ext + ext_top B^H; lane 1: tl = recv + ext B^H.
        const uint32_t add = k < H ? (lane0 ? ext[k] : 0u) : (lane0 ? (k == H ? ext_top : 0u) : ext[k - H]);
        carry += uint64_t(recv) + add;
        const uint32_t v = uint32_t(carry);
        carry >>= 32;
        tl[k] = lane0 ? lo[k] : v;
        w[k] = lane0 ? v : hi[k];
      }
      tc = lane0 ? 0u : uint32_t(carry);
      c = lane0 ? uint32_t(carry) : 0u;
    }

    // 4. Reduction of the window tl (blocks 0, 1 of T), S steps
    // (montgomery_sqr.cuh step 3, the quotient as in mul() below).
    const bool top_lane = !lane0;
#pragma unroll 1
    for (uint32_t s = 0; s < blocks; ++s) {
      uint32_t q[Q];
      quotient(q, tl, m, minv);
      // (lo, hi, top) = tl + tc X + m_j Q_s, by columns.
      uint32_t top;
      Block::column_product(lo, hi, top, m, q, tl, tc);
      // Shift down one lane: lane 0 takes lane 1's low half (lane 0's, now
      // 0, is dropped), lane 1 keeps its high half.
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t recv = __shfl_xor_sync(0xffffffffu, lo[k], 1, L);
        carry += uint64_t(hi[k]) + (top_lane ? 0u : recv);
        tl[k] = uint32_t(carry);
        carry >>= 32;
      }
      tc = top + uint32_t(carry);
    }
    // T's high half: block 2 + i to lane i + 2 - S (S = 1: lane 0's to lane 1).
    if (blocks < uint32_t(L)) {
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t v = __shfl_up_sync(0xffffffffu, w[k], 1, L);
        w[k] = lane0 ? 0u : v;
      }
      const uint32_t v = __shfl_up_sync(0xffffffffu, c, 1, L);
      c = lane0 ? 0u : v;
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
    Base::finish(r, tl, tc, m);
  }
};

}  // namespace bigtune::kernels::warp
