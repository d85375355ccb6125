// CPU tests of the NTT multiplication's math (kernels/block/ntt.cuh): the
// Goldilocks field against 128-bit remainders, and the whole product — the
// same phase functions the kernel runs, on one "thread" — against GMP's
// mpn_mul, for unsplit and split (D = 2..16) transforms, random and
// all-ones operands. The device-only part (the block carry scan) is replaced
// here by a serial carry; the GPU tests (tests/gpu/ntt_vs_gmp_test.cpp)
// cover it.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/block/ntt.cuh"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {
using Field = kernels::arith::Goldilocks;
using kernels::block::NttPlan;
using kernels::block::NttTables;
using u128 = unsigned __int128;

uint64_t slow_mod(u128 x) { return uint64_t(x % Field::kP); }

TEST(Goldilocks, OpsMatchSlowRemainders) {
  std::mt19937_64 rng(test::test_seed());
  const uint64_t p = Field::kP;
  std::vector<uint64_t> vals{0, 1, 2, p - 1, p - 2, 0xffffffffull, 0x100000000ull, p - 0xffffffffull,
                             0x8000000000000000ull, 0xfffffffeffffffffull};
  for (int i = 0; i < 200; ++i) vals.push_back(rng() % p);
  for (uint64_t a : vals)
    for (uint64_t b : vals) {
      ASSERT_EQ(Field::add(a, b), slow_mod(u128(a) + b)) << a << " " << b;
      ASSERT_EQ(Field::sub(a, b), slow_mod(u128(a) + p - b)) << a << " " << b;
      ASSERT_EQ(Field::mul(a, b), slow_mod(u128(a) * b)) << a << " " << b;
    }
  for (int k = 1; k <= 20; ++k) {
    const uint64_t w = Field::root_of_unity(k);
    EXPECT_EQ(Field::pow(w, uint64_t(1) << k), 1u);
    EXPECT_NE(Field::pow(w, uint64_t(1) << (k - 1)), 1u);  // primitive
    EXPECT_EQ(Field::mul(Field::inverse_pow2(k), uint64_t(1) << k), 1u);
  }
}

// The kernel's phases run serially; returns the r_limbs-limb product.
std::vector<uint64_t> host_mul_ntt(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, bool square,
                                   uint32_t log_m_max, uint32_t r_limbs, NttPlan* plan_out) {
  const NttPlan p = kernels::block::ntt_plan(uint32_t(a.size()), uint32_t(b.size()), log_m_max, 1024);
  *plan_out = p;
  std::vector<uint64_t> table(p.n());
  const uint64_t w = Field::root_of_unity(int(p.log_n)), wi = Field::pow(w, p.n() - 1);
  for (uint32_t k = 0; k < p.n() / 2; ++k) table[k] = Field::pow(w, k), table[p.n() / 2 + k] = Field::pow(wi, k);
  const NttTables<Field> tw{table.data(), table.data() + p.n() / 2, p.log_n};
  std::vector<uint64_t> x(kernels::block::ntt_x_elems(p)), b_hat(p.m()), subs(uint64_t(p.d()) * p.m());
  for (uint32_t t = 0; t < p.d(); ++t) {
    if (square)
      kernels::block::ntt_sub_product<Field, true>(x.data(), b_hat.data(), subs.data(), p, tw, a.data(),
                                                   uint32_t(a.size()), b.data(), uint32_t(b.size()), t, 0, 1, [] {});
    else
      kernels::block::ntt_sub_product<Field, false>(x.data(), b_hat.data(), subs.data(), p, tw, a.data(),
                                                    uint32_t(a.size()), b.data(), uint32_t(b.size()), t, 0, 1, [] {});
  }
  std::vector<uint64_t> r(r_limbs);
  uint64_t prev_hi = 0, carry = 0;
  for (uint32_t j = 0; j < r_limbs; ++j) {
    uint64_t lo, hi;
    kernels::block::ntt_limb_parts<Field>(lo, hi, x.data(), subs.data(), p, tw, j);
    const u128 v = u128(lo) + prev_hi + carry;
    r[j] = uint64_t(v);
    carry = uint64_t(v >> 64);
    prev_hi = hi;
  }
  return r;
}

std::vector<uint64_t> operand(std::mt19937_64& rng, uint32_t limbs, int kind) {
  std::vector<uint64_t> v(limbs);
  for (auto& w : v) w = kind == 0 ? rng() : kind == 1 ? ~uint64_t(0) : (rng() % 3 == 0 ? ~uint64_t(0) : 0);
  return v;
}

TEST(NttHost, ProductsMatchGmpUnsplitAndSplit) {
  std::mt19937_64 rng(test::test_seed() + 1);
  int checked = 0, split_checked = 0;
  for (uint32_t a_limbs : {1u, 2u, 3u, 7u, 16u, 33u, 100u, 256u})
    for (uint32_t b_limbs : {1u, 5u, 16u, 100u, 256u})
      for (uint32_t log_m_max : {1u, 2u, 3u, 4u, 5u, 6u, 8u, 14u})
        for (int kind = 0; kind < 3; ++kind)
          for (bool square : {false, true}) {
            if (square && b_limbs != a_limbs && b_limbs != 1) continue;
            const auto a = operand(rng, a_limbs, kind);
            const auto b = square ? a : operand(rng, b_limbs, kind);
            const uint32_t r_limbs = uint32_t(a.size() + b.size()) + 1;  // one limb past the product
            NttPlan p;
            const auto got = host_mul_ntt(a, b, square, log_m_max, r_limbs, &p);
            std::vector<uint64_t> want(r_limbs, 0);
            if (a.size() >= b.size())
              mpn_mul(reinterpret_cast<mp_limb_t*>(want.data()), reinterpret_cast<const mp_limb_t*>(a.data()),
                      mp_size_t(a.size()), reinterpret_cast<const mp_limb_t*>(b.data()), mp_size_t(b.size()));
            else
              mpn_mul(reinterpret_cast<mp_limb_t*>(want.data()), reinterpret_cast<const mp_limb_t*>(b.data()),
                      mp_size_t(b.size()), reinterpret_cast<const mp_limb_t*>(a.data()), mp_size_t(a.size()));
            ASSERT_EQ(got, want) << "a_limbs " << a_limbs << " b_limbs " << b_limbs << " log_m_max " << log_m_max
                                 << " kind " << kind << " square " << square << " D " << p.d();
            ++checked;
            split_checked += p.log_d > 0;
          }
  EXPECT_GT(split_checked, 50);
  std::printf("NTT host products: %d checked, %d with a split\n", checked, split_checked);
}

TEST(NttHost, PlanSizes) {
  // 2^16-bit operands: 4096 digits each, 8191 product coefficients -> N = 2^13.
  auto p = kernels::block::ntt_plan(1024, 1024, 13, 1024);
  EXPECT_EQ(p.log_n, 13u);
  EXPECT_EQ(p.log_d, 0u);
  EXPECT_EQ(p.threads, 1024u);  // M/8
  p = kernels::block::ntt_plan(4096, 4096, 13, 512);  // 2^18 bits: N = 2^15, D = 4
  EXPECT_EQ(p.log_n, 15u);
  EXPECT_EQ(p.log_d, 2u);
  EXPECT_EQ(p.threads, 512u);
  p = kernels::block::ntt_plan(1, 1, 14, 1024);  // 64 bits: 7 coefficients -> N = 8, 32 threads
  EXPECT_EQ(p.log_n, 3u);
  EXPECT_EQ(p.threads, 32u);
}

}  // namespace
}  // namespace bigtune
