// Montgomery arithmetic for one thread on 52-bit limbs held in doubles, the
// limb products on the FP64 pipe (DFMA pairs, as barrett_dfma.cuh), for any
// odd modulus up to 1024 bits, and the fixed-window powm on it.
//
// Why Montgomery here when the mulmod uses Barrett: powm stays in Montgomery
// form from the table to the end, and a Montgomery product needs one limb of
// per-instance constants (m' = -1/m mod b) besides m, where Barrett needs
// mu's k + 1 limbs: with a modulus per instance (the usual powm batch) the
// per-thread state is m (20 doubles) and nothing else.
//
// The product (HAC 14.36, CIOS form: Koc, Acar & Kaliski, "Analyzing and
// comparing Montgomery multiplication algorithms", IEEE Micro 1996), base
// b = 2^52, k = 20, R = b^k = 2^1040: for each limb a_i of a, add a_i b and
// q_i m (q_i = t_0 m' mod b) to a window of k + 1 column sums, whose lowest
// column is then 0 mod b and slides out. The loop over a's limbs is rolled,
// U limbs a pass, a's limbs read from `slots` (shared memory on the GPU):
// the pass's code is U (2k + 1) limb products, not all k rows. 2 k^2 + k
// limb products a product, squarings included (820 at k = 20).
//
// Lazy reduction: with a, b < 2m and 4m < R the result (ab + qm) / R is below
// 2m again, so the loop keeps values in [0, 2m) and only the last step
// subtracts m. m < 2^1024 gives 4m < 2^1026 < R.
//
// powm: x R mod m by one schoolbook division (x b^k against m, Knuth's
// Algorithm D, kernels/thread/divmod_knuth.cuh: once per instance, any x),
// the table T[d] = x^d R mod m (d < 2^w) in local memory, then w squarings
// and one product by T[digit] per window (none for a zero digit), and a
// last product by 1 out of Montgomery form. The squarings either as
// products (mont_mul: small code, 820 limb products) or by the square's
// half of the pairs and a separate reduction (mont_sqr: 650).
#pragma once
#include <cstdint>

#include "kernels/modular/barrett_dfma.cuh"  // dfma::dfma_split, to_double, the limb layout
#include "kernels/thread/divmod_knuth.cuh"

namespace bigtune::kernels::modular {

namespace dmont {
using dfma::kK;
using dfma::kMask52;
using dfma::kWords;

// m' = -m^-1 mod 2^52 for an odd 52-bit limb m0: Newton's iteration
// x <- x (2 - m0 x) doubles the correct low bits, from 3 (m0 m0 = 1 mod 8).
BIGTUNE_HD inline uint64_t neg_inverse52(uint64_t m0) {
  uint64_t inv = m0;
  for (int i = 0; i < 5; ++i) inv *= 2 - m0 * inv;  // 3, 6, 12, 24, 48, 96 bits
  return (0 - inv) & kMask52;
}

// The per-instance modulus: m's limbs as doubles and m' as a double.
struct Modulus {
  double m[kK];
  double mp;
};

// r = a b / R mod m, r < 2m, for a, b < 2m. a's limbs are the bit patterns
// of doubles in slots[i * stride]; b and r are limbs in doubles (r may alias
// b). U limbs of a a pass (U divides k).
template <int U>
BIGTUNE_HD inline void mont_mul(double* r, const uint64_t* slots, int stride, const double* b, const Modulus& mod) {
  using namespace dfma;
  static_assert(kK % U == 0, "whole passes");
  constexpr int W = kK + 1;  // columns i .. i + k
  uint64_t acc[W];
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < W; ++j) acc[j] = 0;
  BIGTUNE_MOD_NO_UNROLL
  for (int i0 = 0; i0 < kK; i0 += U) {
    double ai[U];
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) ai[u] = bits_to_double(slots[(i0 + u) * stride]);
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) {
      BIGTUNE_MOD_UNROLL_ALL
      for (int j = 0; j < kK; ++j) {
        uint64_t hi, lo;
        dfma_split(ai[u], b[j], hi, lo);
        acc[j] += lo - kLoBits;
        acc[j + 1] += hi - kHiBits;
      }
      // q = t_0 m' mod b: the low half of that limb product, whose bit
      // pattern is 2^52 + q already.
      uint64_t qhi, qlo;
      dfma_split(to_double(acc[0] & kMask52), mod.mp, qhi, qlo);
      const double q = bits_to_double(qlo) - 0x1p52;
      BIGTUNE_MOD_UNROLL_ALL
      for (int j = 0; j < kK; ++j) {
        uint64_t hi, lo;
        dfma_split(q, mod.m[j], hi, lo);
        acc[j] += lo - kLoBits;
        acc[j + 1] += hi - kHiBits;
      }
      // Column i is 0 mod b now: its carry moves up with the window.
      const uint64_t carry = acc[0] >> 52;
      BIGTUNE_MOD_UNROLL_ALL
      for (int j = 0; j + 1 < W; ++j) acc[j] = acc[j + 1];
      acc[W - 1] = 0;
      acc[0] += carry;
    }
  }
  // acc[0 .. k] = (ab + qm) / R < 2m < b^k: k normalised limbs.
  uint64_t carry = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) {
    const uint64_t v = acc[j] + carry;
    r[j] = to_double(v & kMask52);
    carry = v >> 52;
  }
}

