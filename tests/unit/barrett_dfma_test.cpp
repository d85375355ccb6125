// The 52-bit-limb Barrett mulmod (kernels/modular/barrett_dfma.cuh) on the
// host against GMP: the limb split, the partial column sums with their folded
// exponent constants, mu from the prep code, the corrections and the rolled
// product (the same results as the unrolled one), for odd moduli from 989 to
// 1024 bits and operands at the edges (0, 1, m - 1, m, all ones, runs). The
// host build forms each limb product's two halves with integer arithmetic;
// the GPU tests run the DFMA form.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/modular/barrett_dfma.cuh"

namespace bigtune {
namespace {

using kernels::modular::BarrettDfma;

void to_words(uint64_t* w, const mpz_t v) {
  for (int i = 0; i < 16; ++i) w[i] = 0;
  size_t n = 0;
  mpz_export(w, &n, -1, 8, 0, 0, v);
  ASSERT_LE(n, 16u);
}

void to_u32(uint32_t* w, const mpz_t v) {
  for (int i = 0; i < 32; ++i) w[i] = 0;
  size_t n = 0;
  mpz_export(w, &n, -1, 4, 0, 0, v);
  ASSERT_LE(n, 32u);
}

// The rolled product's form (product_limbs_rolled): b's limbs as double bit
// patterns in slots `stride` apart (shared memory on the GPU), U limbs of b
// a pass.
template <int U>
void mulmod_rolled(uint64_t* r, const uint64_t* a, const uint64_t* b, const BarrettDfma& c) {
  namespace dfma = kernels::modular::dfma;
  constexpr int kStride = 3;
  double bd[dfma::kK];
  dfma::words_to_limbs(bd, b);
  uint64_t slots[dfma::kK * kStride];
  for (uint64_t& v : slots) v = 0x5555555555555555ull;  // the slots between are not touched
  for (int j = 0; j < dfma::kK; ++j) slots[j * kStride] = dfma::double_to_bits(bd[j]);
  kernels::modular::barrett_dfma_mulmod_rolled<U>(r, a, slots, kStride, c);
  for (int j = 0; j < dfma::kK; ++j) {
    ASSERT_EQ(slots[j * kStride + 1], 0x5555555555555555ull);
    ASSERT_EQ(slots[j * kStride + 2], 0x5555555555555555ull);
  }
}

TEST(BarrettDfma, LimbsRoundTrip) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 51);
  mpz_t v, back;
  mpz_inits(v, back, nullptr);
  for (int k = 0; k < 50; ++k) {
    mpz_rrandomb(v, rng, 1024);
    uint64_t w[16], out[16], limbs[21] = {};
    to_words(w, v);
    double d[20];
    kernels::modular::dfma::words_to_limbs(d, w);
    for (int j = 0; j < 20; ++j) limbs[j] = uint64_t(d[j]);
    kernels::modular::dfma::limbs_to_words(out, limbs);
    mpz_import(back, 16, -1, 8, 0, 0, out);
    ASSERT_EQ(mpz_cmp(v, back), 0);
  }
  mpz_clears(v, back, nullptr);
  gmp_randclear(rng);
}

