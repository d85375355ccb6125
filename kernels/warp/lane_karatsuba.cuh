// One lane's Q x Q limb product by one level of Karatsuba, plus a 2Q-limb
// addend: r = x y + a_lo + a_hi B^Q, 2Q limbs and a carry word (task
// powmicache, issue 9). The block products of the warp Montgomery kernels
// (kernels/warp/montgomery_block.cuh: a_j B_s, m_j Q_s, the squaring's pair
// products) are these, Q = 16 limbs a lane.
//
// Why: ncu on the 1-8 Kbit powm defaults (bench/results/
// 2026-11-23-h100-powmicache.md) shows the FMA-heavy pipe 71-79 % busy (an
// IMAD.WIDE holds it 4 cycles a warp instruction on its SMSP, any other IMAD
// 2), the ALU pipe 31-41 % and the instruction caches no limit at 2-8 Kbit
// (< 1 % "no instruction" stalls): the kernels are bound by the FMA pipe's
// work, not by instruction supply. Karatsuba trades IMAD.WIDE for ALU work:
// 3 (Q/2)^2 limb products instead of Q^2 (192 against 256 at Q = 16), for
// ~4Q more ALU instructions (the two differences, the middle term, the
// recombination), on the pipe that has room.
//
// x = x0 + x1 X, y = y0 + y1 X (X = B^H, H = Q/2, B = 2^32):
//   P0 = x0 y0, P2 = x1 y1, Pm = |x0 - x1| |y0 - y1|;
//   M = x0 y1 + x1 y0 = P0 + P2 - Pm if (x0 - x1), (y0 - y1) have the same
//   sign, else P0 + P2 + Pm; 0 <= M < 2 X^2, so 2H limbs + one word;
//   x y = P0 + M X + P2 X^2.
// The subtractive form keeps every half product at H x H limbs (as the warp
// Karatsuba, kernels/variants/warp_kara.cuh). The half products are Comba by
// columns on one three-word accumulator (one IMAD.WIDE a limb product, as
// the column products of montgomery_block.cuh).
//
// Bounds: r = x y + a_lo + a_hi B^Q < B^(2Q) + 2 B^(2Q) (a_hi < B^Q), so the
// carry word is at most 2; M's word above 2H limbs is 0 or 1.
#pragma once
#include <cstdint>

#include "kernels/warp/mul_block_rotate.cuh"  // detail::mac, arith::Accumulator

