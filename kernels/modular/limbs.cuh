// Fixed-length limb helpers for the thread-per-instance modular kernels.
//
// Every function works on arrays of exactly N 32-bit limbs (N a compile-time
// constant, so that in device code the arrays live in registers where the
// loops are unrolled); the bit-size of an instance is a run-time value below
// 32 N and the limbs above it are zero. Plain C++ on purpose: the same code
// is compiled for the host by the CPU unit tests (tests/unit/mod_core_test.cpp)
// and checked against GMP there, before any GPU run.
//
// Aliasing: exact in-place (r == a or r == b) is allowed everywhere unless a
// comment says otherwise; partial overlap is not.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"  // BIGTUNE_HD

#if defined(__CUDA_ARCH__)
#define BIGTUNE_MOD_STR(x) #x
#define BIGTUNE_MOD_UNROLL(n) _Pragma(BIGTUNE_MOD_STR(unroll n))
#define BIGTUNE_MOD_NO_UNROLL _Pragma("unroll 1")
#define BIGTUNE_MOD_UNROLL_ALL _Pragma("unroll")
#else
#define BIGTUNE_MOD_UNROLL(n)
#define BIGTUNE_MOD_NO_UNROLL
#define BIGTUNE_MOD_UNROLL_ALL
#endif

namespace bigtune::kernels::modular {

using u32 = uint32_t;
using u64 = uint64_t;

// Inner loops over N limbs are unrolled fully up to 64 limbs, so that the
// arrays can live in registers (a 2048-bit Montgomery product keeps a, m and
// the accumulator: ~200 registers); above, the arrays do not fit the register
// file anyway and a partial unroll keeps the code (and ptxas time) small.
template <int N>
constexpr int kUnroll = N <= 64 ? N : 8;

template <int N>
BIGTUNE_HD inline void set_zero(u32* r) {
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N; ++j) r[j] = 0;
}

template <int N>
BIGTUNE_HD inline void copy(u32* r, const u32* a) {
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N; ++j) r[j] = a[j];
}

template <int N>
BIGTUNE_HD inline bool is_zero(const u32* a) {
  u32 any = 0;
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N; ++j) any |= a[j];
  return any == 0;
}

template <int N>
BIGTUNE_HD inline bool is_one(const u32* a) {
  u32 any = a[0] ^ 1u;
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 1; j < N; ++j) any |= a[j];
  return any == 0;
}

// -1, 0, 1 as a <, ==, > b.
template <int N>
BIGTUNE_HD inline int cmp(const u32* a, const u32* b) {
  for (int j = N - 1; j >= 0; --j)
    if (a[j] != b[j]) return a[j] < b[j] ? -1 : 1;
  return 0;
}

// r = a - b mod 2^(32N); returns the borrow.
template <int N>
BIGTUNE_HD inline u32 sub_n(u32* r, const u32* a, const u32* b) {
  u64 borrow = 0;
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N; ++j) {
    const u64 d = u64(a[j]) - b[j] - borrow;
    r[j] = u32(d);
    borrow = (d >> 32) & 1;
  }
  return u32(borrow);
}

// r = a + b mod 2^(32N); returns the carry.
template <int N>
BIGTUNE_HD inline u32 add_n(u32* r, const u32* a, const u32* b) {
  u64 c = 0;
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N; ++j) {
    const u64 s = u64(a[j]) + b[j] + c;
    r[j] = u32(s);
    c = s >> 32;
  }
  return u32(c);
}

// Index of the highest set bit plus one (0 for a = 0).
template <int N>
BIGTUNE_HD inline int bit_length(const u32* a) {
  for (int j = N - 1; j >= 0; --j)
    if (a[j]) {
      int b = 0;
      for (u32 v = a[j]; v; v >>= 1) ++b;
      return 32 * j + b;
    }
  return 0;
}

// Trailing zero bits (32N for a = 0).
template <int N>
BIGTUNE_HD inline int trailing_zeros(const u32* a) {
  for (int j = 0; j < N; ++j)
    if (a[j]) {
      int b = 0;
      for (u32 v = a[j]; !(v & 1u); v >>= 1) ++b;
      return 32 * j + b;
    }
  return 32 * N;
}

BIGTUNE_HD inline u32 get_bit(const u32* a, int k) { return (a[k >> 5] >> (k & 31)) & 1u; }

// r = a >> s for 0 <= s < 32N (any s below 32N; zeros shift in).
template <int N>
BIGTUNE_HD inline void shr_bits(u32* r, const u32* a, int s) {
  const int w = s >> 5, b = s & 31;
  for (int j = 0; j < N; ++j) {
    const int k = j + w;
    const u32 lo = k < N ? a[k] : 0u;
    const u32 hi = k + 1 < N ? a[k + 1] : 0u;
    r[j] = b ? (lo >> b) | (hi << (32 - b)) : lo;
  }
}

// r = a << s mod 2^(32N), 0 <= s < 32N. r must not alias a partially; r == a
// is fine (written from the top down).
template <int N>
BIGTUNE_HD inline void shl_bits(u32* r, const u32* a, int s) {
  const int w = s >> 5, b = s & 31;
  for (int j = N - 1; j >= 0; --j) {
    const int k = j - w;
    const u32 hi = k >= 0 ? a[k] : 0u;
    const u32 lo = k - 1 >= 0 ? a[k - 1] : 0u;
    r[j] = b ? (hi << b) | (lo >> (32 - b)) : hi;
  }
}

// r = a mod 2^k, 0 <= k <= 32N.
template <int N>
BIGTUNE_HD inline void mask_bits(u32* r, const u32* a, int k) {
  for (int j = 0; j < N; ++j) {
    const int lo = 32 * j;
    r[j] = k >= lo + 32 ? a[j] : k <= lo ? 0u : a[j] & ((1u << (k - lo)) - 1u);
  }
}

// r = a * b mod 2^(32N) (the low half of the product). r may alias a or b.
template <int N>
BIGTUNE_HD inline void mul_low(u32* r, const u32* a, const u32* b) {
  u32 t[N];
  set_zero<N>(t);
  BIGTUNE_MOD_NO_UNROLL
  for (int i = 0; i < N; ++i) {
    u64 c = 0;
    const u32 bi = b[i];
    for (int j = 0; j + i < N; ++j) {
      const u64 p = u64(a[j]) * bi + t[i + j] + c;
      t[i + j] = u32(p);
      c = p >> 32;
    }
  }
  copy<N>(r, t);
}

// r = (a + a) mod m for a < m (m >= 1).
template <int N>
BIGTUNE_HD inline void mod_double(u32* r, const u32* a, const u32* m) {
  u32 t[N], d[N];
  const u32 carry = add_n<N>(t, a, a);
  const u32 borrow = sub_n<N>(d, t, m);
  const bool take_d = carry || !borrow;  // 2a >= m
  BIGTUNE_MOD_UNROLL(kUnroll<N>)
  for (int j = 0; j < N; ++j) r[j] = take_d ? d[j] : t[j];
}

}  // namespace bigtune::kernels::modular
