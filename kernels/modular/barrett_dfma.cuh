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
// exponent field. Columns sum them as 64-bit integers (wrapping), each
// product's constant taken off in the same add (the constants' low words are
// zero, so it rides in the high word's IADD3.X). The host build computes the same bit patterns with
// integer arithmetic (dfma_split), so the CPU tests check the algorithm
// against GMP and the GPU tests its DFMA form.
//
// Barrett (HAC 14.42, as kernels/modular/barrett_thread.cuh, base 2^52,
// k = 20): x = a b, q1 = x / b^(k-1), q3 = q1 mu / b^(k+1) from the pairs of
// q1 mu with i + j >= k - 1 only (HAC note 14.44; the dropped pairs, below
// (k - 1) b^k in all, lower q3 by at most one more), so q - 3 <= q3 <= q and
// r = x - q3 m < 4 m < b^k: r = (x - q3 m) mod b^k (the columns from k on
// are not formed), then 2 m and m subtracted where they fit. Limb products:
// 400 + 251 + 210 = 861, against 400 for the product alone; a square takes
// its pairs i < j once (210 for 400).
//
// Every product runs by columns (product scanning), each column carried as
// soon as it is complete: what stays live is the operands and the finished
// limbs, not 2k column sums, so the kernel fits 168 registers (three
// 128-thread blocks an SM) where the row-order form took 255. The constants
// (BarrettDfma) are a kernel parameter: the limb products read mu and m from
// the constant bank, not from registers.
//
// Used by the thread variants mulmod/sqrmod.dfma.u64.q16 (kernels/variants/
// dfma_mod_instances.cu). A powm on the same code (fixed windows, the table
// in local memory) ran 0.68x the warp powm at 1 Kbit (session 9, run F) and
// was dropped.
#pragma once
#include <cstdint>
#include <cstring>

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

// x < 2^52 as a double: on the GPU the bit pattern of 2^52 + x less 2^52
// (a DADD on the FP64 pipe instead of an I2F conversion).
BIGTUNE_HD inline double to_double(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(__longlong_as_double((long long)(x | kLoBits)), 0x1p52);
#else
  return double(x);
#endif
}

// A double's bit pattern and back (shared-memory slots hold either).
BIGTUNE_HD inline double bits_to_double(uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)v);
#else
  double d;
  std::memcpy(&d, &v, sizeof d);
  return d;
#endif
}
BIGTUNE_HD inline uint64_t double_to_bits(double d) {
#if defined(__CUDA_ARCH__)
  return uint64_t(__double_as_longlong(d));
#else
  uint64_t v;
  std::memcpy(&v, &d, sizeof v);
  return v;
#endif
}

// Column s of the product a b (pairs a[i] b[s - i]): the low halves into cur
// (column s), the high halves into nxt (column s + 1), each with its
// exponent constant taken off (kLoBits and kHiBits have zero low words, so
// the constant rides in the high word's add).
template <int NA, int NB>
BIGTUNE_HD inline void add_column(int s, uint64_t& cur, uint64_t& nxt, const double* a, const double* b) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < NA; ++i) {
    const int j = s - i;
    if (j < 0 || j >= NB) continue;
    uint64_t hi, lo;
    dfma_split(a[i], b[j], hi, lo);
    cur += lo - kLoBits;
    nxt += hi - kHiBits;
  }
}

// acc[0 .. N] += x y (y of N limbs) by rows: the low half of x y_j into
// column j, the high half into column j + 1 (the Montgomery kernels' step,
// dfma_montgomery.cuh and dfma_team_montgomery.cuh).
template <int N>
BIGTUNE_HD inline void add_row(uint64_t* acc, double x, const double* y) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < N; ++j) {
    uint64_t hi, lo;
    dfma_split(x, y[j], hi, lo);
    acc[j] += lo - kLoBits;
    acc[j + 1] += hi - kHiBits;
  }
}

// x[0 .. NA + NB) = a b as 52-bit limbs, by columns, each carried at once.
template <int NA, int NB>
BIGTUNE_HD inline void product_limbs(uint64_t* x, const double* a, const double* b) {
  uint64_t cur = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int s = 0; s < NA + NB - 1; ++s) {
    uint64_t nxt = 0;
    add_column<NA, NB>(s, cur, nxt, a, b);
    x[s] = cur & kMask52;
    cur = nxt + (cur >> 52);
  }
  x[NA + NB - 1] = cur;
}

// a^2 (K limbs) by columns: the pairs i < j of a column once, doubled, then
// the diagonal (K (K + 1) / 2 limb products instead of K^2); each column is
// carried and handed to emit(s, limb) as soon as it is complete, so no 2K
// column sums stay live.
template <int K, class Emit>
BIGTUNE_HD inline void square_columns(const double* a, Emit emit) {
  uint64_t cur = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int s = 0; s < 2 * K - 1; ++s) {
    uint64_t lo = 0, hi = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int i = 0; i < K; ++i) {
      const int j = s - i;
      if (j <= i || j >= K) continue;
      uint64_t h, l;
      dfma_split(a[i], a[j], h, l);
      lo += l - kLoBits;
      hi += h - kHiBits;
    }
    lo *= 2;
    hi *= 2;
    if (s % 2 == 0) {
      uint64_t h, l;
      dfma_split(a[s / 2], a[s / 2], h, l);
      lo += l - kLoBits;
      hi += h - kHiBits;
    }
    cur += lo;
    emit(s, cur & kMask52);
    cur = hi + (cur >> 52);
  }
  emit(2 * K - 1, cur);
}

