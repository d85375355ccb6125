// Host side of the fused warp Barrett mulmod (kernels/warp/barrett_fused.cuh,
// task mulmodfast): the scratch words of one call for a modulus shared by the
// batch. Computed on the host once per call (one 64n / 32n-limb schoolbook
// division, Knuth's Algorithm D of kernels/thread/divmod_knuth.cuh: ~n^2
// limb products, microseconds at n = 256) instead of a division launch per
// call: the modulus is read back once (the composed Barrett path,
// barrett_instances.cu, synchronises once per call for its operand check too).
//
// Layout (32-bit words): [0] s, [1] n (limbs of the Barrett width, S Q),
// then m, m' = m << s and mu_lo, N = L Q limbs each (zeros past n), where
// s = 32 n - bitlen(m) and mu = floor((2^(64n) - 1) / m') = 2^(32n) + mu_lo
// (kernels/modular/barrett.hpp: mu < 2^(32n + 1) for a normalised m').
// m = 0 (outside the API's contract) gives s = 32n, m' = mu = 0: the kernel
// then returns garbage but stays bounded (at most four corrections).
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/thread/divmod_knuth.cuh"

namespace bigtune::kernels::modular {

constexpr uint32_t kWBarrettHeaderWords = 8;  // = warp::kWBarrettHeader

// Scratch words for modulus m (m_limbs 32-bit limbs), operands of `limbs`
// 32-bit limbs, a kernel of N = L Q limbs per instance (blocks of Q limbs).
inline std::vector<uint32_t> wbarrett_constants(const uint32_t* m, uint32_t m_limbs, uint32_t limbs, uint32_t N,
                                                uint32_t Q) {
  const uint32_t n = (limbs + Q - 1) / Q * Q;
  std::vector<uint32_t> out(kWBarrettHeaderWords + 3 * size_t(N), 0);
  uint32_t top = 0;  // 1 + index of m's highest nonzero limb
  for (uint32_t i = 0; i < m_limbs && i < n; ++i)
    if (m[i]) top = i + 1;
  const uint32_t bitlen = top == 0 ? 0 : 32 * (top - 1) + 32 - uint32_t(thread::clz32(m[top - 1]));
  const uint32_t s = 32 * n - bitlen;
  out[0] = s;
  out[1] = n;
  uint32_t* om = out.data() + kWBarrettHeaderWords;
  uint32_t* mp = om + N;
  uint32_t* mu = mp + N;
  for (uint32_t i = 0; i < top; ++i) om[i] = m[i];
  if (bitlen == 0) return out;
  const uint32_t ws = s / 32, bs = s % 32;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t lo = i >= ws ? om[i - ws] : 0u;
    const uint32_t below = i >= ws + 1 ? om[i - ws - 1] : 0u;
    mp[i] = bs == 0 ? lo : (lo << bs) | (below >> (32 - bs));
  }
  // (2^(64n) - 1) / m' with Algorithm D's region: dividend 2n limbs, divisor n.
  std::vector<uint32_t> x(2 * (2 * size_t(n)) + 1, 0);
  for (uint32_t i = 0; i < 2 * n; ++i) x[i] = ~0u;
  for (uint32_t i = 0; i < n; ++i) x[2 * n + 1 + i] = mp[i];
  thread::divmod_knuth(x.data(), 2 * n, n);
  for (uint32_t i = 0; i < n; ++i) mu[i] = x[i];  // x[n] = 1: the implicit 2^(32n)
  return out;
}

}  // namespace bigtune::kernels::modular