namespace bigtune::kernels::warp::lane_kara {

#if defined(__CUDA_ARCH__)
#include "kernels/arith/add_chains.inc"
#endif

// r[0 .. N) = a + b + cin (cin 0 or 1, kCarryIn false: 0); returns the carry
// out. One PTX carry chain (kernels/arith/gen_add_chains.py), so that ptxas
// keeps the carries on the ALU pipe (IADD3.X): written as 64-bit C++ sums they
// became IMAD.X and IMAD.MOV on the FMA pipe this file means to relieve
// (SASS, CUDA 13.0: 287 other IMAD a product step against 228).
template <int N, bool kCarryIn = true>
__device__ __forceinline__ uint32_t add_n(uint32_t* r, const uint32_t* a, const uint32_t* b, uint32_t cin) {
#if defined(__CUDA_ARCH__)
  return AddChain<N, kCarryIn>::apply(r, a, b, cin);
#else
  uint64_t carry = kCarryIn ? cin : 0u;
  for (int k = 0; k < N; ++k) {
    carry += uint64_t(a[k]) + b[k];
    r[k] = uint32_t(carry);
    carry >>= 32;
  }
  return uint32_t(carry);
#endif
}

// p = x y, H x H limbs by columns (2H limbs).
template <int H>
__device__ __forceinline__ void comba(uint32_t (&p)[2 * H], const uint32_t* x, const uint32_t* y) {
  arith::Accumulator<uint32_t> acc{0, 0, 0};
#pragma unroll
  for (int k = 0; k < 2 * H - 1; ++k) {
#pragma unroll
    for (int i = (k - H + 1 > 0 ? k - H + 1 : 0); i <= k && i < H; ++i) detail::mac(acc, x[i], y[k - i]);
    p[k] = acc.lo;
    acc.lo = acc.hi, acc.hi = acc.top, acc.top = 0;
  }
  p[2 * H - 1] = acc.lo;
}

// d = |x0 - x1| (H limbs); returns 1 if x0 < x1.
template <int H>
__device__ __forceinline__ uint32_t abs_diff(uint32_t (&d)[H], const uint32_t* x0, const uint32_t* x1) {
  uint32_t borrow = 0;
#pragma unroll
  for (int k = 0; k < H; ++k) {
    const uint64_t t = uint64_t(x0[k]) - x1[k] - borrow;
    d[k] = uint32_t(t);
    borrow = uint32_t(t >> 32) & 1u;
  }
  // Negative: d = ~d + 1 (two's complement of the H-limb difference).
  const uint32_t mask = 0u - borrow;
  uint64_t carry = borrow;
#pragma unroll
  for (int k = 0; k < H; ++k) {
    carry += uint32_t(d[k] ^ mask);
    d[k] = uint32_t(carry);
    carry >>= 32;
  }
  return borrow;
}

// (lo, hi) = x y + a_lo + a_hi B^Q; returns the carry word above (<= 2).
// lo, hi may alias a_lo, a_hi.
template <int Q>
__device__ __forceinline__ uint32_t mul_add(uint32_t (&lo)[Q], uint32_t (&hi)[Q], const uint32_t (&x)[Q],
                                            const uint32_t (&y)[Q], const uint32_t (&a_lo)[Q],
                                            const uint32_t (&a_hi)[Q]) {
  static_assert(Q % 2 == 0, "even Q");
  constexpr int H = Q / 2;
  uint32_t dx[H], dy[H];
  const uint32_t sx = abs_diff<H>(dx, x, x + H);
  const uint32_t sy = abs_diff<H>(dy, y, y + H);
  uint32_t p0[Q], p2[Q], pm[Q];
  comba<H>(p0, x, y);
  comba<H>(p2, x + H, y + H);
  comba<H>(pm, dx, dy);
  // M = P0 + P2 -/+ Pm: subtract (add ~Pm + 1, drop B^Q) when the signs agree.
  const uint32_t sub = (sx ^ sy) ^ 1u, mask = 0u - sub;
  uint32_t m[Q];
  const uint32_t c1 = add_n<Q, false>(m, p0, p2, 0);
#pragma unroll
  for (int k = 0; k < Q; ++k) pm[k] ^= mask;
  const uint32_t c2 = add_n<Q>(m, m, pm, sub);
  const uint32_t m_top = c1 + c2 + mask;  // 0 or 1: M < 2 B^Q
  // r = P0 + P2 X^2 + a_lo + a_hi B^Q, then + M X (X = B^H).
  constexpr int kLen = Q + H + 1;  // words H .. 2Q (the carry word)
  uint32_t r[H + kLen];
  uint32_t pp[2 * Q], aa[2 * Q];
#pragma unroll
  for (int k = 0; k < Q; ++k) pp[k] = p0[k], pp[Q + k] = p2[k], aa[k] = a_lo[k], aa[Q + k] = a_hi[k];
  const uint32_t c4 = add_n<2 * Q, false>(r, pp, aa, 0);
  uint32_t mx[kLen];
#pragma unroll
  for (int k = 0; k < kLen; ++k) mx[k] = k < Q ? m[k] : (k == Q ? m_top : 0u);
  // r[H .. H + kLen) += M; word 2Q is the carry word (the sum is below B^(2Q) 3).
  r[2 * Q] = c4;
#pragma unroll
  for (int k = 2 * Q + 1; k < H + kLen; ++k) r[k] = 0;
  add_n<kLen, false>(r + H, r + H, mx, 0);
#pragma unroll
  for (int k = 0; k < Q; ++k) lo[k] = r[k], hi[k] = r[Q + k];
  return r[2 * Q];
}

}  // namespace bigtune::kernels::warp::lane_kara
