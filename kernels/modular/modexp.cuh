// mulmod, sqrmod and powm for any modulus, one instance per thread, N 32-bit
// limbs (R = 2^(32N)).
//
// Odd moduli: Montgomery (montgomery.cuh), conversion in and out inside the
// call. Even moduli m = 2^k mo (mo odd): the result modulo mo by Montgomery and
// modulo 2^k by truncated products (mul_low), joined by the Chinese remainder
// theorem: v = r1 + mo ((r2 - r1) mo^-1 mod 2^k), with mo^-1 mod 2^k by Newton
// (Hensel) iteration. So every modulus takes the same fast core, and even ones
// cost about twice an odd one. (The brief's alternative, Barrett reduction, is
// not implemented: it needs a reciprocal from Kernels II's division.)
//
// Semantics (host API: operands "must be below m"): any operand below 2^bits
// is accepted and reduced (montgomery.cuh explains why the conversion reduces
// it); m = 1 gives 0; x^0 mod m = 1 mod m (0 for m = 1, as GMP); m = 0 is
// outside the contract and gives 0.
//
// powm windows (the tuner's parameter, variant name ".w<k>"):
// - fixed: 2^w table entries, ceil(bits(e)/w) windows, one multiply per
//   window; w <= 4. The same instruction stream for every exponent of a given
//   length, so a warp with one exponent per instance stays converged.
// - sliding: the 2^(w-1) odd powers, windows start and end on a one bit,
//   about bits(e)/(w+1) multiplies; w <= 5. Data-dependent control flow:
//   only worth it when the exponent is shared (the warp's threads agree).
// Both take about bits(e) squarings; costs in mont_mul (2 N^2 multiply-adds).
#pragma once
#include "kernels/modular/montgomery.cuh"

