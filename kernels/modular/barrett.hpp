// Barrett reduction for any modulus (issue 9, must-deliver 1: "Barrett
// (precomputed reciprocal, e.g. from the division of Kernels II) for any
// modulus"), composed from registered products and a registered division
// (kernels/variants/barrett_instances.cu). This header holds the word-level
// arithmetic that the device kernels use and the CPU tests check
// (tests/unit/barrett_test.cpp), and the bound the corrections rely on.
//
// Operands have n 64-bit words; N = 64 n. The modulus m (k bits, 1 <= k <= N)
// is normalised, m' = m << s with s = N - k, so that 2^(N-1) <= m' < 2^N and
// every instance uses the same fixed-width products whatever its k (the
// classic normalisation of division, Knuth 4.3.1 / seed 002's division
// chapter). Then for x < 2^(2N) (HAC 14.42 with base 2^N and
// mu = floor((2^(2N) - 1) / m') instead of floor(2^(2N) / m'), which differs only
// for m' = 2^(N-1) and keeps mu below 2^(N+1)):
//
//   mu  = 2^N + mu_lo,          mu_lo < 2^N      (computed once per modulus)
//   q1  = floor(x / 2^N)        < 2^N            (x's high half: no bit shift)
//   q   = floor(q1 mu / 2^N) = high half of q1 * mu_lo + q1   (< 2^(N+1))
//   r   = x - q m'              (mod 2^(N+64), one word more than m')
//
// Bound: with x / 2^N = q1 + alpha, 2^(2N) / m' = mu + beta (0 <= alpha < 1,
// 0 <= beta <= 1), x / m' - q1 mu / 2^N = (alpha mu + beta q1 + alpha beta) / 2^N
// < (2^(N+1) + 2^N + 1) / 2^N = 3 + 2^-N, and q > q1 mu / 2^N - 1, so
// floor(x / m') - q <= 4: 0 <= r < 5 m' < 2^(N+3), at most four subtractions
// of m' (kBarrettMaxCorrections). The CPU test checks this bound at the
// extremes (m' = 2^(N-1), m' = 2^N - 1, x = 2^(2N) - 1).
//
// The tensor-core variants (tcbarrett, a shared modulus) estimate q with a
// guard word on each side, so that r = x - q m' is below m' but for a
// fraction ~2^-30 of the x (and below 2 m' always), and the q m' pass's
// corrections nearly never run (a third of its time at 8 Kbit, session 26):
//
//   mu2 = 2^32 mu + d = 2^(N+32) + mu2_lo,   d = barrett_guard_word(...)
//   q1' = floor(x / 2^(N-32g))   < 2^(N+32g) (words w - g .. 2w - 1 of x, w = 2n,
//                                             g = barrett_x_guard_words(w))
//   q   = floor(q1' mu2 / 2^(N+32+32g)), from the byte columns of words >= w + g - 1
//
// (g = 8 rather than 1 starts x's rows (x_lo = w - 8) 32-byte aligned where
// w is a multiple of 8, so that the tensor kernels' loads read whole
// sectors, at no extra tensor work there: a row of w + 1, w + 4 or w + 8
// words pads to the same 32-byte blocks. Session 28 on the H200: powm with a
// shared modulus 1.010x at 4 and 8 Kbit over g = 4, mulmod within
// 0.99-1.01x.)
// d = floor(R_top / (M + 1)) with R = 2^32 rho + 2^32 - 1 (rho = 2^(2N) - 1
// - mu m', the division's remainder), R_top = floor(R / 2^(N-64)) and M =
// floor(m' / 2^(N-64)): R / m' lies in [R_top / (M + 1), (R_top + 1) / M),
// so d <= floor(R / m') <= d + 1 and mu2 is floor((2^(2N+32) - 1) / m') or
// one less; never more, so q never passes floor(x / m'). With x / 2^(N-32g)
// = q1' + alpha and 2^(2N+32) / m' = mu2 + beta (beta < 2 + 2^-N), x / m' -
// q1' mu2 / 2^(N+32+32g) = (alpha mu2 + beta q1' + alpha beta) / 2^(N+32+32g)
// < 2^(1-32g) + 2^-31 + 2^-N, and the columns below word w + g - 1 drop
// less than 2^(32 (w + g - 1) + 29) / 2^(N+32+32g) = 2^-35: q is
// floor(x / m') or one less.
//
// Which of the two, the quotient pass can tell (session 28): with V the
// computed q1' mu2 / 2^(N+32+32g) (the dropped columns left out), V <= x /
// m' < V + e, e < 2^(1-32g) + 2^-31 + 2^-35 + 2^-N < 2^-29 for g >= 1 and
// N >= 64, and q = floor(V). So q < floor(x / m') needs frac(V) > 1 - 2^-29.
// frac(V) < (c + 1) / 2^32 for c the computed word w + g (the word just
// below q's), so c < 2^32 - 8 proves q = floor(x / m'), r = x - q m' < m'
// and r = (x - q m') mod 2^N: no top word, no correction. The wgmma
// quotient marks such instances (block::kQuotientExact where c <
// kQuotientExactLimit = 2^32 - 16), and the wgmma remainder pass of a group
// whose instances are all marked stops at word w. A random x goes unmarked
// with probability 2^-28; x = c m' - 1 (frac(x / m') just below 1) does.
//
// For x = a * b with a, b < m: x << s < m'^2 < 2^(2N), and x mod m =
// ((x << s) mod m') >> s. Operands >= m are first reduced the same way with
// x = a << s < 2^(2N - 1) (no product). m = 1 gives s = N - 1, m' = 2^(N-1)
// and the result 0 with no special case.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::modular {