// x[0 .. 2K) = a^2.
template <int K>
BIGTUNE_HD inline void square_limbs(uint64_t* x, const double* a) {
  square_columns<K>(a, [&](int s, uint64_t limb) { x[s] = limb; });
}

// 1024 bits in 16 words to 20 limbs of 52 bits (as doubles) and back.
// (Any K limbs and NW words: dfma_montgomery.cuh runs 2048 bits too.)
template <int K = kK, int NW = kWords>
BIGTUNE_HD inline void words_to_limbs(double* d, const uint64_t* w) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < K; ++j) {
    const int word = 52 * j / 64, off = 52 * j % 64;
    uint64_t v = word < NW ? w[word] >> off : 0;
    if (off > 12 && word + 1 < NW) v |= w[word + 1] << (64 - off);
    d[j] = to_double(v & kMask52);
  }
}

template <int K = kK, int NW = kWords>
BIGTUNE_HD inline void limbs_to_words(uint64_t* w, const uint64_t* limb) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < NW; ++i) {
    const int j = 64 * i / 52, off = 64 * i % 52;
    uint64_t v = limb[j] >> off;
    if (j + 1 < K) v |= limb[j + 1] << (52 - off);
    if (104 - off < 64 && j + 2 < K) v |= limb[j + 2] << (104 - off);
    w[i] = v;
  }
}
}  // namespace dfma

// The shared modulus's constants: m and mu as doubles for the limb products
// (exact integers below 2^52), m and 2 m as integer limbs for the final
// subtractions.
struct BarrettDfma {
  double m[dfma::kK];
  double mu[dfma::kK + 1];  // floor((b^2k - 1) / m) = floor(b^2k / m) for such m
  uint64_t m1[dfma::kK];
  uint64_t m2[dfma::kK];
  int usable;               // m odd and 2^988 <= m < 2^1024
};

// Once per call, on the host: mu by Knuth's Algorithm D on 32-bit limbs
// (b^2k - 1 = 2^2080 - 1: 65 limbs of ones, by m's 32 limbs).
BIGTUNE_HD inline void barrett_dfma_setup(BarrettDfma& c, const uint32_t* m32) {
  uint64_t w[dfma::kWords];
  for (int i = 0; i < dfma::kWords; ++i) w[i] = (uint64_t(m32[2 * i + 1]) << 32) | m32[2 * i];
  c.usable = (w[0] & 1u) && (w[dfma::kWords - 1] >> (988 - 960)) != 0;  // bit 988 or above set
  for (int j = 0; j < dfma::kK; ++j) {
    const int word = 52 * j / 64, off = 52 * j % 64;
    uint64_t v = w[word] >> off;
    if (off > 12 && word + 1 < dfma::kWords) v |= w[word + 1] << (64 - off);
    c.m1[j] = v & dfma::kMask52;
    c.m[j] = double(c.m1[j]);
  }
  uint64_t carry = 0;
  for (int j = 0; j < dfma::kK; ++j) {
    const uint64_t v = 2 * c.m1[j] + carry;
    c.m2[j] = v & dfma::kMask52;
    carry = v >> 52;
  }
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

// r = x mod m (k limbs, r < m) for x < b^2k in 2k normalised 52-bit limbs,
// with c.usable: the Barrett steps after the product. x's limb s is
// xlo[s * stride] below k (registers with stride 1, shared memory in the
// rolled product), xhi[s - k] from k on.
BIGTUNE_HD inline void barrett_dfma_reduce(uint64_t* r, const uint64_t* xlo, int stride, const uint64_t* xhi,
                                           const BarrettDfma& c) {
  using namespace dfma;
  constexpr int k = kK;
  const auto x = [&](int s) { return s < k ? xlo[s * stride] : xhi[s - k]; };
  // q3 = the columns k + 1 .. 2k + 1 of q1 mu (pairs from column k - 1 on).
  double q[k + 1];
  {
    double q1[k + 1];
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j <= k; ++j) q1[j] = to_double(x(k - 1 + j));
    uint64_t cur = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int s = k - 1; s <= 2 * k; ++s) {
      uint64_t nxt = 0;
      add_column<k + 1, k + 1>(s, cur, nxt, q1, c.mu);
      if (s >= k + 1) q[s - k - 1] = to_double(cur & kMask52);
      cur = nxt + (cur >> 52);
    }
    q[k] = to_double(cur);  // column 2k + 1: q1 mu < b^(2k+2)
  }
  // r = (x - q3 m) mod b^k, column by column.
  uint64_t cur = 0, borrow = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int s = 0; s < k; ++s) {
    uint64_t nxt = 0;
    add_column<k + 1, k>(s, cur, nxt, q, c.m);
    const uint64_t d = x(s) - (cur & kMask52) - borrow;
    r[s] = d & kMask52;
    borrow = d >> 63;  // x[s], the column's limb < 2^52: a borrow wraps d to the top
    cur = nxt + (cur >> 52);
  }
  // r < 4 m: 2 m off where it fits, then m.
  BIGTUNE_MOD_UNROLL_ALL
  for (int pass = 0; pass < 2; ++pass) {
    const uint64_t* sub = pass == 0 ? c.m2 : c.m1;
    uint64_t d[k], bw = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < k; ++j) {
      const uint64_t v = r[j] - sub[j] - bw;
      d[j] = v & kMask52;
      bw = v >> 63;
    }
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < k; ++j) r[j] = bw ? r[j] : d[j];
  }
}