TEST(BarrettDfma, MulmodMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 52);
  mpz_t m, a, b, want, got, mu;
  mpz_inits(m, a, b, want, got, mu, nullptr);
  uint64_t cases = 0, corrections_seen[6] = {};
  for (int mk = 0; mk < 40; ++mk) {
    const int bits = mk < 4 ? 1024 : mk < 8 ? 989 : 989 + int(gmp_urandomm_ui(rng, 36));
    switch (mk % 4) {
      case 0: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;      // 2^b - 1
      case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;  // 2^(b-1) + 1
      case 2: mpz_rrandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
      default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
    }
    uint32_t m32[32];
    to_u32(m32, m);
    BarrettDfma c{};
    kernels::modular::barrett_dfma_setup(c, m32);
    ASSERT_TRUE(c.usable) << bits;
    // mu = floor(2^2080 / m)
    mpz_set_ui(mu, 0), mpz_setbit(mu, 2080), mpz_fdiv_q(mu, mu, m);
    mpz_set_ui(got, 0);
    for (int j = 20; j >= 0; --j) mpz_mul_2exp(got, got, 52), mpz_add_ui(got, got, uint64_t(c.mu[j]));
    ASSERT_EQ(mpz_cmp(got, mu), 0) << bits;
    for (int i = 0; i < 30; ++i) {
      switch (i % 6) {
        case 0: mpz_sub_ui(a, m, 1); break;
        case 1: mpz_set(a, m); break;
        case 2: mpz_set_ui(a, 0), mpz_setbit(a, 1024), mpz_sub_ui(a, a, 1); break;  // all ones
        case 3: mpz_rrandomb(a, rng, 1024); break;
        case 4: mpz_set_ui(a, i / 6); break;  // 0, 1, ...
        default: mpz_urandomb(a, rng, 1024); break;
      }
      switch (i % 5) {
        case 0: mpz_sub_ui(b, m, 1); break;
        case 1: mpz_set_ui(b, 0), mpz_setbit(b, 1024), mpz_sub_ui(b, b, 1); break;
        case 2: mpz_urandomm(b, rng, m); break;
        default: mpz_urandomb(b, rng, 1024); break;
      }
      uint64_t aw[16], bw[16], rw[16];
      to_words(aw, a);
      to_words(bw, b);
      kernels::modular::barrett_dfma_mulmod(rw, aw, bw, c);
      mpz_import(got, 16, -1, 8, 0, 0, rw);
      uint64_t rolled4[16], rolled5[16];
      mulmod_rolled<4>(rolled4, aw, bw, c);
      mulmod_rolled<5>(rolled5, aw, bw, c);
      ASSERT_TRUE(std::equal(rw, rw + 16, rolled4)) << "rolled by 4, bits " << bits << " case " << i;
      ASSERT_TRUE(std::equal(rw, rw + 16, rolled5)) << "rolled by 5, bits " << bits << " case " << i;
      mpz_mul(want, a, b);
      // How many subtractions the estimate needed: floor(x / m) - q3 with
      // q3 from the full q1 mu (the kernel's drops a little more).
      mpz_t q1, q;
      mpz_inits(q1, q, nullptr);
      mpz_fdiv_q_2exp(q1, want, 52 * 19), mpz_mul(q, q1, mu), mpz_fdiv_q_2exp(q, q, 52 * 21);
      mpz_fdiv_q(q1, want, m), mpz_sub(q1, q1, q);
      ++corrections_seen[std::min<unsigned long>(mpz_get_ui(q1), 5)];
      mpz_clears(q1, q, nullptr);
      mpz_mod(want, want, m);
      ASSERT_EQ(mpz_cmp(want, got), 0) << "bits " << bits << " case " << i;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 1200u);
  // The batch reaches both a zero and a nonzero correction count.
  EXPECT_GT(corrections_seen[0], 0u);
  EXPECT_GT(corrections_seen[1] + corrections_seen[2], 0u);
  mpz_clears(m, a, b, want, got, mu, nullptr);
  gmp_randclear(rng);
}

// The squaring form (the pairs i < j once, doubled) against GMP,
// bases >= m included.
TEST(BarrettDfma, SquareMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 53);
  mpz_t m, x, want, got;
  mpz_inits(m, x, want, got, nullptr);
  uint64_t cases = 0;
  for (int mk = 0; mk < 6; ++mk) {
    const int bits = mk < 2 ? 1024 : 989 + int(gmp_urandomm_ui(rng, 36));
    if (mk % 3 == 0) mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1);
    else mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0);
    uint32_t m32[32];
    to_u32(m32, m);
    BarrettDfma c{};
    kernels::modular::barrett_dfma_setup(c, m32);
    ASSERT_TRUE(c.usable);
    for (int i = 0; i < 20; ++i) {
      if (i % 4 == 0) mpz_set_ui(x, 0), mpz_setbit(x, 1024), mpz_sub_ui(x, x, 1);  // all ones
      else if (i % 4 == 1) mpz_sub_ui(x, m, 1);
      else if (i % 4 == 2) mpz_rrandomb(x, rng, 1024);
      else mpz_urandomb(x, rng, 1024);
      uint64_t xw[16], rw[16];
      to_words(xw, x);
      kernels::modular::barrett_dfma_sqrmod(rw, xw, c);
      mpz_import(got, 16, -1, 8, 0, 0, rw);
      mpz_mul(want, x, x), mpz_mod(want, want, m);
      ASSERT_EQ(mpz_cmp(want, got), 0) << "square, bits " << bits << " case " << i;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 120u);
  mpz_clears(m, x, want, got, nullptr);
  gmp_randclear(rng);
}

TEST(BarrettDfma, OnlyOddModuliOfFullSizeAreUsable) {
  mpz_t m;
  mpz_init(m);
  uint32_t m32[32];
  BarrettDfma c{};
  mpz_set_ui(m, 0), mpz_setbit(m, 1023);  // even
  to_u32(m32, m);
  kernels::modular::barrett_dfma_setup(c, m32);
  EXPECT_FALSE(c.usable);
  mpz_set_ui(m, 0), mpz_setbit(m, 987), mpz_add_ui(m, m, 1);  // 988 bits: top 52-bit limb zero
  to_u32(m32, m);
  kernels::modular::barrett_dfma_setup(c, m32);
  EXPECT_FALSE(c.usable);
  mpz_setbit(m, 988);  // 989 bits
  to_u32(m32, m);
  kernels::modular::barrett_dfma_setup(c, m32);
  EXPECT_TRUE(c.usable);
  mpz_clear(m);
}

}  // namespace
}  // namespace bigtune
