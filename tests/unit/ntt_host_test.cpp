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
#include "tests/support/ntt_host.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {
using Field = kernels::arith::Goldilocks;
using kernels::block::NttPlan;
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

TEST(NttHost, ProductsMatchGmpUnsplitAndSplit) {
  std::mt19937_64 rng(test::test_seed() + 1);
  int checked = 0, split_checked = 0;
  test::for_each_ntt_product_case(rng, 14, [&](const test::NttProductCase& c) {
    NttPlan p;
    EXPECT_EQ(test::host_mul_ntt<Field>(c.a, c.b, c.square, c.log_m_max, c.r_limbs, &p), c.want)
        << "a_limbs " << c.a.size() << " b_limbs " << c.b.size() << " log_m_max " << c.log_m_max << " kind " << c.kind << " square "
        << c.square << " D " << p.d();
    ++checked;
    split_checked += p.log_d > 0;
  });
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