// r = a^2 / R mod m, r < 2m, for a < 2m (limbs in doubles; r may alias a):
// the square's pairs i < j once (dfma::square_limbs: k (k + 1) / 2 limb
// products, straight-line), then the reduction alone, its loop over the
// quotient digits rolled U a pass: k (k + 1) limb products, 650 in all at
// k = 20 against mont_mul's 820. The square's limbs k + 1 .. 2k - 1 wait in
// slots[j * stride] and join the window as it reaches them.
template <int U>
BIGTUNE_HD inline void mont_sqr(double* r, const double* a, uint64_t* slots, int stride, const Modulus& mod) {
  using namespace dfma;
  static_assert(kK % U == 0, "whole passes");
  constexpr int W = kK + 1;  // columns i .. i + k
  uint64_t acc[W];
  {
    uint64_t x[2 * kK];
    square_limbs<kK>(x, a);
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < W; ++j) acc[j] = x[j];
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j + W < 2 * kK; ++j) slots[j * stride] = x[W + j];
  }
  BIGTUNE_MOD_NO_UNROLL
  for (int i0 = 0; i0 < kK; i0 += U) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) {
      const int i = i0 + u;
      uint64_t qhi, qlo;
      dfma_split(to_double(acc[0] & kMask52), mod.mp, qhi, qlo);
      const double q = bits_to_double(qlo) - 0x1p52;
      BIGTUNE_MOD_UNROLL_ALL
      for (int j = 0; j < kK; ++j) {
        uint64_t hi, lo;
        dfma_split(q, mod.m[j], hi, lo);
        acc[j] += lo - kLoBits;
        acc[j + 1] += hi - kHiBits;
      }
      const uint64_t carry = acc[0] >> 52;
      BIGTUNE_MOD_UNROLL_ALL
      for (int j = 0; j + 1 < W; ++j) acc[j] = acc[j + 1];
      acc[W - 1] = i + W < 2 * kK ? slots[i * stride] : 0;  // the square's limb i + k + 1
      acc[0] += carry;
    }
  }
  uint64_t carry = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) {
    const uint64_t v = acc[j] + carry;
    r[j] = to_double(v & kMask52);
    carry = v >> 52;
  }
}

// A double holding an integer below 2^52, as that integer.
BIGTUNE_HD inline uint64_t to_integer(double d) {
#if defined(__CUDA_ARCH__)
  return dfma::double_to_bits(d + 0x1p52) & kMask52;
#else
  return uint64_t(d);
#endif
}

// v mod m (v < 2m, both k limbs in doubles) as 16 words.
BIGTUNE_HD inline void final_words(uint64_t* w, const double* v, const Modulus& mod) {
  uint64_t t[kK], d[kK], borrow = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) {
    t[j] = to_integer(v[j]);
    const uint64_t x = t[j] - to_integer(mod.m[j]) - borrow;
    d[j] = x & kMask52;
    borrow = x >> 63;
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) t[j] = borrow ? t[j] : d[j];
  dfma::limbs_to_words(w, t);
}

// 32-bit limbs of the region divmod_knuth works in: x b^k (x < 2^1024:
// 65 limbs), a free limb, then m's 32 limbs.
constexpr uint32_t kDivLimbs = 65;
constexpr uint32_t kRegionLimbs = 2 * kDivLimbs + 1;

