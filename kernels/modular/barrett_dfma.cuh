// Barrett mulmod for one thread on 52-bit limbs held in doubles, the limb
// products on the FP64 pipe (DFMA), for a shared odd modulus of 989 to 1024
// bits (k = 20 limbs of base b = 2^52, the top one nonzero).
//
// Why: the integer kernels form limb products with IMAD.WIDE on the FMA-heavy
// pipe; the FP64 pipe sits idle. bench/dfma_product_probe.cu measured 1.41x
// the 1024-bit product rate per thread on DFMA (H100, session 9 run D).
//
// A limb product a b (a, b < 2^52, exact in doubles) splits as
//   hi = fma_rz(a, b, 2^104)           mantissa = floor(ab / 2^52)
//   lo = fma_rz(a, b, (2^104 + 2^52) - hi) = (ab mod 2^52) + 2^52, exact
// (Emmart, Zheng & Weems, "Faster modular exponentiation using double
// precision floating point arithmetic on the GPU", ARITH 2018): the bit
// patterns of hi and lo, read as integers, are the halves plus a constant
// exponent field. Columns sum them as 64-bit integers (wrapping); each column
// starts at minus its constants, which the compiler folds (every index is a
// compile-time constant). The host build computes the same bit patterns with
// integer arithmetic (dfma_split), so the CPU tests check the algorithm
// against GMP and the GPU tests its DFMA form.
//
// Barrett (HAC 14.42, as kernels/modular/barrett_thread.cuh, base 2^52,
// k = 20): x = a b, q1 = x / b^(k-1), q3 = q1 mu / b^(k+1) from the pairs of
// q1 mu with i + j >= k - 1 only (HAC note 14.44; the dropped pairs lower q3
// by at most one more), r = (x - q3 m) mod b^(k+1), then at most three
// subtractions of m (four run). Limb products: 400 + 251 + 230 = 881, against
// 400 for the product alone; a square takes its pairs i < j once (210 for 400).
//
// Used by the 32-limb thread mulmod/sqrmod (kernels/variants/mod_kernels.cuh).
// A powm on the same code (fixed windows, the table in local memory) ran
// 0.68x the warp powm at 1 Kbit (session 9, run F) and was dropped.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"  // BIGTUNE_HD
#include "kernels/modular/limbs.cuh"   // BIGTUNE_MOD_UNROLL_ALL
#include "kernels/thread/divmod_knuth.cuh"

namespace bigtune::kernels::modular {

namespace dfma {
constexpr int kK = 20;  // 52-bit limbs of the modulus (1040 bits)
constexpr int kWords = 16;  // 64-bit words of an operand (1024 bits)
constexpr uint64_t kMask52 = (uint64_t(1) << 52) - 1;
constexpr uint64_t kHiBits = 0x4670000000000000ull;  // bit pattern of 2^104
constexpr uint64_t kLoBits = 0x4330000000000000ull;  // bit pattern of 2^52

// The bit patterns of hi and lo above for the limb product a b.
BIGTUNE_HD inline void dfma_split(double a, double b, uint64_t& hi, uint64_t& lo) {
#if defined(__CUDA_ARCH__)
  const double h = __fma_rz(a, b, 0x1p104);
  const double l = __fma_rz(a, b, __dsub_rz(0x1p104 + 0x1p52, h));
  hi = uint64_t(__double_as_longlong(h));
  lo = uint64_t(__double_as_longlong(l));
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(uint64_t(a)) * uint64_t(b);
  hi = kHiBits + uint64_t(p >> 52);
  lo = kLoBits + (uint64_t(p) & kMask52);
#endif
}

// col[c - C0] += the limb products a[i] b[j] with LO <= i + j <= HI, for
// columns C0 .. C0 + NC - 1 (parts landing outside are dropped: the caller
// chose the range so that they do not matter). col is overwritten.
template <int NA, int NB, int LO, int HI, int C0, int NC>
BIGTUNE_HD inline void product_columns(uint64_t* col, const double* a, const double* b) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int c = 0; c < NC; ++c) col[c] = 0;
  // The constants first: with every index known, they fold into the zeros.
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < NA; ++i) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < NB; ++j) {
      if (i + j < LO || i + j > HI) continue;
      if (i + j - C0 >= 0 && i + j - C0 < NC) col[i + j - C0] -= kLoBits;
      if (i + j + 1 - C0 >= 0 && i + j + 1 - C0 < NC) col[i + j + 1 - C0] -= kHiBits;
    }
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < NA; ++i) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < NB; ++j) {
      if (i + j < LO || i + j > HI) continue;
      uint64_t hi, lo;
      dfma_split(a[i], b[j], hi, lo);
      if (i + j - C0 >= 0 && i + j - C0 < NC) col[i + j - C0] += lo;
      if (i + j + 1 - C0 >= 0 && i + j + 1 - C0 < NC) col[i + j + 1 - C0] += hi;
    }
  }
}

