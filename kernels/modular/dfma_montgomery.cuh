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
//
// 2048 bits (k = 40): CIOS would hold b and m (80 registers each) and the
// window (82) at once, so the products run in two passes (SOS, the same
// paper): t = a b rolled as the Barrett product (barrett_dfma.cuh,
// product_limbs_rolled), t's limbs in 2k shared-memory slots, then the
// reduction with m's limbs loaded for it alone from local memory (redc).
// Squarings the same way, or by the square's pairs written to the slots
// column by column (square_to_slots).
#pragma once
#include <cstdint>

#include "kernels/modular/barrett_dfma.cuh"  // dfma::dfma_split, to_double, the limb layout
#include "kernels/thread/divmod_knuth.cuh"

namespace bigtune::kernels::modular {

namespace dmont {
using dfma::kMask52;

// Limbs of 52 bits for NW-word operands with 4m < R = b^k: k = ceil((64 NW + 2) / 52).
template <int NW>
constexpr int limbs_for_words() {
  return (64 * NW + 2 + 51) / 52;
}

// m' = -m^-1 mod 2^52 for an odd 52-bit limb m0: Newton's iteration
// x <- x (2 - m0 x) doubles the correct low bits, from 3 (m0 m0 = 1 mod 8).
BIGTUNE_HD inline uint64_t neg_inverse52(uint64_t m0) {
  uint64_t inv = m0;
  for (int i = 0; i < 5; ++i) inv *= 2 - m0 * inv;  // 3, 6, 12, 24, 48, 96 bits
  return (0 - inv) & kMask52;
}

// The per-instance modulus: m's limbs as doubles and m' as a double.
template <int K>
struct Modulus {
  double m[K];
  double mp;
};

// One reduction step on the window acc[0 .. k] of column sums: q = t_0 m' mod
// b (the low half of that limb product, whose bit pattern is 2^52 + q
// already), acc += q m; the lowest column is then 0 mod b and slides out, its
// carry into the next, and `next` enters at the top.
template <int kK>
BIGTUNE_HD inline void reduce_step(uint64_t* acc, const double* m, double mp, uint64_t next) {
  using namespace dfma;
  uint64_t qhi, qlo;
  dfma_split(to_double(acc[0] & kMask52), mp, qhi, qlo);
  const double q = bits_to_double(qlo) - 0x1p52;
  add_row<kK>(acc, q, m);
  const uint64_t carry = acc[0] >> 52;
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) acc[j] = acc[j + 1];
  acc[kK] = next;
  acc[0] += carry;
}

// The window after the last step (a value below 2m < b^k) as k normalised
// limbs in doubles.
template <int kK>
BIGTUNE_HD inline void window_to_limbs(double* r, const uint64_t* acc) {
  uint64_t carry = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) {
    const uint64_t v = acc[j] + carry;
    r[j] = dfma::to_double(v & kMask52);
    carry = v >> 52;
  }
}

// r = a b / R mod m, r < 2m, for a, b < 2m. a's limbs are the bit patterns
// of doubles in slots[i * stride]; b and r are limbs in doubles (r may alias
// b). U limbs of a a pass (U divides k).
template <int U, int kK>
BIGTUNE_HD inline void mont_mul(double* r, const uint64_t* slots, int stride, const double* b,
                                const Modulus<kK>& mod) {
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
      add_row<kK>(acc, ai[u], b);
      reduce_step<kK>(acc, mod.m, mod.mp, 0);
    }
  }
  window_to_limbs<kK>(r, acc);  // (ab + qm) / R < 2m < b^k
}

// r = a^2 / R mod m, r < 2m, for a < 2m (limbs in doubles; r may alias a):
// the square's pairs i < j once (dfma::square_limbs: k (k + 1) / 2 limb
// products, straight-line), then the reduction alone, its loop over the
// quotient digits rolled U a pass: k (k + 1) limb products, 650 in all at
// k = 20 against mont_mul's 820. The square's limbs k + 1 .. 2k - 1 wait in
// slots[j * stride] and join the window as it reaches them.
template <int U, int kK>
BIGTUNE_HD inline void mont_sqr(double* r, const double* a, uint64_t* slots, int stride, const Modulus<kK>& mod) {
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
      reduce_step<kK>(acc, mod.m, mod.mp, i + W < 2 * kK ? slots[i * stride] : 0);  // the square's limb i + k + 1
    }
  }
  window_to_limbs<kK>(r, acc);
}

// A double holding an integer below 2^52, as that integer.
BIGTUNE_HD inline uint64_t to_integer(double d) {
#if defined(__CUDA_ARCH__)
  return dfma::double_to_bits(d + 0x1p52) & kMask52;
#else
  return uint64_t(d);
#endif
}

// v mod m (v < 2m, both k limbs in doubles) as NW words.
template <int kK, int NW>
BIGTUNE_HD inline void final_words(uint64_t* w, const double* v, const double* m) {
  uint64_t t[kK], d[kK], borrow = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) {
    t[j] = to_integer(v[j]);
    const uint64_t x = t[j] - to_integer(m[j]) - borrow;
    d[j] = x & kMask52;
    borrow = x >> 63;
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) t[j] = borrow ? t[j] : d[j];
  dfma::limbs_to_words<kK, NW>(w, t);
}

