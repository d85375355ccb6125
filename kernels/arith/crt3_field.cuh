// Three 31-bit NTT primes as one "field" for bigtune's NTT product
// (kernels/block/ntt.cuh): an element is a residue triple, every operation is
// done per prime in Montgomery form on the 32-bit IMAD path, and a product
// coefficient is recovered from its three residues by Garner's CRT.
//
// Why (issue 3, seed 000 §4, bench/notes/ntt.md "next steps" 2): the H100
// multiplies 32-bit operands natively while a Goldilocks 64x64->128 product
// takes about 11 IMAD-pipe instructions plus ~10 for the reduction. Three
// 31-bit primes hold 32-bit digits exactly (P = p0·p1·p2 ~ 2^92.6, and a
// coefficient of a product of n-digit operands is below n·2^64 <= 2^80 for
// n <= 2^16 digits, the 2^21-bit limit), so the transform is half as long as
// Goldilocks' 16-bit-digit one and a butterfly is three independent ~13-
// instruction chains (mul ~7, add 3, sub 3) instead of one ~40-instruction
// chain: ~0.45x the instructions per product, and three times the ILP.
//
// Primes (all in (2^30, 2^31), so a Montgomery product of canonical values is
// below 2p and one conditional subtraction makes it canonical; t + m·p < 2^64):
//   p0 = 15·2^27 + 1 = 2013265921, p1 = 27·2^26 + 1 = 1811939329,
//   p2 = 63·2^25 + 1 = 2113929217; roots of unity of order up to 2^25.
// Every Elem component is the Montgomery form x·2^32 mod p_i, canonical (< p_i).
// Host and device share this code: the CPU unit tests run the same math.
#pragma once
#include <cstdint>

#include "kernels/arith/goldilocks.cuh"  // BIGTUNE_FIELD_HD

namespace bigtune::kernels::arith {

// kWords = 4: 16 bytes, the fourth word unused: one LDS.128/STS.128/LDG.128
// per element instead of three 32-bit accesses (ncu, 2026-11-22, the 12-byte
// element: L1/TEX 70 % busy at 30 % issue); shared-memory banks stay
// conflict-free with ntt_phys's padding (a quarter-warp's 8 elements are 36
// words apart). kWords = 3: 12 bytes, packed (three 32-bit accesses, 3/4 of
// the shared memory). Both are variants (ntt_crt_instances.cu): "crt3" (16 B)
// and "crt3p" (12 B).
template <int kWords>
struct Crt3Elem;
template <>
struct Crt3Elem<3> {
  uint32_t v[3];
};
template <>
struct alignas(16) Crt3Elem<4> {
  uint32_t v[3];
  uint32_t pad;
};

template <int kWords>
struct Crt3Field {
  using Elem = Crt3Elem<kWords>;
  static constexpr int kPrimes = 3;
  static constexpr int kMaxLog = 25;     // 2-power roots of unity in all three fields
  static constexpr int kDigitBits = 32;  // exact: n·(2^32-1)^2 < P for n < 2^28 digits

  BIGTUNE_FIELD_HD static constexpr uint32_t prime(int i) {
    return i == 0 ? 2013265921u : i == 1 ? 1811939329u : 2113929217u;
  }
  // -p^-1 mod 2^32 (Montgomery), 2^32 mod p (one), 2^64 mod p (into Montgomery
  // form), a quadratic non-residue (its (p-1)/2^k-th power has order 2^k).
  BIGTUNE_FIELD_HD static constexpr uint32_t neg_inv(int i) {
    return i == 0 ? 2013265919u : i == 1 ? 1811939327u : 2113929215u;
  }
  BIGTUNE_FIELD_HD static constexpr uint32_t r1(int i) { return i == 0 ? 268435454u : i == 1 ? 671088638u : 67108862u; }
  BIGTUNE_FIELD_HD static constexpr uint32_t r2(int i) {
    return i == 0 ? 1172168163u : i == 1 ? 959408210u : 2111798781u;
  }
  BIGTUNE_FIELD_HD static constexpr uint32_t nonresidue(int i) { return i == 2 ? 5u : 11u; }