// col[0 .. 2K) = the square of a (K limbs): the pairs i < j once, the sum
// doubled, then the diagonal: K (K + 1) / 2 limb products instead of K^2.
template <int K>
BIGTUNE_HD inline void square_columns(uint64_t* col, const double* a) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int c = 0; c < 2 * K; ++c) col[c] = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < K; ++i) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = i + 1; j < K; ++j) col[i + j] -= kLoBits, col[i + j + 1] -= kHiBits;
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < K; ++i) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = i + 1; j < K; ++j) {
      uint64_t hi, lo;
      dfma_split(a[i], a[j], hi, lo);
      col[i + j] += lo;
      col[i + j + 1] += hi;
    }
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < K; ++i) {
    uint64_t hi, lo;
    dfma_split(a[i], a[i], hi, lo);
    col[2 * i] = 2 * col[2 * i] + lo - kLoBits;
    col[2 * i + 1] = 2 * col[2 * i + 1] + hi - kHiBits;
  }
}

// Columns (each below 2^63) to 52-bit limbs, in place; returns the carry out.
template <int NC>
BIGTUNE_HD inline uint64_t carry_columns(uint64_t* col) {
  uint64_t carry = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int c = 0; c < NC; ++c) {
    const uint64_t v = col[c] + carry;
    col[c] = v & kMask52;
    carry = v >> 52;
  }
  return carry;
}

// 1024 bits in 16 words to 20 limbs of 52 bits (as doubles) and back.
BIGTUNE_HD inline void words_to_limbs(double* d, const uint64_t* w) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) {
    const int word = 52 * j / 64, off = 52 * j % 64;
    uint64_t v = word < kWords ? w[word] >> off : 0;
    if (off > 12 && word + 1 < kWords) v |= w[word + 1] << (64 - off);
    d[j] = double(v & kMask52);
  }
}

BIGTUNE_HD inline void limbs_to_words(uint64_t* w, const uint64_t* limb) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < kWords; ++i) {
    const int j = 64 * i / 52, off = 64 * i % 52;
    uint64_t v = limb[j] >> off;
    v |= limb[j + 1] << (52 - off);
    if (104 - off < 64 && j + 2 < kK) v |= limb[j + 2] << (104 - off);
    w[i] = v;
  }
}
}  // namespace dfma

// The shared modulus's constants, as doubles (exact integers below 2^52).
struct BarrettDfma {
  int usable;                 // m odd and 2^988 <= m < 2^1024
  double m[dfma::kK];
  double mu[dfma::kK + 1];    // floor((b^2k - 1) / m) = floor(b^2k / m) for such m
};

// One thread, once per launch: mu by Knuth's Algorithm D on 32-bit limbs
// (b^2k - 1 = 2^2080 - 1: 65 limbs of ones, by m's 32 limbs).
BIGTUNE_HD inline void barrett_dfma_setup(BarrettDfma& c, const uint32_t* m32) {
  uint64_t w[dfma::kWords];
  for (int i = 0; i < dfma::kWords; ++i) w[i] = (uint64_t(m32[2 * i + 1]) << 32) | m32[2 * i];
  c.usable = (w[0] & 1u) && (w[dfma::kWords - 1] >> (988 - 960)) != 0;  // bit 988 or above set
  dfma::words_to_limbs(c.m, w);
  for (int j = 0; j <= dfma::kK; ++j) c.mu[j] = 0;
  if (!c.usable) return;
  constexpr uint32_t n = 65, bn = 32;
  uint32_t x[2 * n + 1];  // dividend n limbs, a free limb, divisor bn limbs (and room)
  for (uint32_t j = 0; j < n; ++j) x[j] = ~0u;
  x[n] = 0;
  for (uint32_t j = 0; j < bn; ++j) x[n + 1 + j] = m32[j];
  for (uint32_t j = n + 1 + bn; j < 2 * n + 1; ++j) x[j] = 0;
  thread::divmod_knuth(x, n, bn);
  // The quotient (below 2^1092) in x[0 .. 35): to 21 limbs of 52 bits.
  uint64_t q[18] = {};
  for (int i = 0; i < 18; ++i) q[i] = (uint64_t(x[2 * i + 1]) << 32) | x[2 * i];
  for (int j = 0; j <= dfma::kK; ++j) {
    const int word = 52 * j / 64, off = 52 * j % 64;
    uint64_t v = q[word] >> off;
    if (off > 12 && word + 1 < 18) v |= q[word + 1] << (64 - off);
    c.mu[j] = double(v & dfma::kMask52);
  }
}

