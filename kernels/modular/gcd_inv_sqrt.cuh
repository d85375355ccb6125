// gcd, modular inverse and integer square root, one instance per thread, N
// 32-bit limbs.
//
// - gcd: binary (Stein): shifts and subtractions only, at most 2 * 32N
//   iterations of O(N) work. GMP's convention: gcd(a, 0) = a, gcd(0, 0) = 0.
// - modinv, odd m: binary extended Euclid keeping B a = u, D a = v (mod m),
//   halving B and D modulo m (m odd makes (B + m)/2 exact). Even m: a must be
//   odd; y = m^-1 mod a by the odd routine, then a^-1 mod m = (1 + m (a - y))/a,
//   an exact division done as a product with a^-1 mod R (the quotient is below
//   m < R, so it is right modulo R). "No inverse" (gcd(a, m) != 1, m = 0) gives
//   r = 0 and the flag; m = 1 gives r = 0 without the flag (as mpz_invert).
//   Operands a >= m are fine (not reduced first; the invariants hold mod m).
// - sqrt: floor(sqrt(a)), bit-pair by bit-pair (the restoring method): 16N
//   steps of O(N).
#pragma once
#include "kernels/modular/modexp.cuh"

namespace bigtune::kernels::modular {

template <int N>
BIGTUNE_HD inline void gcd_binary(u32* r, const u32* a, const u32* b) {
  if (is_zero<N>(a)) {
    copy<N>(r, b);
    return;
  }
  if (is_zero<N>(b)) {
    copy<N>(r, a);
    return;
  }
  u32 u[N], v[N];
  const int za = trailing_zeros<N>(a), zb = trailing_zeros<N>(b);
  const int s = za < zb ? za : zb;
  shr_bits<N>(u, a, za);
  copy<N>(v, b);
  for (;;) {
    shr_bits<N>(v, v, trailing_zeros<N>(v));  // v != 0 here
    if (cmp<N>(u, v) > 0) {
      u32 t[N];
      copy<N>(t, u);
      copy<N>(u, v);
      copy<N>(v, t);
    }
    sub_n<N>(v, v, u);
    if (is_zero<N>(v)) break;
  }
  shl_bits<N>(r, u, s);
}

// x = x / 2 mod m for odd m, x < m.
template <int N>
BIGTUNE_HD inline void half_mod(u32* x, const u32* m) {
  u32 top = 0;
  if (x[0] & 1u) top = add_n<N>(x, x, m);
  shr_bits<N>(x, x, 1);
  x[N - 1] |= top << 31;
}

// x = x - y mod m for x, y < m.
template <int N>
BIGTUNE_HD inline void sub_mod(u32* x, const u32* y, const u32* m) {
  if (sub_n<N>(x, x, y)) add_n<N>(x, x, m);
}

// r = a^-1 mod m for odd m; returns false (r = 0) when gcd(a, m) != 1.
template <int N>
BIGTUNE_HD inline bool modinv_odd(u32* r, const u32* a, const u32* m) {
  u32 u[N], v[N], B[N], D[N];
  copy<N>(u, a);
  copy<N>(v, m);
  set_zero<N>(B);
  B[0] = 1;
  set_zero<N>(D);
  if (is_one<N>(m)) B[0] = 0;  // everything is 0 mod 1
  while (!is_zero<N>(u)) {
    while (!(u[0] & 1u)) {
      shr_bits<N>(u, u, 1);
      half_mod<N>(B, m);
    }
    while (!(v[0] & 1u)) {
      shr_bits<N>(v, v, 1);
      half_mod<N>(D, m);
    }
    if (cmp<N>(u, v) >= 0) {
      sub_n<N>(u, u, v);
      sub_mod<N>(B, D, m);
    } else {
      sub_n<N>(v, v, u);
      sub_mod<N>(D, B, m);
    }
  }
  if (!is_one<N>(v)) {
    set_zero<N>(r);
    return false;
  }
  copy<N>(r, D);
  return true;
}

// r = a^-1 mod m for any m; returns false (r = 0) when there is none.
template <int N>
BIGTUNE_HD inline bool modinv_any(u32* r, const u32* a, const u32* m) {
  if (is_zero<N>(m)) {
    set_zero<N>(r);
    return false;
  }
  if (m[0] & 1u) return modinv_odd<N>(r, a, m);
  if (!(a[0] & 1u)) {  // both even
    set_zero<N>(r);
    return false;
  }
  if (is_one<N>(a)) {
    set_zero<N>(r);
    r[0] = 1;  // m >= 2
    return true;
  }
  u32 y[N];
  if (!modinv_odd<N>(y, m, a)) {
    set_zero<N>(r);
    return false;
  }
  u32 t[N], ai[N];
  sub_n<N>(t, a, y);  // y < a
  mul_low<N>(t, m, t);
  u64 c = 1;
  for (int j = 0; j < N && c; ++j) {
    const u64 s = u64(t[j]) + c;
    t[j] = u32(s);
    c = s >> 32;
  }
  inv_pow2<N>(ai, a);
  mul_low<N>(r, t, ai);
  return true;
}

// r = floor(sqrt(a)).
template <int N>
BIGTUNE_HD inline void sqrt_floor(u32* r, const u32* a) {
  u32 op[N], res[N], t[N];
  copy<N>(op, a);
  set_zero<N>(res);
  const int bl = bit_length<N>(a);
  for (int p = bl > 0 ? (bl - 1) & ~1 : -2; p >= 0; p -= 2) {
    // t = res + 2^p; res is a multiple of 2^(p+1) here, but add properly.
    copy<N>(t, res);
    u64 c = u64(1) << (p & 31);
    u32 carry = 0;
    for (int j = p >> 5; j < N; ++j) {
      const u64 s = u64(t[j]) + c;
      t[j] = u32(s);
      c = s >> 32;
      if (!c) break;
      if (j == N - 1) carry = 1;
    }
    shr_bits<N>(res, res, 1);
    if (!carry && cmp<N>(op, t) >= 0) {
      sub_n<N>(op, op, t);
      res[p >> 5] |= 1u << (p & 31);  // bit p of res >> 1 is clear
    }
  }
  copy<N>(r, res);
}

}  // namespace bigtune::kernels::modular
