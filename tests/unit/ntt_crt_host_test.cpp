// CPU tests of the three-prime CRT field (kernels/arith/crt3_field.cuh) and
// of the NTT product over it (kernels/block/ntt.cuh with Field = Crt3): the
// field operations against slow 64-bit remainders, Garner's reconstruction
// against the integer it must return, and the whole product — the kernel's
// phase functions on one "thread", a serial carry in place of the block scan —
// against GMP's mpn_mul, unsplit and split, random and all-ones operands (the
// largest coefficients). The GPU test (tests/gpu/ntt_vs_gmp_test.cpp) covers
// the device-only parts.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt.cuh"
#include "tests/support/ntt_host.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {
using Field = kernels::arith::Crt3;
using Elem = Field::Elem;
using kernels::block::NttPlan;
using u128 = unsigned __int128;

// Plain residue of a Montgomery component: x·2^-32 mod p by the slow route.
uint32_t plain(uint32_t x, int i) {
  const uint64_t p = Field::prime(i);
  uint64_t inv_r = 1;  // 2^-32 mod p: (2^-1)^32, 2^-1 = (p+1)/2
  for (int k = 0; k < 32; ++k) inv_r = inv_r * ((p + 1) / 2) % p;
  return uint32_t(uint64_t(x) * inv_r % p);
}
uint32_t mont_of(uint64_t v, int i) { return uint32_t((u128(v % Field::prime(i)) << 32) % Field::prime(i)); }

TEST(Crt3Field, OpsMatchSlowRemainders) {
  std::mt19937_64 rng(test::test_seed() + 40);
  for (int i = 0; i < 3; ++i) {
    const uint64_t p = Field::prime(i);
    EXPECT_EQ(uint32_t(Field::prime(i) * Field::neg_inv(i)), 0xffffffffu);  // p·(-p^-1) = -1 mod 2^32
    EXPECT_EQ(Field::r1(i), uint32_t((uint64_t(1) << 32) % p));
    EXPECT_EQ(Field::r2(i), uint32_t((u128(1) << 64) % p));
    EXPECT_GT(p, uint64_t(1) << 30);  // the one-subtraction bound of mont()
    EXPECT_LT(p, uint64_t(1) << 31);
    std::vector<uint64_t> vals{0, 1, 2, p - 1, p - 2, p / 2, (uint64_t(1) << 30) - 1};
    for (int k = 0; k < 120; ++k) vals.push_back(rng() % p);
    for (uint64_t a : vals)
      for (uint64_t b : vals) {
        const uint32_t am = mont_of(a, i), bm = mont_of(b, i);
        ASSERT_EQ(plain(Field::sadd(am, bm, i), i), (a + b) % p);
        ASSERT_EQ(plain(Field::ssub(am, bm, i), i), (a + p - b) % p);
        ASSERT_EQ(plain(Field::mont(am, bm, i), i), a * b % p) << a << " " << b << " prime " << i;
        ASSERT_LT(Field::mont(am, bm, i), p);
      }
    // Digits up to 2^32 - 1 (above p) into Montgomery form.
    for (uint64_t d : std::vector<uint64_t>{0, 1, p - 1, p, p + 1, 2 * p, 0xffffffffull, 0x80000000ull, rng() >> 32}) {
      const uint32_t m = Field::from_digit(d).v[i];
      ASSERT_LT(m, p);
      ASSERT_EQ(plain(m, i), d % p) << d;
    }
  }
  for (int k = 1; k <= 20; ++k) {
    const Elem w = Field::root_of_unity(k);
    const Elem whole = Field::pow(w, uint64_t(1) << k), half = Field::pow(w, uint64_t(1) << (k - 1));
    const Elem inv_n = Field::inverse_pow2(k);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(plain(whole.v[i], i), 1u);
      EXPECT_EQ(plain(half.v[i], i), Field::prime(i) - 1);  // primitive: ω^(N/2) = -1
      EXPECT_EQ(uint64_t(plain(inv_n.v[i], i)) * ((uint64_t(1) << k) % Field::prime(i)) % Field::prime(i), 1u);
    }
  }
}

