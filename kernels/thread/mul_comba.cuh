// One-thread product-scanning ("Comba") multiplication and squaring, seed 002
// §3.2.2 (Algorithm 2, Fig. 3.2); Table 3.1 gives its cost against School
// (§3.2.1): w^2 word products either way, but 2w result writes instead of
// w^2 + w, because each column is finished before it is written. Here: n^2
// limb products for the full product, n(n+1)/2 for the low half, about
// n^2/2 + n for the square (off-diagonal products once, then doubled).
//
// Seed 002 Table 3.3 (GTX 980, 100,000 1024-bit products): single-thread
// Comba 5.06 ms; bench/results/2026-11-22-h100-thread.md has this code's.
//
// The operands are N-limb register arrays (N a compile-time capacity; limbs
// past the run-time length are zero). Column k of the product, the sum of
// a[i] * b[k-i], accumulates in a three-limb arith::Accumulator through one
// mad.lo.cc / madc.hi.cc / addc chain per product (arith::mad_wide); the
// finished column's low limb goes straight to the thread's shared-memory
// region, so no result array occupies registers — a thread holds 2N operand
// limbs plus three, which is what lets N = 32 (1 Kbit) run at 512 threads per
// block without spills. Every loop is fully unrolled: all register indices are
// compile-time constants.
//
// Output: x[k] for k < `valid` (the caller's result length); the region must
// have that many limbs. Exact in-place use (x holding the operands already
// loaded into a and b) is the intended use.
#pragma once
#include <cstdint>

#include "kernels/arith/limb.cuh"
#include "kernels/arith/mad_row.cuh"