// x (2k normalised 52-bit limbs, x < b^2k) mod m into r (k limbs as
// doubles, r < m), with c.usable: the Barrett steps after the product.
BIGTUNE_HD inline void barrett_dfma_reduce(double* r, const uint64_t* x, const BarrettDfma& c) {
  using namespace dfma;
  constexpr int k = kK;
  // q3 = the columns k+1 .. 2k+1 of q1 mu, q1 = x[k-1 .. 2k)
  double q[k + 1];
  {
    double q1[k + 1];
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j <= k; ++j) q1[j] = double(x[k - 1 + j]);
    uint64_t w[k + 4];  // columns k - 1 .. 2k + 2
    product_columns<k + 1, k + 1, k - 1, 2 * k, k - 1, k + 4>(w, q1, c.mu);
    carry_columns<k + 4>(w);
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j <= k; ++j) q[j] = double(w[2 + j]);  // column k + 1 + j
  }
  // t = (q3 m) mod b^(k+1); r = x mod b^(k+1) - t
  uint64_t t[k + 2];
  product_columns<k + 1, k, 0, k, 0, k + 2>(t, q, c.m);
  carry_columns<k + 1>(t);
  uint64_t rr[k + 1];
  uint64_t borrow = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j <= k; ++j) {
    const uint64_t d = x[j] - t[j] - borrow;
    rr[j] = d & kMask52;
    borrow = d >> 63;  // x[j], t[j] < 2^52: a borrow makes d wrap to the top
  }
  // At most three subtractions of m (four run; see the file comment).
  BIGTUNE_MOD_UNROLL_ALL
  for (int s = 0; s < 4; ++s) {
    uint64_t d[k + 1], bw = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j <= k; ++j) {
      const uint64_t v = rr[j] - (j < k ? uint64_t(c.m[j]) : 0) - bw;
      d[j] = v & kMask52;
      bw = v >> 63;
    }
    const bool ge = bw == 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j <= k; ++j) rr[j] = ge ? d[j] : rr[j];
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < k; ++j) r[j] = double(rr[j]);  // rr[k] = 0: r < m
}

// r = a b mod m on limbs (k doubles each; a b < b^2k), with c.usable. r may
// alias a or b.
BIGTUNE_HD inline void barrett_dfma_mul_limbs(double* r, const double* a, const double* b, const BarrettDfma& c) {
  using namespace dfma;
  uint64_t x[2 * kK];
  product_columns<kK, kK, 0, 2 * kK - 2, 0, 2 * kK>(x, a, b);
  carry_columns<2 * kK>(x);
  barrett_dfma_reduce(r, x, c);
}

// r = a^2 mod m on limbs; r may alias a.
BIGTUNE_HD inline void barrett_dfma_sqr_limbs(double* r, const double* a, const BarrettDfma& c) {
  using namespace dfma;
  uint64_t x[2 * kK];
  square_columns<kK>(x, a);
  carry_columns<2 * kK>(x);
  barrett_dfma_reduce(r, x, c);
}

// r = a b mod m (r < m) for a, b < 2^1024 (16 words each), with c.usable.
BIGTUNE_HD inline void barrett_dfma_mulmod(uint64_t* r, const uint64_t* a, const uint64_t* b, const BarrettDfma& c) {
  using namespace dfma;
  double ad[kK], bd[kK];
  words_to_limbs(ad, a);
  words_to_limbs(bd, b);
  if (a == b) barrett_dfma_sqr_limbs(ad, ad, c);
  else barrett_dfma_mul_limbs(ad, ad, bd, c);
  uint64_t rl[kK + 1];
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) rl[j] = uint64_t(ad[j]);
  rl[kK] = 0;
  limbs_to_words(r, rl);
}

}  // namespace bigtune::kernels::modular
