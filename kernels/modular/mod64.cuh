// Modular arithmetic on one 64-bit word per instance (moduli up to 64 bits),
// for any modulus, odd or even, by division with a precomputed reciprocal:
// Möller & Granlund, "Improved division by invariant integers" (IEEE Trans.
// Computers 60(2), 2011), Algorithm 4 (a 2/1 remainder with the reciprocal of
// a normalised divisor: one full and one low 64x64 product and two rare
// corrections). A remainder by m is a remainder by d = m 2^s (the top bit of d
// set) of the dividend shifted left by s, shifted back.
//
// Why not the 32-bit-limb Montgomery core (montgomery.cuh) on two limbs: a
// 64-bit mulmod there takes two Montgomery products (2 x 8 limb products), the
// R^2 conversion factor and, for an even modulus, a CRT step with 2^k; here it
// is three full 64x64 products for any modulus, and the memory traffic (8
// bytes in per operand, 8 out) is what bounds a batch.
//
// Plain C++ but for the two intrinsics, so the CPU tests check it against GMP
// (tests/unit/mod64_test.cpp).
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"  // BIGTUNE_HD
#include "kernels/thread/divmod_knuth.cuh"

namespace bigtune::kernels::modular {

// A modulus m prepared for remainders: d = m << s with s = clz(m), and
// v = floor((2^128 - 1) / d) - 2^64. d = 0 marks m = 0 (outside the contract:
// results 0, as the other modular kernels do).
struct Divisor64 {
  uint64_t d = 0;
  uint64_t v = 0;
  uint32_t s = 0;
  uint32_t unused = 0;
};

BIGTUNE_HD inline void mul_wide64(uint64_t a, uint64_t b, uint64_t& hi, uint64_t& lo) {
#if defined(__CUDA_ARCH__)
  lo = a * b;
  hi = __umul64hi(a, b);
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  lo = uint64_t(p);
  hi = uint64_t(p >> 64);
#endif
}

BIGTUNE_HD inline uint32_t leading_zeros64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__clzll(static_cast<long long>(x)));
#else
  return x ? uint32_t(__builtin_clzll(x)) : 64u;
#endif
}

// The reciprocal by one schoolbook division of 2^128 - 1 by d (Knuth's
// Algorithm D on 32-bit limbs, kernels/thread/divmod_knuth.cuh): once per
// shared modulus, or once per instance where each has its own.
BIGTUNE_HD inline Divisor64 make_divisor64(uint64_t m) {
  Divisor64 D;
  if (m == 0) return D;
  D.s = leading_zeros64(m);
  D.d = m << D.s;
  // Region: dividend 4 limbs, a free limb, divisor 2 limbs. The quotient lies
  // in [2^64, 2^65) since 2^63 <= d < 2^64: limb 2 is 1, v its low 64 bits.
  uint32_t x[7] = {~0u, ~0u, ~0u, ~0u, 0u, uint32_t(D.d), uint32_t(D.d >> 32)};
  thread::divmod_knuth(x, 4, 2);
  D.v = (uint64_t(x[1]) << 32) | x[0];
  return D;
}

// (u1 2^64 + u0) mod d for u1 < d (Möller & Granlund, Algorithm 4).
BIGTUNE_HD inline uint64_t rem_2by1(uint64_t u1, uint64_t u0, const Divisor64& D) {
  uint64_t q1, q0;
  mul_wide64(D.v, u1, q1, q0);
  q0 += u0;
  q1 += u1 + (q0 < u0);
  q1 += 1;
  uint64_t r = u0 - q1 * D.d;
  if (r > q0) r += D.d;   // the candidate quotient was one too large
  if (r >= D.d) r -= D.d;  // rare: one too small
  return r;
}

// a mod m for any a.
BIGTUNE_HD inline uint64_t reduce64(uint64_t a, const Divisor64& D) {
  if (D.d == 0) return 0;
  const uint64_t hi = D.s ? a >> (64 - D.s) : 0;  // < 2^s <= 2^63 <= d
  return rem_2by1(hi, a << D.s, D) >> D.s;
}

// a b mod m for any a, b below 2^64: the product shifted by s spans three
// words (n2, n1, n0) with n2 < 2^s <= d, so two remainder steps.
BIGTUNE_HD inline uint64_t mulmod64(uint64_t a, uint64_t b, const Divisor64& D) {
  if (D.d == 0) return 0;
  uint64_t hi, lo;
  mul_wide64(a, b, hi, lo);
  const uint32_t s = D.s;
  const uint64_t n2 = s ? hi >> (64 - s) : 0;
  const uint64_t n1 = s ? (hi << s) | (lo >> (64 - s)) : hi;
  const uint64_t r = rem_2by1(rem_2by1(n2, n1, D), lo << s, D);
  return r >> s;
}

// a b mod m for a, b < m: a b 2^s < m d < 2^64 d, so the shifted product fits
// two words with the high one below d: one remainder step.
BIGTUNE_HD inline uint64_t mulmod64_reduced(uint64_t a, uint64_t b, const Divisor64& D) {
  uint64_t hi, lo;
  mul_wide64(a, b, hi, lo);
  const uint32_t s = D.s;
  const uint64_t n1 = s ? (hi << s) | (lo >> (64 - s)) : hi;
  return rem_2by1(n1, lo << s, D) >> s;
}

// Bits [pos, pos + w) of the exponent e (e_words 64-bit words), w <= 8.
BIGTUNE_HD inline uint32_t exponent_window64(const uint64_t* e, uint32_t e_words, uint32_t pos, uint32_t w) {
  const uint32_t word = pos >> 6, bit = pos & 63;
  uint64_t x = e[word] >> bit;
  if (bit + w > 64 && word + 1 < e_words) x |= e[word + 1] << (64 - bit);
  return uint32_t(x) & ((1u << w) - 1u);
}

constexpr uint32_t kPowm64MaxWindow = 5;

// x^e mod m for any x, m and e of e_words words (e = 0: 1 mod m), left to
// right in fixed windows of w bits (1 <= w <= kPowm64MaxWindow): the table
// x^0 .. x^(2^w - 1) (2^w - 2 products), then per window w squarings and one
// product; the top window loads its power instead.
BIGTUNE_HD inline uint64_t powm64(uint64_t x, const uint64_t* e, uint32_t e_words, const Divisor64& D, uint32_t w) {
  if (D.d == 0) return 0;
  const uint64_t one = D.s == 63 ? 0 : 1;  // m = 1 is the only m with s = 63
  uint32_t ebits = 0;
  for (uint32_t j = e_words; j-- > 0;)
    if (e[j]) {
      ebits = 64 * j + 64 - leading_zeros64(e[j]);
      break;
    }
  if (ebits == 0) return one;
  uint64_t table[1u << kPowm64MaxWindow];
  table[0] = one;
  table[1] = reduce64(x, D);
  for (uint32_t k = 2; k < (1u << w); ++k) table[k] = mulmod64_reduced(table[k - 1], table[1], D);
  uint32_t pos = (ebits - 1) / w * w;  // the top window's lowest bit
  uint64_t acc = table[exponent_window64(e, e_words, pos, w)];
  while (pos > 0) {
    pos -= w;
    for (uint32_t k = 0; k < w; ++k) acc = mulmod64_reduced(acc, acc, D);
    acc = mulmod64_reduced(acc, table[exponent_window64(e, e_words, pos, w)], D);
  }
  return acc;
}

}  // namespace bigtune::kernels::modular