// x R mod m (x < 2^1024 in 16 words, m odd below 2^1024 in 16 words) as
// limbs; region: kRegionLimbs of scratch (local memory on the GPU).
BIGTUNE_HD inline void to_montgomery(double* xr, const uint64_t* x, const uint64_t* m, uint32_t* region) {
  // x << 1040: 32 limbs and 16 bits.
  for (uint32_t j = 0; j < kRegionLimbs; ++j) region[j] = 0;
  for (int i = 0; i < kWords; ++i) {
    const uint64_t lo = x[i] << 16, hi = x[i] >> 48;
    region[32 + 2 * i] |= uint32_t(lo);
    region[33 + 2 * i] |= uint32_t(lo >> 32);
    region[34 + 2 * i] |= uint32_t(hi);
  }
  uint32_t* v = region + kDivLimbs + 1;
  for (int i = 0; i < kWords; ++i) v[2 * i] = uint32_t(m[i]), v[2 * i + 1] = uint32_t(m[i] >> 32);
  thread::divmod_knuth(region, kDivLimbs, 32);
  uint64_t w[kWords];
  for (int i = 0; i < kWords; ++i) w[i] = (uint64_t(v[2 * i + 1]) << 32) | v[2 * i];
  dfma::words_to_limbs(xr, w);
}

// The window's digit of e (e_words words) at bit position `pos`.
BIGTUNE_HD inline uint32_t digit_at(const uint64_t* e, uint32_t e_words, uint64_t pos, int w) {
  const uint64_t word = pos / 64, off = pos % 64;
  uint64_t v = word < e_words ? e[word] >> off : 0;
  if (off + w > 64 && word + 1 < e_words) v |= e[word + 1] << (64 - off);
  return uint32_t(v & ((uint64_t(1) << w) - 1));
}

// r = x^e mod m (16 words each; m odd, m < 2^1024; x any value below
// 2^1024); kSquare: the squarings by mont_sqr, else by mont_mul. slots: k slots at stride (shared memory on the GPU); table:
// 2^W k doubles; region: kRegionLimbs 32-bit limbs (both local memory).
template <int W, int U, bool kSquare>
BIGTUNE_HD inline void powm(uint64_t* r, const uint64_t* x, const uint64_t* e, uint32_t e_words, const uint64_t* m,
                            uint64_t* slots, int stride, double* table, uint32_t* region) {
  Modulus mod;
  dfma::words_to_limbs(mod.m, m);
  mod.mp = double(neg_inverse52(m[0] & kMask52));
  // The exponent's length in whole windows.
  int64_t top = int64_t(e_words) * 64 - 1;
  while (top >= 0 && ((e[top / 64] >> (top % 64)) & 1) == 0) --top;
  if (top < 0) {  // e = 0: 1 mod m
    for (int i = 0; i < kWords; ++i) r[i] = 0;
    bool m_is_one = m[0] == 1;
    for (int i = 1; i < kWords; ++i) m_is_one = m_is_one && m[i] == 0;
    r[0] = m_is_one ? 0 : 1;
    return;
  }
  double acc[kK];
  to_montgomery(acc, x, m, region);
  // T[1] = x R, T[d] = T[d - 1] x (Montgomery products keep the factor R).
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) table[kK + j] = acc[j], slots[j * stride] = dfma::double_to_bits(acc[j]);
  for (int d = 2; d < (1 << W); ++d) {
    double t[kK];
    mont_mul<U>(t, slots, stride, table + (d - 1) * kK, mod);
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < kK; ++j) table[d * kK + j] = t[j];
  }
  const uint64_t windows = uint64_t(top) / W + 1;
  uint64_t pos = (windows - 1) * W;
  const uint32_t first = digit_at(e, e_words, pos, W);  // nonzero: it holds e's top bit
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) acc[j] = table[first * kK + j];
  while (pos > 0) {
    pos -= W;
    for (int s = 0; s < W; ++s) {
      if constexpr (kSquare) {
        mont_sqr<U>(acc, acc, slots, stride, mod);
      } else {
        BIGTUNE_MOD_UNROLL_ALL
        for (int j = 0; j < kK; ++j) slots[j * stride] = dfma::double_to_bits(acc[j]);
        mont_mul<U>(acc, slots, stride, acc, mod);
      }
    }
    const uint32_t d = digit_at(e, e_words, pos, W);
    if (d) {
      double t[kK];
      BIGTUNE_MOD_UNROLL_ALL
      for (int j = 0; j < kK; ++j) t[j] = table[d * kK + j], slots[j * stride] = dfma::double_to_bits(acc[j]);
      mont_mul<U>(acc, slots, stride, t, mod);
    }
  }
  // Out of Montgomery form: acc 1 / R.
  double one[kK];
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) one[j] = j == 0 ? 1.0 : 0.0, slots[j * stride] = dfma::double_to_bits(acc[j]);
  mont_mul<U>(acc, slots, stride, one, mod);
  final_words(r, acc, mod);
}

}  // namespace dmont
}  // namespace bigtune::kernels::modular
