// One-thread schoolbook division with remainder: Knuth's Algorithm D (TAOCP
// vol. 2, §4.3.1) with normalisation, on 32-bit limbs, for the
// thread-per-instance regime (issue 4; the thread-level companion of seed 002
// §3.2.1's School multiplication: one instance per thread, quadratic). Cost: (n - dn + 1) quotient steps, each one
// 64/32-bit estimate and dn limb products; no register arrays, so every size
// up to the variant's cap uses the same code.
//
// Region (thread_layout.hpp, R = 2n + 1 limbs): on entry the dividend u at
// x[0, n) and the divisor v at x[n + 1, n + 1 + bn) (bn <= n); x[n] is free.
// The normalised dividend takes x[0, n], and each quotient limb q[j] is stored
// in x[j + dn] once that limb of the partial remainder is known to be 0 (as
// GMP's divrem does), so no extra space is needed. On exit: quotient at
// x[0, n), remainder at x[n + 1, n + 1 + bn). A zero divisor gives q = r = 0
// and returns 1 (bigtune.hpp's divmod contract), else returns 0.
//
// Host-callable too (plain C++ but for the leading-zero count), so the unit
// tests check it against GMP without a GPU (tests/unit/thread_divmod_test.cpp).
#pragma once
#include <cstdint>

#include "kernels/thread/thread_layout.hpp"

namespace bigtune::kernels::thread {

BIGTUNE_THREAD_HD inline int clz32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __clz(x);
#else
  return x ? __builtin_clz(x) : 32;
#endif
}

BIGTUNE_THREAD_HD inline uint32_t divmod_knuth(uint32_t* x, uint32_t n, uint32_t bn) {
  uint32_t* u = x;
  uint32_t* v = x + n + 1;
  uint32_t dn = bn;
  while (dn > 0 && v[dn - 1] == 0) --dn;
  if (dn == 0) {
    for (uint32_t k = 0; k < n; ++k) u[k] = 0;
    return 1;  // v's limbs are all zero already: r = 0
  }
  if (dn == 1) {  // short division: no estimate to correct
    const uint64_t d = v[0];
    uint64_t rem = 0;
    for (uint32_t j = n; j-- > 0;) {
      const uint64_t t = (rem << 32) | u[j];
      u[j] = uint32_t(t / d);
      rem = t - uint64_t(u[j]) * d;
    }
    v[0] = uint32_t(rem);
    return 0;
  }
  // Normalise: the divisor's top bit set makes each estimate at most 2 too large.
  const int s = clz32(v[dn - 1]);
  if (s > 0) {
    for (uint32_t k = dn - 1; k > 0; --k) v[k] = (v[k] << s) | (v[k - 1] >> (32 - s));
    v[0] <<= s;
    u[n] = u[n - 1] >> (32 - s);
    for (uint32_t k = n - 1; k > 0; --k) u[k] = (u[k] << s) | (u[k - 1] >> (32 - s));
    u[0] <<= s;
  } else {
    u[n] = 0;
  }
  const uint64_t vt = v[dn - 1], vs = v[dn - 2];
  for (uint32_t j = n - dn + 1; j-- > 0;) {
    const uint64_t num = (uint64_t(u[j + dn]) << 32) | u[j + dn - 1];
    uint64_t qhat = num / vt, rhat = num - qhat * vt;
    while (qhat >> 32 || qhat * vs > ((rhat << 32) | u[j + dn - 2])) {
      --qhat;
      rhat += vt;
      if (rhat >> 32) break;
    }
    // u[j, j + dn] -= qhat * v
    uint64_t carry = 0;
    uint32_t borrow = 0;
    for (uint32_t i = 0; i < dn; ++i) {
      const uint64_t p = qhat * v[i] + carry;
      carry = p >> 32;
      const uint32_t lo = uint32_t(p);
      const uint32_t t = u[i + j] - lo;
      const uint32_t b1 = u[i + j] < lo;
      u[i + j] = t - borrow;
      borrow = b1 | (t < borrow);
    }
    const uint32_t top = u[j + dn];
    const uint64_t sub = carry + borrow;
    if (uint64_t(top) < sub) {  // the estimate was one too large (rare): add v back
      --qhat;
      uint32_t c = 0;
      for (uint32_t i = 0; i < dn; ++i) {
        const uint64_t t = uint64_t(u[i + j]) + v[i] + c;
        u[i + j] = uint32_t(t);
        c = uint32_t(t >> 32);
      }
    }
    u[j + dn] = uint32_t(qhat);  // that remainder limb is now 0: keep q[j] there
  }
  // Remainder: u[0, dn) >> s into v's place (v is no longer needed), zeros above.
  for (uint32_t k = 0; k < dn; ++k) {
    const uint32_t hi = (s > 0 && k + 1 < dn) ? (u[k + 1] << (32 - s)) : 0u;
    v[k] = (u[k] >> s) | hi;
  }
  for (uint32_t k = dn; k < bn; ++k) v[k] = 0;
  // Quotient: q[k] = u[dn + k] for k <= n - dn, moved down to u[0, n).
  for (uint32_t k = 0; k < n; ++k) u[k] = k <= n - dn ? u[dn + k] : 0u;
  return 0;
}

}  // namespace bigtune::kernels::thread