namespace bigtune::kernels::modular {

constexpr int kMaxTable = 16;  // fixed w <= 4 (16 entries), sliding w <= 5 (16 odd powers)

// Bit length of an exponent of `limbs` limbs read from memory.
BIGTUNE_HD inline int exponent_bits(const u32* e, int limbs) {
  for (int j = limbs - 1; j >= 0; --j)
    if (e[j]) {
      int b = 0;
      for (u32 v = e[j]; v; v >>= 1) ++b;
      return 32 * j + b;
    }
  return 0;
}

// r = a^-1 mod R for odd a (Newton: y <- y (2 - a y) doubles the correct bits).
template <int N>
BIGTUNE_HD inline void inv_pow2(u32* r, const u32* a) {
  u32 y[N], t[N];
  set_zero<N>(y);
  y[0] = 0u - neg_inv32(a[0]);
  for (int bits = 32; bits < 32 * N; bits *= 2) {
    mul_low<N>(t, a, y);
    u32 zero[N];
    set_zero<N>(zero);
    sub_n<N>(t, zero, t);  // -a y
    u64 c = 2;             // + 2
    for (int j = 0; j < N && c; ++j) {
      const u64 s = u64(t[j]) + c;
      t[j] = u32(s);
      c = s >> 32;
    }
    mul_low<N>(y, y, t);
  }
  copy<N>(r, y);
}

// r = x^e mod 2^k (k <= 32N; 0 for k = 0), left-to-right binary.
template <int N>
BIGTUNE_HD inline void powm_pow2(u32* r, const u32* x, const u32* e, int ebits, int k) {
  u32 acc[N];
  set_zero<N>(acc);
  acc[0] = 1;
  for (int i = ebits - 1; i >= 0; --i) {
    mul_low<N>(acc, acc, acc);
    if (get_bit(e, i)) mul_low<N>(acc, acc, x);
  }
  mask_bits<N>(r, acc, k);
}

// acc = acc^2 (Montgomery form).
template <int N>
BIGTUNE_HD inline void mont_sqr_step(u32* acc, const MontModulus<N>& c) {
  u32 b[N];
  copy<N>(b, acc);
  mont_mul<N>(acc, acc, b, c.m, c.minv);
}

// r = x^e mod m for odd m > 1 (x < R, any e; `window` and `sliding` as above).
template <int N>
BIGTUNE_HD inline void powm_mont(u32* r, const u32* x, const u32* e, int ebits, const MontModulus<N>& cm,
                                 int window, bool sliding) {
  // A private copy whose m is only ever indexed at compile time: the compiler
  // keeps it in registers, where the structure it came from (indexed at run
  // time while it was set up) lives in local memory. The modulus limb is read
  // once per multiply-add of the reduction row.
  MontModulus<N> c;
  copy<N>(c.m, cm.m);
  copy<N>(c.one, cm.one);
  copy<N>(c.r2, cm.r2);
  c.minv = cm.minv;
  u32 tab[kMaxTable][N];
  u32 acc[N];
  mont_mul<N>(acc, x, c.r2, c.m, c.minv);  // x R mod m, reduced even for x >= m
  if (sliding) {
    const int entries = 1 << (window - 1);
    copy<N>(tab[0], acc);
    mont_sqr_step<N>(acc, c);  // x^2
    for (int k = 1; k < entries; ++k) mont_mul<N>(tab[k], tab[k - 1], acc, c.m, c.minv);
    bool started = false;
    int i = ebits - 1;
    while (i >= 0) {
      if (!get_bit(e, i)) {
        if (started) mont_sqr_step<N>(acc, c);
        --i;
        continue;
      }
      int j = i - window + 1 > 0 ? i - window + 1 : 0;
      while (!get_bit(e, j)) ++j;
      int val = 0;
      for (int k = i; k >= j; --k) val = 2 * val + int(get_bit(e, k));
      if (started) {
        for (int k = j; k <= i; ++k) mont_sqr_step<N>(acc, c);
        mont_mul<N>(acc, acc, tab[val >> 1], c.m, c.minv);
      } else {
        copy<N>(acc, tab[val >> 1]);
        started = true;
      }
      i = j - 1;
    }
    if (!started) copy<N>(acc, c.one);
  } else {
    const int entries = 1 << window;
    copy<N>(tab[0], c.one);
    copy<N>(tab[1], acc);
    for (int k = 2; k < entries; ++k) mont_mul<N>(tab[k], tab[k - 1], tab[1], c.m, c.minv);
    copy<N>(acc, c.one);
    const int windows = (ebits + window - 1) / window;
    for (int w = windows - 1; w >= 0; --w) {
      int d = 0;
      for (int k = window - 1; k >= 0; --k) {
        const int bit = w * window + k;
        d = 2 * d + (bit < ebits ? int(get_bit(e, bit)) : 0);
      }
      if (w == windows - 1) {
        copy<N>(acc, tab[d]);
        continue;
      }
      for (int k = 0; k < window; ++k) mont_sqr_step<N>(acc, c);
      // Also for d = 0 (tab[0] = R mod m): threads of a warp with different
      // exponents then never diverge here (measured: H100, 2026-11-22, the
      // data-dependent sliding window runs 3x slower than the fixed one with
      // one exponent per instance, bench/results/2026-11-22-h100-mod.md).
      mont_mul<N>(acc, acc, tab[d], c.m, c.minv);
    }
  }
  u32 unit[N];
  set_zero<N>(unit);
  unit[0] = 1;
  mont_mul<N>(r, acc, unit, c.m, c.minv);  // out of Montgomery form: < m
}

// A modulus m = 2^k mo (mo odd) prepared once: per instance, or once per
// batch for a shared modulus (the kernels' prep step writes it to scratch).
template <int N>
struct PreparedModulus {
  int zero;       // m = 0 (outside the contract: results 0)
  int k;          // trailing zero bits of m
  int mo_is_one;  // m = 2^k: no Montgomery part
  u32 mo[N];
  u32 mo_inv[N];  // mo^-1 mod 2^k (k > 0), for the CRT step
  MontModulus<N> c;  // for mo, when mo > 1
};

template <int N>
BIGTUNE_HD inline void prepare_modulus(PreparedModulus<N>& p, const u32* m) {
  p.zero = is_zero<N>(m);
  p.k = 0;
  p.mo_is_one = 0;
  if (p.zero) return;
  p.k = trailing_zeros<N>(m);
  shr_bits<N>(p.mo, m, p.k);
  p.mo_is_one = is_one<N>(p.mo);
  if (p.k) inv_pow2<N>(p.mo_inv, p.mo);
  if (!p.mo_is_one) mont_setup<N>(p.c, p.mo);
}

// r = the v with v = r1 mod mo, v = r2 mod 2^k, v < mo 2^k (r1 < mo, r2 < 2^k).
template <int N>
BIGTUNE_HD inline void crt_pow2(u32* r, const u32* r1, const u32* r2, const PreparedModulus<N>& p) {
  u32 h[N];
  sub_n<N>(h, r2, r1);
  mul_low<N>(h, h, p.mo_inv);
  mask_bits<N>(h, h, p.k);
  mul_low<N>(h, h, p.mo);  // < mo 2^k <= R: exact
  add_n<N>(r, h, r1);
}

// r = x^e mod m, any m (see the file comment), e of e_limbs limbs in memory.
template <int N>
BIGTUNE_HD inline void powm_prepared(u32* r, const u32* x, const u32* e, int e_limbs, const PreparedModulus<N>& p,
                                     int window, bool sliding) {
  if (p.zero) {
    set_zero<N>(r);
    return;
  }
  const int ebits = exponent_bits(e, e_limbs);
  if (p.mo_is_one) {
    powm_pow2<N>(r, x, e, ebits, p.k);
    return;
  }
  if (p.k == 0) {
    powm_mont<N>(r, x, e, ebits, p.c, window, sliding);
    return;
  }
  u32 r1[N], r2[N];
  powm_mont<N>(r1, x, e, ebits, p.c, window, sliding);
  powm_pow2<N>(r2, x, e, ebits, p.k);
  crt_pow2<N>(r, r1, r2, p);
}

template <int N>
BIGTUNE_HD inline void powm_any(u32* r, const u32* x, const u32* e, int e_limbs, const u32* m, int window,
                                bool sliding) {
  PreparedModulus<N> p;
  prepare_modulus<N>(p, m);
  powm_prepared<N>(r, x, e, e_limbs, p, window, sliding);
}

// r = a b mod m, any m; a, b < R.
template <int N>
BIGTUNE_HD inline void mulmod_prepared(u32* r, const u32* a, const u32* b, const PreparedModulus<N>& p) {
  if (p.zero || (p.mo_is_one && p.k == 0)) {  // m = 0, m = 1
    set_zero<N>(r);
    return;
  }
  u32 r2[N];
  if (p.k) {
    mul_low<N>(r2, a, b);
    mask_bits<N>(r2, r2, p.k);
    if (p.mo_is_one) {
      copy<N>(r, r2);
      return;
    }
  }
  if (p.k == 0) {
    mont_mulmod<N>(r, a, b, p.c);
    return;
  }
  u32 r1[N];
  mont_mulmod<N>(r1, a, b, p.c);
  crt_pow2<N>(r, r1, r2, p);
}

template <int N>
BIGTUNE_HD inline void mulmod_any(u32* r, const u32* a, const u32* b, const u32* m) {
  PreparedModulus<N> p;
  prepare_modulus<N>(p, m);
  mulmod_prepared<N>(r, a, b, p);
}
}  // namespace bigtune::kernels::modular