// 32-bit limbs of the region divmod_knuth works in: x b^k (x of NW words),
// a free limb, then m's 2 NW limbs.
template <int K, int NW>
constexpr uint32_t div_limbs() {
  return 2 * NW + 52 * K / 32 + 1;
}
template <int K, int NW>
constexpr uint32_t region_limbs() {
  return 2 * div_limbs<K, NW>() + 1;
}

// x R mod m (x below 2^(64 NW), m odd below it, NW words each) as limbs;
// region: region_limbs() of scratch (local memory on the GPU).
template <int K, int NW>
BIGTUNE_HD inline void to_montgomery(double* xr, const uint64_t* x, const uint64_t* m, uint32_t* region) {
  constexpr uint32_t n = div_limbs<K, NW>(), ws = 52 * K / 32, bs = 52 * K % 32;
  for (uint32_t j = 0; j < 2 * n + 1; ++j) region[j] = 0;
  for (uint32_t t = 0; t < 2 * NW; ++t) {  // x << 52k: ws limbs and bs bits
    const uint32_t v = uint32_t(x[t / 2] >> (32 * (t % 2)));
    region[t + ws] |= v << bs;
    if constexpr (bs != 0) region[t + ws + 1] |= v >> (32 - bs);
  }
  uint32_t* v = region + n + 1;
  for (int i = 0; i < NW; ++i) v[2 * i] = uint32_t(m[i]), v[2 * i + 1] = uint32_t(m[i] >> 32);
  thread::divmod_knuth(region, n, 2 * NW);
  uint64_t w[NW];
  for (int i = 0; i < NW; ++i) w[i] = (uint64_t(v[2 * i + 1]) << 32) | v[2 * i];
  dfma::words_to_limbs<K, NW>(xr, w);
}

// The window's digit of e (e_words words) at bit position `pos`.
BIGTUNE_HD inline uint32_t digit_at(const uint64_t* e, uint32_t e_words, uint64_t pos, int w) {
  const uint64_t word = pos / 64, off = pos % 64;
  uint64_t v = word < e_words ? e[word] >> off : 0;
  if (off + w > 64 && word + 1 < e_words) v |= e[word + 1] << (64 - off);
  return uint32_t(v & ((uint64_t(1) << w) - 1));
}

// Accesses through the returned pointer stay memory accesses: the compiler
// cannot see which array it points to, so it neither keeps that array in
// registers nor hoists its loads out of the powm loop.
template <class T>
BIGTUNE_HD inline T* opaque(T* p) {
#if defined(__CUDA_ARCH__)
  asm("" : "+l"(p));
#endif
  return p;
}

// SOS's reduction: r = t / R mod m, r < 2m, for t < 4m^2 in slots[j * stride]
// (2k normalised limbs). The window starts with t's limbs 0 .. k and limb
// i + k + 1 joins at step i; m's limbs are loaded from m_mem for this pass.
template <int U, int kK>
BIGTUNE_HD inline void redc(double* r, const uint64_t* slots, int stride, const double* m_mem, double mp) {
  using namespace dfma;
  static_assert(kK % U == 0, "whole passes");
  constexpr int W = kK + 1;
  double m[kK];
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) m[j] = m_mem[j];
  uint64_t acc[W];
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < W; ++j) acc[j] = slots[j * stride];
  BIGTUNE_MOD_NO_UNROLL
  for (int i0 = 0; i0 < kK; i0 += U) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) {
      const int i = i0 + u;
      reduce_step<kK>(acc, m, mp, i + W < 2 * kK ? slots[(i + W) * stride] : 0);
    }
  }
  window_to_limbs<kK>(r, acc);
}

// SOS product: r = a b / R mod m with a's limbs (double bit patterns) in
// slots[0 .. k), b in registers; the slots hold t = a b (2k limbs) after the
// first pass.
template <int U, int kK>
BIGTUNE_HD inline void mont_mul_sos(double* r, uint64_t* slots, int stride, const double* b, const double* m_mem,
                                    double mp) {
  {
    uint64_t thi[kK];
    product_limbs_rolled<U, kK>(slots, thi, b, stride);
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < kK; ++j) slots[(kK + j) * stride] = thi[j];
  }
  redc<U, kK>(r, slots, stride, m_mem, mp);
}

// a^2 (k limbs in doubles) into slots[s * stride], s < 2k (dfma::square_columns).
template <int kK>
BIGTUNE_HD inline void square_to_slots(uint64_t* slots, int stride, const double* a) {
  dfma::square_columns<kK>(a, [&](int s, uint64_t limb) { slots[s * stride] = limb; });
}