  // a·b·2^-32 mod p for a < 2^32, b < p: t + m·p < 2^63 + 2^63, and the
  // quotient is below 2^31 + p < 3p, canonical after at most two subtractions
  // (one when a < p: then it is below 2p).
  template <bool kWideA = false>
  BIGTUNE_FIELD_HD static uint32_t mont(uint32_t a, uint32_t b, int i) {
    const uint32_t p = prime(i);
    const uint64_t t = uint64_t(a) * b;
    const uint32_t m = uint32_t(t) * neg_inv(i);
    uint32_t u = uint32_t((t + uint64_t(m) * p) >> 32);
    u = umin(u, u - p);
    if (kWideA) u = umin(u, u - p);
    return u;
  }
  // The conditional corrections as an unsigned minimum (one IADD and one
  // VIMNMX instead of compare + select): for s < 2p, s - p wraps above s
  // exactly when s < p.
  BIGTUNE_FIELD_HD static uint32_t umin(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    return ::min(a, b);
#else
    return a < b ? a : b;
#endif
  }
  BIGTUNE_FIELD_HD static uint32_t sadd(uint32_t a, uint32_t b, int i) {
    const uint32_t s = a + b;  // < 2p < 2^32
    return umin(s, s - prime(i));
  }
  // a - b, or a - b + p where it wrapped (then d + p < d, and d + p is right).
  BIGTUNE_FIELD_HD static uint32_t ssub(uint32_t a, uint32_t b, int i) {
    const uint32_t d = a - b;
    return umin(d, d + prime(i));
  }
  // Multipliers by a constant as Shoup pairs (V. Shoup's NTL MulModPrecon;
  // D. Harvey, "Faster arithmetic for number-theoretic transforms", J. Symb.
  // Comp. 60, 2014, §2): per prime the plain value w (not in Montgomery form)
  // and w' = floor(w·2^32 / p). For any x < 2^32, q = floor(x·w' / 2^32)
  // satisfies x·w/p - 2 < q <= x·w/p, so x·w - q·p lies in [0, 2p) and is
  // exact in 32 bits (p < 2^31); one conditional subtraction makes it
  // canonical. x in Montgomery form (x·2^32) times the plain w is (x·w)·2^32:
  // the product stays in Montgomery form; a raw digit d times the pair of a
  // Montgomery-form c is d·c in Montgomery form (from_digit, from_digit_scaled).
  // Against mont(): no 64-bit product (IMAD.HI and two IMAD instead of IMAD,
  // IMAD.HI, IMAD and IMAD.WIDE) and a dependent chain of two multiplications
  // instead of three; x need not be canonical, so the forward butterfly's
  // difference u - v skips its correction (sub_mul_twiddle: u + p - v < 2p).
  // The butterflies' twiddles (ntt.cuh, the stage tables) take twice the table
  // bytes; the twists' tables stay single elements (pairs there, session 17
  // run B: 0.97x at 32 Kbit, more spills).
  struct Twiddle {
    Elem w;   // plain residues
    Elem ws;  // floor(w·2^32 / p_i)
  };
  static constexpr int kTwiddleElems = 2;
  BIGTUNE_FIELD_HD static constexpr uint32_t shoup_of(uint32_t w, int i) {
    return uint32_t((uint64_t(w) << 32) / prime(i));
  }
  // Part 0 or 1 of the Twiddle (the multiplier of Montgomery-form elements)
  // for the Montgomery-form element w_mont.
  BIGTUNE_FIELD_HD static Elem twiddle_part(const Elem& w_mont, int part) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) {
      const uint32_t w = mont(w_mont.v[i], 1, i);
      r.v[i] = part == 0 ? w : shoup_of(w, i);
    }
    return r;
  }
  BIGTUNE_FIELD_HD static Twiddle load_twiddle(const Twiddle* p) { return Twiddle{load(&p->w), load(&p->ws)}; }
  BIGTUNE_FIELD_HD static uint32_t shoup(uint32_t x, uint32_t w, uint32_t ws, int i) {
#if defined(__CUDA_ARCH__)
    const uint32_t q = __umulhi(x, ws);
#else
    const uint32_t q = uint32_t((uint64_t(x) * ws) >> 32);
#endif
    const uint32_t r = x * w - q * prime(i);  // in [0, 2p): exact modulo 2^32
    return umin(r, r - prime(i));
  }
  BIGTUNE_FIELD_HD static Elem mul_twiddle(const Elem& x, const Twiddle& t) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = shoup(x.v[i], t.w.v[i], t.ws.v[i], i);
    return r;
  }
  // (u - v)·w for canonical u, v.
  BIGTUNE_FIELD_HD static Elem sub_mul_twiddle(const Elem& u, const Elem& v, const Twiddle& t) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = shoup(u.v[i] + prime(i) - v.v[i], t.w.v[i], t.ws.v[i], i);
    return r;
  }

  BIGTUNE_FIELD_HD static uint32_t spow(uint32_t base, uint64_t e, int i) {
    uint32_t r = r1(i);
    while (e) {
      if (e & 1) r = mont(r, base, i);
      base = mont(base, base, i);
      e >>= 1;
    }
    return r;
  }

  BIGTUNE_FIELD_HD static Elem add(const Elem& a, const Elem& b) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = sadd(a.v[i], b.v[i], i);
    return r;
  }
  BIGTUNE_FIELD_HD static Elem sub(const Elem& a, const Elem& b) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = ssub(a.v[i], b.v[i], i);
    return r;
  }
  BIGTUNE_FIELD_HD static Elem neg(const Elem& a) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = a.v[i] == 0 ? 0 : prime(i) - a.v[i];
    return r;
  }
  BIGTUNE_FIELD_HD static Elem mul(const Elem& a, const Elem& b) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = mont(a.v[i], b.v[i], i);
    return r;
  }
  BIGTUNE_FIELD_HD static Elem one() {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = r1(i);
    return r;
  }
  BIGTUNE_FIELD_HD static Elem pow(Elem base, uint64_t e) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = spow(base.v[i], e, i);
    return r;
  }
  // A digit d < 2^32 into Montgomery form, d·2^32 (mod p_i): the Shoup
  // product by the constant 2^32 mod p_i (no 64-bit product; mont(d, 2^64 mod
  // p) took one and two corrections).
  BIGTUNE_FIELD_HD static Elem from_digit(uint64_t d) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = shoup(uint32_t(d), r1(i), shoup_of(r1(i), i), i);
    return r;
  }
  // d·s in Montgomery form, s a constant (the inverse transform's N^-1 folded
  // into the second operand's digits, ntt.cuh): from_digit_scaled(d,
  // digit_scale(s)), the Shoup product of d by s's Montgomery form s·2^32.
  BIGTUNE_FIELD_HD static Twiddle digit_scale(const Elem& s) {
    Twiddle c{};
#pragma unroll
    for (int i = 0; i < 3; ++i) c.w.v[i] = s.v[i], c.ws.v[i] = shoup_of(s.v[i], i);
    return c;
  }
  BIGTUNE_FIELD_HD static Elem from_digit_scaled(uint64_t d, const Twiddle& c) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = shoup(uint32_t(d), c.w.v[i], c.ws.v[i], i);
    return r;
  }
  // A primitive 2^log_n-th root of unity (each component of order 2^log_n)
  // and the inverse of 2^log_n: 2^k·(p-1)/2^k ≡ -1, so 2^-k = p - (p-1)/2^k.
  BIGTUNE_FIELD_HD static Elem root_of_unity(int log_n) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i)
      r.v[i] = spow(mont<true>(nonresidue(i), r2(i), i), (prime(i) - 1) >> log_n, i);
    return r;
  }
  BIGTUNE_FIELD_HD static Elem inverse_pow2(int log_n) {
    Elem r{};
#pragma unroll
    for (int i = 0; i < 3; ++i) r.v[i] = mont(prime(i) - ((prime(i) - 1) >> log_n), r2(i), i);
    return r;
  }

  BIGTUNE_FIELD_HD static Elem load(const Elem* p) {
#if defined(__CUDA_ARCH__)
    Elem r{};
    if constexpr (kWords == 4) {
      const uint4 q = __ldg(reinterpret_cast<const uint4*>(p));
      r.v[0] = q.x, r.v[1] = q.y, r.v[2] = q.z;
    } else {
#pragma unroll
      for (int i = 0; i < 3; ++i) r.v[i] = __ldg(&p->v[i]);
    }
    return r;
#else
    return *p;
#endif
  }

  // The integer c < P = p0·p1·p2 (< 2^93) with c ≡ the element's residues,
  // as lo + hi·2^64 (Garner: c = x0 + p0·x1 + p0·p1·x2, x_i < p_i).
  BIGTUNE_FIELD_HD static void to_integer(const Elem& e, uint64_t& lo, uint64_t& hi) {
    constexpr uint32_t kInvP0ModP1 = 1207959574u;     // p0^-1 mod p1, Montgomery form
    constexpr uint32_t kP0ModP2 = 1915798285u;        // p0 mod p2, Montgomery form
    constexpr uint32_t kInvP0P1ModP2 = 1409285846u;   // (p0·p1)^-1 mod p2, Montgomery form
    constexpr uint64_t kP0P1 = 3647915701995307009ull;
    // Out of Montgomery form: mont(x, 1) = x·2^-32.
    const uint32_t r0 = mont(e.v[0], 1, 0), r1v = mont(e.v[1], 1, 1), r2v = mont(e.v[2], 1, 2);
    const uint32_t x0 = r0;
    const uint32_t x0_p1 = x0 >= prime(1) ? x0 - prime(1) : x0;  // x0 < p0 < 2·p1
    const uint32_t x1 = mont(ssub(r1v, x0_p1, 1), kInvP0ModP1, 1);
    // x0 + p0·x1 mod p2 (x0 < p0 < p2, x1 < p1 < p2).
    const uint32_t x01_p2 = sadd(x0, mont(x1, kP0ModP2, 2), 2);
    const uint32_t x2 = mont(ssub(r2v, x01_p2, 2), kInvP0P1ModP2, 2);
    const uint64_t x01 = uint64_t(x0) + uint64_t(prime(0)) * x1;  // < p0·p1 < 2^62
#if defined(__CUDA_ARCH__)
    const uint64_t plo = kP0P1 * x2, phi = __umul64hi(kP0P1, uint64_t(x2));
#else
    const unsigned __int128 prod = static_cast<unsigned __int128>(kP0P1) * x2;
    const uint64_t plo = uint64_t(prod), phi = uint64_t(prod >> 64);
#endif
    lo = plo + x01;
    hi = phi + (lo < x01);
  }
};

using Crt3 = Crt3Field<4>;        // 16-byte elements
using Crt3Packed = Crt3Field<3>;  // 12-byte elements

}  // namespace bigtune::kernels::arith
