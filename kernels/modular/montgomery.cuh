// Montgomery arithmetic on N 32-bit limbs, one instance per thread.
//
// R = 2^(32N). For an odd modulus m < R, mont_mul(a, b) = a b R^-1 mod m by
// CIOS (coarsely integrated operand scanning: one row a*b_i, then one
// reduction row q*m with q = t_0 (-m^-1) mod 2^32, then a one-limb shift; the
// textbook form, Koç, Acar & Kaliski 1996). This is the modular counterpart of
// the thread-per-product schoolbook multiplication of seed 002 §3.2.1 (one
// thread owns the whole product), which is the right mapping while the
// operands fit a thread's registers.
//
// Inputs >= m: mont_mul only needs a, b < R and a b < R^2; its result
// (ab + Qm)/R is below R + m, so after the one conditional subtraction it is
// below R (not necessarily below m). A following mont_mul by R^2 mod m (< m)
// gives (t R^2 + Qm)/R < 2m, hence a fully reduced result after its
// subtraction. That is why mulmod and powm accept operands >= m (any value
// below 2^bits) and return the reduced result: conversion into Montgomery
// form is exactly such a product.
//
// Cost of mont_mul: 2 N^2 32x32->64 multiply-adds.
#pragma once
#include "kernels/modular/limbs.cuh"

namespace bigtune::kernels::modular {

// -m0^-1 mod 2^32 for odd m0 (Newton: x = m0 is right to 3 bits, each step
// doubles the correct bits: 3, 6, 12, 24, 48).
BIGTUNE_HD inline u32 neg_inv32(u32 m0) {
  u32 x = m0;
  for (int k = 0; k < 4; ++k) x *= 2u - m0 * x;
  return 0u - x;
}

// r = a b R^-1 mod m, reduced below R (below m when a < m or b < m; see the
// file comment). b is read one limb per row with a run-time index, so the
// caller passes a b it does not need in registers (a local copy); a, m and the
// accumulator stay in registers for N <= 32. r may alias a or b.
template <int N>
BIGTUNE_HD inline void mont_mul(u32* r, const u32* a, const u32* b, const u32* m, u32 minv) {
  u32 t[N + 2];
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N + 2; ++j) t[j] = 0;
  BIGTUNE_MOD_NO_UNROLL
  for (int i = 0; i < N; ++i) {
    const u32 bi = b[i];
    u64 c = 0;
    BIGTUNE_MOD_UNROLL(kUnroll<N>)
    for (int j = 0; j < N; ++j) {
      const u64 p = u64(a[j]) * bi + t[j] + c;
      t[j] = u32(p);
      c = p >> 32;
    }
    u64 s = u64(t[N]) + c;
    t[N] = u32(s);
    t[N + 1] = u32(s >> 32);
    const u32 q = t[0] * minv;
    c = (u64(m[0]) * q + t[0]) >> 32;  // the low limb becomes 0 by construction
    BIGTUNE_MOD_UNROLL(kUnroll<N>)
    for (int j = 1; j < N; ++j) {
      const u64 p = u64(m[j]) * q + t[j] + c;
      t[j - 1] = u32(p);
      c = p >> 32;
    }
    s = u64(t[N]) + c;
    t[N - 1] = u32(s);
    t[N] = t[N + 1] + u32(s >> 32);
  }
  // t < R + m (t[N] <= 1): one conditional subtraction.
  u32 d[N];
  const u32 borrow = sub_n<N>(d, t, m);
  const bool take_d = t[N] != 0 || !borrow;
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N; ++j) r[j] = take_d ? d[j] : t[j];
}

// What a Montgomery computation needs of an odd modulus m > 1: -m^-1 mod 2^32,
// R mod m (the Montgomery form of 1) and R^2 mod m (the conversion factor).
template <int N>
struct MontModulus {
  u32 m[N];
  u32 one[N];  // R mod m
  u32 r2[N];   // R^2 mod m
  u32 minv;
};

// Precondition: m odd, m > 1. Cost: at most 32N - bitlen(m) + 1 + N modular
// doublings (O(N) each) and 5 mont_mul: R mod m by doubling 2^(bitlen-1) up to
// 2^(32N); then the Montgomery form of 2^N by N more doublings, squared five
// times in Montgomery form: (2^N)^(2^5) = 2^(32N) = R, whose Montgomery form is
// R^2 mod m.
template <int N>
BIGTUNE_HD inline void mont_setup(MontModulus<N>& c, const u32* m) {
  copy<N>(c.m, m);
  c.minv = neg_inv32(m[0]);
  const int b = bit_length<N>(m);
  set_zero<N>(c.one);
  c.one[(b - 1) >> 5] = 1u << ((b - 1) & 31);  // 2^(b-1) < m since m is odd and > 1
  for (int k = b - 1; k < 32 * N; ++k) mod_double<N>(c.one, c.one, c.m);
  u32 y[N], yb[N];
  copy<N>(y, c.one);
  for (int k = 0; k < N; ++k) mod_double<N>(y, y, c.m);
  for (int k = 0; k < 5; ++k) {
    copy<N>(yb, y);
    mont_mul<N>(y, y, yb, c.m, c.minv);
  }
  copy<N>(c.r2, y);
}

// r = a b mod m for any a, b < R (odd m > 1): two Montgomery products, the
// second by R^2 (file comment: the result is fully reduced).
template <int N>
BIGTUNE_HD inline void mont_mulmod(u32* r, const u32* a, const u32* b, const MontModulus<N>& c) {
  u32 t[N], m[N];
  copy<N>(m, c.m);  // compile-time indexed only: registers (see powm_mont)
  mont_mul<N>(t, a, b, m, c.minv);
  mont_mul<N>(r, t, c.r2, m, c.minv);
}

}  // namespace bigtune::kernels::modular