// r = a b mod m (r < m) for a, b < 2^1024 (16 words each), with c.usable.
BIGTUNE_HD inline void barrett_dfma_mulmod(uint64_t* r, const uint64_t* a, const uint64_t* b, const BarrettDfma& c) {
  using namespace dfma;
  uint64_t x[2 * kK];
  {
    double ad[kK], bd[kK];
    words_to_limbs(ad, a);
    words_to_limbs(bd, b);
    product_limbs<kK, kK>(x, ad, bd);
  }
  uint64_t rl[kK];
  barrett_dfma_reduce(rl, x, 1, x + kK, c);
  limbs_to_words(r, rl);
}

// The product a b with b's limbs in xb[j * stride] (shared memory on the
// GPU; the bit patterns of the doubles) and the loop over them rolled, U
// limbs of b a pass: the pass's code is U rows of k limb products, not all k
// rows, and a window of k + U column sums slides along (operand scanning;
// 2 (k + U) register moves a pass). Columns 0 .. k - 1 replace b's limbs in
// xb (limb j of b is read in the pass that emits column j), columns
// k .. 2k - 1 go to xhi.
template <int U, int k = dfma::kK>
BIGTUNE_HD inline void product_limbs_rolled(uint64_t* xb, uint64_t* xhi, const double* a, int stride) {
  using namespace dfma;
  constexpr int W = k + U;
  static_assert(k % U == 0, "whole passes");
  uint64_t acc[W];
  BIGTUNE_MOD_UNROLL_ALL
  for (int w = 0; w < W; ++w) acc[w] = 0;
  BIGTUNE_MOD_NO_UNROLL
  for (int j0 = 0; j0 < k; j0 += U) {
    double bj[U];
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) bj[u] = bits_to_double(xb[(j0 + u) * stride]);
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) {
      BIGTUNE_MOD_UNROLL_ALL
      for (int i = 0; i < k; ++i) {
        uint64_t hi, lo;
        dfma_split(a[i], bj[u], hi, lo);
        acc[u + i] += lo - kLoBits;
        acc[u + i + 1] += hi - kHiBits;
      }
    }
    // Columns j0 .. j0 + U - 1 are complete: carried, emitted, the window moved.
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) {
      xb[(j0 + u) * stride] = acc[u] & kMask52;
      acc[u + 1] += acc[u] >> 52;
    }
    BIGTUNE_MOD_UNROLL_ALL
    for (int w = 0; w < W; ++w) acc[w] = w + U < W ? acc[w + U] : 0;
  }
  uint64_t carry = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int i = 0; i < k; ++i) {
    const uint64_t v = acc[i] + carry;
    xhi[i] = v & kMask52;
    carry = v >> 52;  // 0 after the top column: a b < b^2k
  }
}

// r = a b mod m with the rolled product: xb holds b's k limbs (as the bit
// patterns of doubles, at stride) and is overwritten with the product's low
// limbs.
template <int U>
BIGTUNE_HD inline void barrett_dfma_mulmod_rolled(uint64_t* r, const uint64_t* a, uint64_t* xb, int stride,
                                                  const BarrettDfma& c) {
  using namespace dfma;
  uint64_t xhi[kK];
  {
    double ad[kK];
    words_to_limbs(ad, a);
    product_limbs_rolled<U>(xb, xhi, ad, stride);
  }
  uint64_t rl[kK];
  barrett_dfma_reduce(rl, xb, stride, xhi, c);
  limbs_to_words(r, rl);
}

// r = a^2 mod m, the same way with the squaring's half of the pairs.
BIGTUNE_HD inline void barrett_dfma_sqrmod(uint64_t* r, const uint64_t* a, const BarrettDfma& c) {
  using namespace dfma;
  uint64_t x[2 * kK];
  {
    double ad[kK];
    words_to_limbs(ad, a);
    square_limbs<kK>(x, ad);
  }
  uint64_t rl[kK];
  barrett_dfma_reduce(rl, x, 1, x + kK, c);
  limbs_to_words(r, rl);
}

}  // namespace bigtune::kernels::modular
