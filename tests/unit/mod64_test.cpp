// The 64-bit modular core (kernels/modular/mod64.cuh) compiled for the host
// and checked against GMP: the reciprocal, the remainder steps, mulmod and
// powm for moduli of every bit-length, odd and even, and operands at and
// past the modulus. The GPU tests (tests/gpu/mod_vs_gmp_test.cpp) run the
// kernels on top.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/modular/mod64.cuh"

namespace bigtune {
namespace {

using kernels::modular::Divisor64;
using kernels::modular::make_divisor64;

using u128 = unsigned __int128;

// The moduli: every power of two and its neighbours, small ones, and random
// ones of every bit-length.
std::vector<uint64_t> moduli() {
  std::vector<uint64_t> ms{1, 2, 3, 4, 5, 7, 65537, 0xffffffffull, 0x100000001ull, ~0ull, ~0ull - 1, ~0ull - 58};
  for (int k = 1; k < 64; ++k) {
    const uint64_t p = uint64_t(1) << k;
    ms.push_back(p);
    ms.push_back(p - 1);
    ms.push_back(p + 1);
  }
  std::mt19937_64 rng(20261123);
  for (int bits = 1; bits <= 64; ++bits)
    for (int k = 0; k < 4; ++k) {
      uint64_t m = rng() >> (64 - bits);
      m |= uint64_t(1) << (bits - 1);
      ms.push_back(m);
    }
  return ms;
}

// Operands: the edges around m and 2^64, and random words.
std::vector<uint64_t> operands(uint64_t m, std::mt19937_64& rng) {
  std::vector<uint64_t> xs{0, 1, 2, m - 1, m, m + 1, ~0ull, ~0ull - 1, 0x8000000000000000ull, 0xffffffffull};
  for (int k = 0; k < 6; ++k) xs.push_back(rng());
  for (int k = 0; k < 3; ++k) xs.push_back(m ? rng() % m : 0);
  return xs;
}

TEST(Mod64, ReciprocalIsFloorOf2To128Minus1OverD) {
  for (uint64_t m : moduli()) {
    const Divisor64 D = make_divisor64(m);
    ASSERT_EQ(D.d >> 63, 1u) << m;
    EXPECT_EQ(D.d, m << D.s) << m;
    const u128 want = ~u128(0) / D.d - (u128(1) << 64);
    EXPECT_EQ(D.v, uint64_t(want)) << m;
  }
  EXPECT_EQ(make_divisor64(0).d, 0u);  // m = 0: marked, results 0
}

TEST(Mod64, RemainderStepMatchesDivision) {
  std::mt19937_64 rng(7);
  for (uint64_t m : moduli()) {
    const Divisor64 D = make_divisor64(m);
    for (int k = 0; k < 200; ++k) {
      const uint64_t u1 = k < 3 ? D.d - 1 - k % 2 : rng() % D.d;  // u1 < d, at its top too
      const uint64_t u0 = k == 0 ? ~0ull : rng();
      const u128 u = (u128(u1) << 64) | u0;
      ASSERT_EQ(kernels::modular::rem_2by1(u1, u0, D), uint64_t(u % D.d)) << m << " " << u1 << " " << u0;
    }
  }
}

TEST(Mod64, MulmodMatchesGmp) {
  std::mt19937_64 rng(11);
  mpz_t a, b, mm, want;
  mpz_inits(a, b, mm, want, nullptr);
  uint64_t cases = 0;
  for (uint64_t m : moduli()) {
    const Divisor64 D = make_divisor64(m);
    const std::vector<uint64_t> xs = operands(m, rng);
    mpz_import(mm, 1, -1, 8, 0, 0, &m);
    for (uint64_t x : xs)
      for (uint64_t y : xs) {
        mpz_import(a, 1, -1, 8, 0, 0, &x);
        mpz_import(b, 1, -1, 8, 0, 0, &y);
        mpz_mul(want, a, b);
        mpz_mod(want, want, mm);
        const uint64_t w = mpz_get_ui(want);
        ASSERT_EQ(kernels::modular::mulmod64(x, y, D), w) << x << " * " << y << " mod " << m;
        if (x < m && y < m) ASSERT_EQ(kernels::modular::mulmod64_reduced(x, y, D), w) << x << " * " << y << " mod " << m;
        ++cases;
      }
    ASSERT_EQ(kernels::modular::reduce64(~0ull, D), ~0ull % m) << m;
  }
  EXPECT_GT(cases, 50000u);
  EXPECT_EQ(kernels::modular::mulmod64(5, 7, make_divisor64(0)), 0u);
  mpz_clears(a, b, mm, want, nullptr);
}

TEST(Mod64, PowmMatchesGmpForEveryWindow) {
  std::mt19937_64 rng(13);
  mpz_t x, e, mm, want;
  mpz_inits(x, e, mm, want, nullptr);
  for (uint64_t m : moduli()) {
    const Divisor64 D = make_divisor64(m);
    mpz_import(mm, 1, -1, 8, 0, 0, &m);
    // Exponents: 0, 1, 2, 65537, one word, two words (the window across the
    // word boundary), three words with a zero top word.
    const std::vector<std::vector<uint64_t>> exps{{0}, {1}, {2}, {65537}, {rng()}, {rng(), rng() | 1}, {rng(), ~0ull, 0}};
    for (const auto& ev : exps) {
      const uint64_t base = ev.size() == 1 && ev[0] < 3 ? m - 1 : rng();  // x >= m on the other cases, often
      mpz_import(x, 1, -1, 8, 0, 0, &base);
      mpz_import(e, ev.size(), -1, 8, 0, 0, ev.data());
      mpz_powm(want, x, e, mm);
      for (uint32_t w = 1; w <= kernels::modular::kPowm64MaxWindow; ++w)
        ASSERT_EQ(kernels::modular::powm64(base, ev.data(), uint32_t(ev.size()), D, w), mpz_get_ui(want))
            << base << " ^ (" << ev.size() << " words) mod " << m << " window " << w;
    }
  }
  const uint64_t e0 = 0;
  EXPECT_EQ(kernels::modular::powm64(3, &e0, 1, make_divisor64(1), 4), 0u);  // 3^0 mod 1 = 0
  EXPECT_EQ(kernels::modular::powm64(3, &e0, 0, make_divisor64(7), 4), 1u);  // no exponent words: e = 0
  mpz_clears(x, e, mm, want, nullptr);
}

}  // namespace
}  // namespace bigtune