namespace bigtune::kernels::thread {

namespace detail {
template <class Limb>
__device__ __forceinline__ void shift_down(arith::Accumulator<Limb>& acc) {
  acc.lo = acc.hi;
  acc.hi = acc.top;
  acc.top = 0;
}
}  // namespace detail

// x[0, min(2N, valid)) = a * b (full product).
template <class Limb, int N>
__device__ __forceinline__ void mul_comba(Limb* x, uint32_t valid, const Limb (&a)[N], const Limb (&b)[N]) {
  arith::Accumulator<Limb> acc{0, 0, 0};
  // Two loops with plain bounds: nvcc unrolls them fully (one loop with
  // k-dependent bounds was left rolled, which put a and b in local memory).
#pragma unroll
  for (int k = 0; k < N; ++k) {
#pragma unroll
    for (int i = 0; i <= k; ++i) arith::mad_wide(acc, a[i], b[k - i]);
    if (uint32_t(k) < valid) x[k] = acc.lo;
    detail::shift_down(acc);
  }
#pragma unroll
  for (int k = N; k < 2 * N - 1; ++k) {
#pragma unroll
    for (int i = k - N + 1; i < N; ++i) arith::mad_wide(acc, a[i], b[k - i]);
    if (uint32_t(k) < valid) x[k] = acc.lo;
    detail::shift_down(acc);
  }
  if (uint32_t(2 * N - 1) < valid) x[2 * N - 1] = acc.lo;
}

// x[0, min(N, valid)) = a * b mod B^N (low half: columns 0 .. N-1 only).
template <class Limb, int N>
__device__ __forceinline__ void mul_low_comba(Limb* x, uint32_t valid, const Limb (&a)[N], const Limb (&b)[N]) {
  arith::Accumulator<Limb> acc{0, 0, 0};
#pragma unroll
  for (int k = 0; k < N; ++k) {
    if (k == N - 1) {  // the top column's carries leave the result: one limb suffices
      Limb top = acc.lo;
#pragma unroll
      for (int i = 0; i <= k; ++i) top += a[i] * b[k - i];
      if (uint32_t(k) < valid) x[k] = top;
    } else {
#pragma unroll
      for (int i = 0; i <= k; ++i) arith::mad_wide(acc, a[i], b[k - i]);
      if (uint32_t(k) < valid) x[k] = acc.lo;
      detail::shift_down(acc);
    }
  }
}

// x[0, min(2N, valid)) = a^2. Column k is 2 * sum_{i < k-i} a[i] a[k-i]
// (+ a[k/2]^2 for even k) + the carry of column k-1: the off-diagonal sum is
// formed once and doubled, so a square costs about half a product.
template <class Limb, int N>
__device__ __forceinline__ void sqr_comba(Limb* x, uint32_t valid, const Limb (&a)[N]) {
  constexpr int L = arith::LimbTraits<Limb>::kBits;
  Limb c0 = 0, c1 = 0;  // carry into the column: c0 + c1 * B
#pragma unroll
  for (int k = 0; k < 2 * N - 1; ++k) {
    arith::Accumulator<Limb> t{0, 0, 0};
    // Plain bounds plus a compile-time guard (k - i < N) keep the loop fully
    // unrolled; k-dependent start bounds left it rolled (a in local memory).
#pragma unroll
    for (int i = 0; 2 * i < k; ++i)
      if (k - i < N) arith::mad_wide(t, a[i], a[k - i]);
    // Double: the off-diagonal sum is below N/2 * B^2, so the top limb keeps the shifted-out bit.
    t.top = (t.top << 1) | (t.hi >> (L - 1));
    t.hi = (t.hi << 1) | (t.lo >> (L - 1));
    t.lo <<= 1;
    if (k % 2 == 0) arith::mad_wide(t, a[k / 2], a[k / 2]);
    Limb c = arith::add_limb(t.lo, t.lo, c0, Limb(0));
    c = arith::add_limb(t.hi, t.hi, c1, c);
    t.top += c;
    if (uint32_t(k) < valid) x[k] = t.lo;
    c0 = t.hi;
    c1 = t.top;
  }
  if (uint32_t(2 * N - 1) < valid) x[2 * N - 1] = c0;
}

// x[0, min(2N, valid)) = a * b by operand scanning (seed 002 §3.2.1's School
// order, Fig. 3.1): row i adds a[i] * b at digit i through arith::mad_row, whose even/odd
// accumulators E and O let every product enter its column sum with one
// carry-chained wide multiply-add (kernels/arith/mad_row.cuh), where the
// Comba column costs a three-instruction chain per product. The price is
// registers: E and O hold 2N + 2 digits each. a[i] is read from the region
// row by row (x still holds a: the result is written only at the end);
// x[0, n) is a, limbs past n are taken as 0.
// Rows at digit 2m + 1 are mad_row's shifted rows, so all accumulator pairs
// stay even-aligned. Needs N in {2, 4, 8, 16, 32} (the generated chains).
//
// Carries: a chain covers digits [2m, 2m + N + 3) and drops the carry out of
// the top one; E and O never exceed the partial product a[0, i] * b <
// B^(i + 1 + N), so nothing is lost.
template <int N>
__device__ __forceinline__ void mul_rows(uint32_t* x, uint32_t n, uint32_t valid, const uint32_t (&b)[N]) {
  static_assert(N >= 2 && N % 2 == 0 && N <= 32, "mad_row chains exist for N in {2, 4, 8, 16, 32}");
  uint32_t e[2 * N + 2], o[2 * N + 2];
#pragma unroll
  for (int d = 0; d < 2 * N + 2; ++d) e[d] = o[d] = 0;
#pragma unroll
  for (int m = 0; m < N / 2; ++m) {
    // Limbs of a past its n are 0 (x beyond n holds b, or another region).
    const uint32_t a0 = uint32_t(2 * m) < n ? x[2 * m] : 0u, a1 = uint32_t(2 * m + 1) < n ? x[2 * m + 1] : 0u;
    arith::mad_row<N, N + 3, false>(e + 2 * m, o + 2 * m, a0, b);
    arith::mad_row<N, N + 3, true>(e + 2 * m, o + 2 * m, a1, b);
  }
  // Product = E + O * 2^32, digit by digit.
  uint32_t carry = 0;
  if (0 < valid) x[0] = e[0];
#pragma unroll
  for (int d = 1; d < 2 * N; ++d) {
    uint32_t r;
    carry = arith::add_limb(r, e[d], o[d - 1], carry);
    if (uint32_t(d) < valid) x[d] = r;
  }
}

}  // namespace bigtune::kernels::thread