// The Shoup products (crt3_field.cuh Twiddle): any x < 2^32 (not only
// canonical residues: the forward butterfly's unreduced difference reaches 2p
// - 1) times a pair made from a Montgomery-form w, against slow remainders;
// canonical results; a digit times digit_scale(s); the all-ones inputs.
TEST(Crt3Field, ShoupProductsMatchSlowRemainders) {
  std::mt19937_64 rng(test::test_seed() + 44);
  for (int i = 0; i < 3; ++i) {
    const uint64_t p = Field::prime(i);
    std::vector<uint64_t> ws{0, 1, 2, p - 1, p - 2, p / 2, p / 2 + 1};
    std::vector<uint64_t> xs{0, 1, p - 1, p, p + 1, 2 * p - 1, 2 * p, 0xfffffffeull, 0xffffffffull, 0x80000000ull};
    for (int k = 0; k < 60; ++k) ws.push_back(rng() % p), xs.push_back(rng() >> 32);
    for (uint64_t w : ws) {
      Elem wm{};
      wm.v[i] = mont_of(w, i);
      const Field::Twiddle t{Field::twiddle_part(wm, 0), Field::twiddle_part(wm, 1)};
      ASSERT_EQ(t.w.v[i], w);
      const Field::Twiddle sc = Field::digit_scale(wm);
      for (uint64_t x : xs) {
        // x read as a Montgomery component: plain value x·2^-32, times w.
        const uint32_t r = Field::shoup(uint32_t(x), t.w.v[i], t.ws.v[i], i);
        ASSERT_LT(r, p) << x << " " << w;
        ASSERT_EQ(plain(r, i), uint64_t(plain(uint32_t(x % p), i)) * w % p) << x << " " << w << " prime " << i;
        // A raw digit times digit_scale(w): the Montgomery form of x·w.
        const uint32_t d = Field::from_digit_scaled(x, sc).v[i];
        ASSERT_LT(d, p);
        ASSERT_EQ(plain(d, i), x % p * w % p) << x << " " << w;
      }
      for (uint64_t u : {uint64_t(0), uint64_t(1), p - 1, rng() % p})
        for (uint64_t v : {uint64_t(0), uint64_t(1), p - 1, rng() % p}) {
          Elem ue{}, ve{};
          ue.v[i] = uint32_t(u), ve.v[i] = uint32_t(v);
          const uint32_t r = Field::sub_mul_twiddle(ue, ve, t).v[i];
          ASSERT_LT(r, p);
          ASSERT_EQ(r, Field::mont(Field::ssub(uint32_t(u), uint32_t(v), i), wm.v[i], i)) << u << " " << v << " " << w;
        }
    }
  }
}

TEST(Crt3Field, GarnerReturnsTheInteger) {
  std::mt19937_64 rng(test::test_seed() + 41);
  const u128 big_p = u128(Field::prime(0)) * Field::prime(1) * Field::prime(2);
  std::vector<u128> vals{0, 1, big_p - 1, big_p / 2, (u128(1) << 80) - 1, u128(0xffffffffffffffffull),
                         u128(Field::prime(0)) * Field::prime(1)};
  for (int k = 0; k < 5000; ++k) vals.push_back(((u128(rng()) << 64) | rng()) % big_p);
  for (u128 c : vals) {
    Elem e;
    for (int i = 0; i < 3; ++i) e.v[i] = mont_of(uint64_t(c % Field::prime(i)), i);
    uint64_t lo, hi;
    Field::to_integer(e, lo, hi);
    ASSERT_EQ(lo, uint64_t(c));
    ASSERT_EQ(hi, uint64_t(c >> 64));
  }
}

TEST(NttCrtHost, ProductsMatchGmpUnsplitAndSplit) {
  std::mt19937_64 rng(test::test_seed() + 42);
  int checked = 0, split_checked = 0;
  test::for_each_ntt_product_case(rng, 13, [&](const test::NttProductCase& c) {
    NttPlan p;
    EXPECT_EQ(test::host_mul_ntt<kernels::arith::Crt3Packed>(c.a, c.b, c.square, c.log_m_max, c.r_limbs, &p), c.want)
        << "packed elements, a_limbs " << c.a.size() << " b_limbs " << c.b.size() << " log_m_max " << c.log_m_max;
    EXPECT_EQ(test::host_mul_ntt<Field>(c.a, c.b, c.square, c.log_m_max, c.r_limbs, &p), c.want)
        << "a_limbs " << c.a.size() << " b_limbs " << c.b.size() << " log_m_max " << c.log_m_max << " kind " << c.kind << " square "
        << c.square << " D " << p.d();
    ++checked;
    split_checked += p.log_d > 0;
  });
  EXPECT_GT(split_checked, 50);
  std::printf("CRT NTT host products: %d checked, %d with a split\n", checked, split_checked);
}

