// The NTT product (kernels/block/ntt.cuh) on the host, for the CPU tests of
// both fields (tests/unit/ntt_host_test.cpp: Goldilocks; ntt_crt_host_test.cpp:
// the three-prime CRT field): the kernel's phase functions run serially on one
// "thread", the block carry scan replaced by a serial carry (the GPU tests
// cover that part); operands and GMP's product to compare with.
#pragma once
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/block/ntt.cuh"

namespace bigtune::test {

// The r_limbs-limb product a*b (a*a when `square`) through field F's NTT with
// at most 2^log_m_max points per sub-transform; the plan it used in *plan_out.
template <class F>
std::vector<uint64_t> host_mul_ntt(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, bool square,
                                   uint32_t log_m_max, uint32_t r_limbs, kernels::block::NttPlan* plan_out) {
  using E = typename F::Elem;
  using u128 = unsigned __int128;
  namespace kb = kernels::block;
  const kb::NttPlan p = kb::ntt_plan(uint32_t(a.size()), uint32_t(b.size()), log_m_max, 1024, F::kDigitBits);
  *plan_out = p;
  std::vector<E> table(kb::ntt_table_elems(p));
  const E w = F::root_of_unity(int(p.log_n)), wi = F::pow(w, p.n() - 1);
  for (uint64_t k = 0; k < table.size(); ++k) table[k] = kb::ntt_twiddle_entry<F>(w, wi, p.log_n, k);
  const auto tw = kb::NttTables<F>::over(table.data(), p.log_n);
  std::vector<E> x(kb::ntt_x_elems(p)), b_hat(p.m()), subs(uint64_t(p.d()) * p.m());
  for (uint32_t t = 0; t < p.d(); ++t) {
    if (square)
      kb::ntt_sub_product<F, true>(x.data(), b_hat.data(), subs.data(), p, tw, a.data(), uint32_t(a.size()),
                                   b.data(), uint32_t(b.size()), t, 0, 1, [](bool) {});
    else
      kb::ntt_sub_product<F, false>(x.data(), b_hat.data(), subs.data(), p, tw, a.data(), uint32_t(a.size()),
                                    b.data(), uint32_t(b.size()), t, 0, 1, [](bool) {});
  }
  std::vector<uint64_t> r(r_limbs);
  uint64_t prev_hi = 0, carry = 0;
  for (uint32_t j = 0; j < r_limbs; ++j) {
    uint64_t lo, hi;
    kb::ntt_limb_parts<F>(lo, hi, x.data(), subs.data(), p, tw, j);
    EXPECT_LT(hi, uint64_t(1) << 50);  // the device carry phase's bound (ntt.cuh, mul_ntt)
    const u128 v = u128(lo) + prev_hi + carry;
    r[j] = uint64_t(v);
    carry = uint64_t(v >> 64);
    prev_hi = hi;
  }
  return r;
}

// kind 0: random limbs; 1: all ones; 2: runs of all-ones and zero limbs.
inline std::vector<uint64_t> ntt_operand(std::mt19937_64& rng, uint32_t limbs, int kind) {
  std::vector<uint64_t> v(limbs);
  for (auto& w : v) w = kind == 0 ? rng() : kind == 1 ? ~uint64_t(0) : (rng() % 3 == 0 ? ~uint64_t(0) : 0);
  return v;
}

// GMP's product a*b in r_limbs limbs (r_limbs >= a.size() + b.size()).
inline std::vector<uint64_t> gmp_product(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                                         uint32_t r_limbs) {
  std::vector<uint64_t> want(r_limbs, 0);
  const auto& big = a.size() >= b.size() ? a : b;
  const auto& small = a.size() >= b.size() ? b : a;
  mpn_mul(reinterpret_cast<mp_limb_t*>(want.data()), reinterpret_cast<const mp_limb_t*>(big.data()),
          mp_size_t(big.size()), reinterpret_cast<const mp_limb_t*>(small.data()), mp_size_t(small.size()));
  return want;
}

// One product case of the host NTT tests: operands, whether it is a square,
// the largest transform the plan may use, the result limbs (one past the
// product) and GMP's product.
struct NttProductCase {
  std::vector<uint64_t> a, b;
  int kind = 0;  // ntt_operand's kind
  bool square = false;
  uint32_t log_m_max = 0;
  uint32_t r_limbs = 0;
  std::vector<uint64_t> want;
};

// The operand sizes, kinds (random, all-ones, sparse), squares and transform
// caps both fields' host tests walk (log_m_max from 1 to `top_log_m`, so
// plans with and without a split); `check` runs each case.
template <class Check>
void for_each_ntt_product_case(std::mt19937_64& rng, uint32_t top_log_m, Check check) {
  for (uint32_t a_limbs : {1u, 2u, 3u, 7u, 16u, 33u, 100u, 256u})
    for (uint32_t b_limbs : {1u, 5u, 16u, 100u, 256u})
      for (uint32_t log_m_max : {1u, 2u, 3u, 4u, 5u, 6u, 8u, top_log_m})
        for (int kind = 0; kind < 3; ++kind)
          for (bool square : {false, true}) {
            if (square && b_limbs != a_limbs && b_limbs != 1) continue;
            NttProductCase c;
            c.a = ntt_operand(rng, a_limbs, kind);
            c.b = square ? c.a : ntt_operand(rng, b_limbs, kind);
            c.kind = kind;
            c.square = square;
            c.log_m_max = log_m_max;
            c.r_limbs = uint32_t(c.a.size() + c.b.size()) + 1;
            c.want = gmp_product(c.a, c.b, c.r_limbs);
            check(c);
          }
}

}  // namespace bigtune::test