constexpr uint32_t kBarrettMaxCorrections = 4;

// The tensor-core quotient's guard words on x's side (above): 8, or all of
// x's low half where it is shorter (w < 8).
BIGTUNE_HD constexpr uint32_t barrett_x_guard_words(uint32_t w) { return w < 8 ? w : 8; }

// The tensor-core quotient's guard word d (above): R_top = (r2 r1 r0), words
// w, w - 1, w - 2 of R = 2^32 rho + 2^32 - 1; M = (m1 m0), words w - 1, w - 2
// of m' (w >= 2 32-bit words). floor(R_top / (M + 1)) <= R / m' < 2^32.
BIGTUNE_HD inline uint32_t barrett_guard_word(uint32_t r2, uint32_t r1, uint32_t r0, uint32_t m1, uint32_t m0) {
  const unsigned __int128 r_top = (unsigned __int128)r2 << 64 | (unsigned __int128)r1 << 32 | r0;
  const unsigned __int128 m_plus_1 = ((unsigned __int128)m1 << 32 | m0) + 1;
  return uint32_t(r_top / m_plus_1);
}

// Word j of t << (64 ws + bs), t of len words (zero outside).
BIGTUNE_HD inline uint64_t barrett_word_or0(const uint64_t* t, int64_t i, uint32_t len) {
  return i >= 0 && i < int64_t(len) ? t[i] : 0;
}
BIGTUNE_HD inline uint64_t barrett_shl_word(const uint64_t* t, uint32_t len, int64_t j, uint32_t ws, uint32_t bs) {
  const uint64_t hi = barrett_word_or0(t, j - int64_t(ws), len);
  if (bs == 0) return hi;
  return (hi << bs) | (barrett_word_or0(t, j - int64_t(ws) - 1, len) >> (64 - bs));
}
// Word j of t >> (64 ws + bs).
BIGTUNE_HD inline uint64_t barrett_shr_word(const uint64_t* t, uint32_t len, int64_t j, uint32_t ws, uint32_t bs) {
  const uint64_t lo = barrett_word_or0(t, j + int64_t(ws), len);
  if (bs == 0) return lo;
  return (lo >> bs) | (barrett_word_or0(t, j + int64_t(ws) + 1, len) << (64 - bs));
}

// Carries of one round of 32 words added (or subtracted) lane-parallel:
// g = per-lane generate mask (the lane's word overflowed / borrowed), p =
// propagate mask (its word is all ones / zero, so an incoming carry passes
// through), cin = carry into lane 0. Bit i of the result is the carry into
// lane i, bit 32 the carry out of lane 31: a 32-bit adder of A = g | p and
// B = g does exactly this carry-lookahead (A_i + B_i = 2: generate, = 1:
// propagate, = 0: kill), so carry_i = bit i of (A + B + cin) ^ A ^ B.
// Lanes past the number's end have g = p = 0: the carry out of a number of
// len < 32 words in this round is bit len.
BIGTUNE_HD inline uint64_t barrett_carry_vector(uint32_t g, uint32_t p, uint32_t cin) {
  const uint64_t a = uint64_t(g | p), b = uint64_t(g);
  return (a + b + cin) ^ a ^ b;
}

// Scratch of one call, in bytes from the start of args.scratch (256-byte
// aligned parts). U = one batch of n-word instances.
struct BarrettLayout {
  uint64_t shift, d, flag, div_flags;  // per instance u32 (shift s, carry d), one u32, divmod's flags
  uint64_t mprime, mu;                 // n words per instance
  uint64_t mu2;                        // tensor cores: n + 1 words (one modulus)
  uint64_t t, p, alt;                  // 2n words per instance: a*b (x), the other products, finish's 2nd row
  uint64_t q;                          // n words: q1, then q's low n words
  uint64_t ared, bred;                 // operands reduced below m (when some were not)
  uint64_t dividend, divisor, quot, rem;  // 2n words per modulus: mu = floor((2^(2N)-1) / m')
  uint64_t div_scratch, prod_scratch;  // the registered division's and products' own
  uint64_t table, gathered;            // powm: 2^w entries of U, the selected entry
  uint64_t ntt_tables, mu_hat, mp_hat; // spectra of mu_lo and m' (one pair, or one per powm instance) and their tables
  uint64_t total;
};

}  // namespace bigtune::kernels::modular