// All-ones operands at a larger size: 2^16 bits (N = 2^12, D = 1 with
// m12, D = 4 with m10) — the largest coefficients the field must hold.
TEST(NttCrtHost, AllOnesAt64Kbit) {
  std::mt19937_64 rng(test::test_seed() + 43);
  for (uint32_t log_m_max : {10u, 12u}) {
    const auto a = test::ntt_operand(rng, 1024, 1);
    NttPlan p;
    const auto got = test::host_mul_ntt<Field>(a, a, false, log_m_max, 2048, &p);
    EXPECT_EQ(p.log_n, 12u);
    ASSERT_EQ(got, test::gmp_product(a, a, 2048)) << "log_m_max " << log_m_max;
  }
}

// The 2^17- and 2^18-bit products the m12/m13 variants run (nttbig,
// session 5): N = 2^13 unsplit with m13 (one lead stage fused into the load
// and the scaling, ntt.cuh ntt_lead_log), D = 2 with m12 (no lead stage);
// N = 2^14: D = 2 with m13 (the last sub-product kept in shared memory, the
// combine a sum and a difference), D = 4 with m12; random, all-ones and
// 100,003 / 262,145-bit odd sizes (2^14 and 2^15 points), mul and sqr.
TEST(NttCrtHost, LargeProductsLeadStagesAndSplits) {
  std::mt19937_64 rng(test::test_seed() + 44);
  struct Case {
    uint32_t limbs, log_m_max, log_n, log_d;
  };
  const Case cases[] = {{2048, 13, 13, 0}, {2048, 12, 13, 1}, {4096, 13, 14, 1}, {4096, 12, 14, 2},
                        {1563, 13, 13, 0}, {4097, 13, 15, 2}, {4097, 11, 15, 4}};  // 100,003 / 262,145 bits
  for (const Case& c : cases)
    for (int kind : {0, 1})
      for (bool square : {false, true}) {
        const auto a = test::ntt_operand(rng, c.limbs, kind);
        const auto b = square ? a : test::ntt_operand(rng, c.limbs, kind);
        const uint32_t r_limbs = 2 * c.limbs + 1;
        NttPlan p;
        const auto got = test::host_mul_ntt<Field>(a, b, square, c.log_m_max, r_limbs, &p);
        EXPECT_EQ(p.log_n, c.log_n);
        EXPECT_EQ(p.log_d, c.log_d);
        ASSERT_EQ(got, test::gmp_product(a, b, r_limbs))
            << "limbs " << c.limbs << " log_m_max " << c.log_m_max << " kind " << kind << " square " << square;
      }
}

TEST(NttCrtHost, PlanSizes) {
  // 2^16-bit operands: 2048 32-bit digits each, 4095 coefficients -> N = 2^12.
  auto p = kernels::block::ntt_plan(1024, 1024, 12, 512, Field::kDigitBits);
  EXPECT_EQ(p.log_n, 12u);
  EXPECT_EQ(p.log_d, 0u);
  EXPECT_EQ(p.threads, 512u);
  // 2^21 bits (the variants' limit): N = 2^17, D = 16 with m13.
  p = kernels::block::ntt_plan(32768, 32768, 13, 1024, Field::kDigitBits);
  EXPECT_EQ(p.log_n, 17u);
  EXPECT_EQ(p.log_d, 4u);
  EXPECT_LE(p.log_n, uint32_t(Field::kMaxLog));
  // Shared memory: 16-byte elements, carry words 8-byte aligned after them.
  EXPECT_EQ(kernels::block::ntt_carry_offset(p, sizeof(Elem)) % 8, 0u);
  EXPECT_LE(kernels::block::ntt_smem_bytes(p, sizeof(Elem)), 227u * 1024);  // the H100's per-block limit
}

}  // namespace
}  // namespace bigtune