// r = a b mod m (NW words each; m odd, a and b any values below 2^(64 NW)),
// for a modulus per instance: a R mod m by the division, then one Montgomery
// product with b (a R b / R = a b; below 2m since b < R), then the final
// subtraction. No R^2 mod m, no per-modulus table. slots: k slots at stride;
// region: region_limbs() 32-bit limbs.
template <int NW, int U>
BIGTUNE_HD inline void mulmod(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* m, uint64_t* slots,
                              int stride, uint32_t* region) {
  constexpr int kK = limbs_for_words<NW>();
  Modulus<kK> mod;
  dfma::words_to_limbs<kK, NW>(mod.m, m);
  mod.mp = double(neg_inverse52(m[0] & kMask52));
  double t[kK];
  to_montgomery<kK, NW>(t, a, m, region);
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) slots[j * stride] = dfma::double_to_bits(t[j]);
  dfma::words_to_limbs<kK, NW>(t, b);
  mont_mul<U>(t, slots, stride, t, mod);
  final_words<kK, NW>(r, t, mod.m);
}

// How powm forms its products: CIOS (mont_mul, m in registers; k = 20) or
// SOS (mont_mul_sos, m from memory; k = 40), squarings as products or by
// the square's half of the pairs (mont_sqr / square_to_slots + redc).
enum class Form { kCios, kCiosSquare, kSos, kSosSquare };

// Slots a thread needs for the form: the slot operand (k) or t (2k).
template <int kK, Form F>
constexpr int slots_for() {
  return F == Form::kSos || F == Form::kSosSquare ? 2 * kK : kK;
}

// r = x^e mod m (NW words each; m odd below 2^(64 NW), x any value below it).
// slots: slots_for() slots at stride (shared memory on the GPU); table:
// 2^W k doubles; region: region_limbs() 32-bit limbs; m_mem: k doubles (all
// three local memory).
template <int NW, int W, int U, Form F>
BIGTUNE_HD inline void powm(uint64_t* r, const uint64_t* x, const uint64_t* e, uint32_t e_words, const uint64_t* m,
                            uint64_t* slots, int stride, double* table, uint32_t* region, double* m_mem) {
  constexpr int kK = limbs_for_words<NW>();
  constexpr bool kSos = F == Form::kSos || F == Form::kSosSquare;
  Modulus<kK> mod;
  double* mlimbs = m_mem;
  if constexpr (kSos) {
    mlimbs = opaque(m_mem);
    dfma::words_to_limbs<kK, NW>(mlimbs, m);
  } else {
    dfma::words_to_limbs<kK, NW>(mod.m, m);
  }
  mod.mp = double(neg_inverse52(m[0] & kMask52));
  // acc = (a in the slots) b / R
  const auto mul = [&](double* out, const double* b) {
    if constexpr (kSos) mont_mul_sos<U, kK>(out, slots, stride, b, mlimbs, mod.mp);
    else mont_mul<U>(out, slots, stride, b, mod);
  };
  const auto to_slots = [&](const double* v) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int j = 0; j < kK; ++j) slots[j * stride] = dfma::double_to_bits(v[j]);
  };
  // The exponent's length in whole windows.
  int64_t top = int64_t(e_words) * 64 - 1;
  while (top >= 0 && ((e[top / 64] >> (top % 64)) & 1) == 0) --top;
  if (top < 0) {  // e = 0: 1 mod m
    for (int i = 0; i < NW; ++i) r[i] = 0;
    bool m_is_one = m[0] == 1;
    for (int i = 1; i < NW; ++i) m_is_one = m_is_one && m[i] == 0;
    r[0] = m_is_one ? 0 : 1;
    return;
  }
  double acc[kK];
  to_montgomery<kK, NW>(acc, x, m, region);
  // T[1] = x R, T[d] = T[d - 1] x (Montgomery products keep the factor R).
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) table[kK + j] = acc[j];
  if constexpr (!kSos) to_slots(acc);  // x R: CIOS leaves the slots as they are
  for (int d = 2; d < (1 << W); ++d) {
    double t[kK];
    if constexpr (kSos) to_slots(acc);  // SOS overwrites them with t
    mul(t, table + (d - 1) * kK);
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
      if constexpr (F == Form::kCiosSquare) {
        mont_sqr<U>(acc, acc, slots, stride, mod);
      } else if constexpr (F == Form::kSosSquare) {
        square_to_slots<kK>(slots, stride, acc);
        redc<U, kK>(acc, slots, stride, mlimbs, mod.mp);
      } else {
        to_slots(acc);
        mul(acc, acc);
      }
    }
    const uint32_t d = digit_at(e, e_words, pos, W);
    if (d) {
      double t[kK];
      BIGTUNE_MOD_UNROLL_ALL
      for (int j = 0; j < kK; ++j) t[j] = table[d * kK + j];
      to_slots(acc);
      mul(acc, t);
    }
  }
  // Out of Montgomery form: acc 1 / R.
  double one[kK];
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < kK; ++j) one[j] = j == 0 ? 1.0 : 0.0;
  to_slots(acc);
  mul(acc, one);
  if constexpr (kSos) {
    final_words<kK, NW>(r, acc, mlimbs);
  } else {
    final_words<kK, NW>(r, acc, mod.m);
  }
}

}  // namespace dmont
}  // namespace bigtune::kernels::modular
