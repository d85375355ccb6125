// The DFMA Montgomery powm (kernels/modular/dfma_montgomery.cuh) on the host
// against GMP: m' by Newton's iteration, the rolled Montgomery product with
// lazy reduction, the conversion by division, the fixed windows across
// exponent words, e = 0 and 1, m = 1, bases >= m, moduli of one limb to
// 1024 bits. The host build forms each limb product's halves with integer
// arithmetic; the GPU tests (ModDfma) run the DFMA form.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/modular/dfma_montgomery.cuh"

namespace bigtune {
namespace {

namespace dmont = kernels::modular::dmont;

void to_words(uint64_t* w, int n, const mpz_t v) {
  for (int i = 0; i < n; ++i) w[i] = 0;
  size_t count = 0;
  mpz_export(w, &count, -1, 8, 0, 0, v);
  ASSERT_LE(count, size_t(n));
}

TEST(DfmaMontgomery, NegInverse) {
  for (uint64_t m0 : {1ull, 3ull, 0xfffffffffffffull, 0x123456789abcdull, 0x8000000000001ull}) {
    const uint64_t mp = dmont::neg_inverse52(m0);
    EXPECT_EQ((m0 * mp + 1) & kernels::modular::dfma::kMask52, 0u) << m0;
  }
}

template <int W, int U, dmont::Form F = dmont::Form::kCios, int NW = 16>
void check_powm(const mpz_t x, const mpz_t e, const mpz_t m, const char* what) {
  constexpr int kK = dmont::limbs_for_words<NW>();
  uint64_t xw[NW], mw[NW], rw[NW];
  to_words(xw, NW, x);
  to_words(mw, NW, m);
  std::vector<uint64_t> ew(std::max<size_t>(1, (mpz_sizeinbase(e, 2) + 63) / 64) + 1, 0);
  to_words(ew.data(), int(ew.size()), e);
  constexpr int kStride = 2;
  std::vector<uint64_t> slots(dmont::slots_for<kK, F>() * kStride);
  std::vector<double> table((1u << W) * kK), m_mem(kK);
  std::vector<uint32_t> region(dmont::region_limbs<kK, NW>());
  dmont::powm<NW, W, U, F>(rw, xw, ew.data(), uint32_t(ew.size()), mw, slots.data(), kStride, table.data(),
                           region.data(), m_mem.data());
  mpz_t want, got;
  mpz_inits(want, got, nullptr);
  mpz_powm(want, x, e, m);
  mpz_import(got, NW, -1, 8, 0, 0, rw);
  EXPECT_EQ(mpz_cmp(want, got), 0) << what << ": m of " << mpz_sizeinbase(m, 2) << " bits, e of "
                                   << mpz_sizeinbase(e, 2) << " bits";
  mpz_clears(want, got, nullptr);
}

TEST(DfmaMontgomery, PowmMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 61);
  mpz_t x, e, m;
  mpz_inits(x, e, m, nullptr);
  const int sizes[] = {1, 2, 52, 53, 64, 104, 500, 988, 989, 1000, 1023, 1024};
  int cases = 0;
  for (int bits : sizes) {
    for (int kind = 0; kind < 4; ++kind) {
      switch (kind) {
        case 0: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;  // 2^b - 1 (1 at b = 1)
        case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;  // 2^(b-1) + 1
        case 2: mpz_rrandomb(m, rng, bits), mpz_setbit(m, 0); break;                   // runs
        default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
      }
      for (int i = 0; i < 4; ++i) {
        switch (i) {
          case 0: mpz_sub_ui(x, m, 1); break;
          case 1: mpz_set_ui(x, 0), mpz_setbit(x, 1024), mpz_sub_ui(x, x, 1); break;  // >= m, all ones
          case 2: mpz_urandomb(x, rng, 1024); break;
          default: mpz_urandomm(x, rng, m); break;
        }
        switch ((i + kind) % 4) {
          case 0: mpz_set_ui(e, 65537); break;
          case 1: mpz_urandomb(e, rng, 1024); break;
          case 2: mpz_set_ui(e, 0), mpz_setbit(e, 200), mpz_sub_ui(e, e, 1); break;  // ones across words
          default: mpz_rrandomb(e, rng, 131); break;
        }
        check_powm<5, 2>(x, e, m, "w5 u2");
        check_powm<5, 2, dmont::Form::kCiosSquare>(x, e, m, "w5 u2 squarings");
        ++cases;
      }
    }
  }
  // e = 0, e = 1, x = 0, and the other window and pass sizes.
  mpz_set_ui(m, 0), mpz_setbit(m, 1023), mpz_setbit(m, 0);
  mpz_urandomb(x, rng, 1024);
  mpz_set_ui(e, 0);
  check_powm<5, 2>(x, e, m, "e = 0");
  mpz_set_ui(e, 1);
  check_powm<5, 2>(x, e, m, "e = 1");
  mpz_set_ui(x, 0);
  mpz_set_ui(e, 12345);
  check_powm<5, 2>(x, e, m, "x = 0");
  mpz_set_ui(m, 1);
  mpz_set_ui(e, 0);
  check_powm<5, 2>(x, e, m, "m = 1, e = 0");
  mpz_urandomb(x, rng, 1024);
  mpz_urandomb(m, rng, 1024), mpz_setbit(m, 0);
  mpz_urandomb(e, rng, 1024);
  check_powm<4, 2>(x, e, m, "w4 u2");
  check_powm<4, 4>(x, e, m, "w4 u4");
  check_powm<5, 5>(x, e, m, "w5 u5");
  check_powm<4, 4, dmont::Form::kCiosSquare>(x, e, m, "w4 u4 squarings");
  mpz_set_ui(e, 0);
  check_powm<4, 2, dmont::Form::kCiosSquare>(x, e, m, "squarings, e = 0");
  mpz_set_ui(m, 1);
  mpz_set_ui(e, 77);
  check_powm<4, 2, dmont::Form::kCiosSquare>(x, e, m, "squarings, m = 1");
  EXPECT_EQ(cases, 192);
  mpz_clears(x, e, m, nullptr);
  gmp_randclear(rng);
}

// 2048 bits: k = 40 limbs, the SOS forms (the product in two passes, m's
// limbs from memory; squarings as products or by halves).
TEST(DfmaMontgomery, Powm2048MatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 62);
  mpz_t x, e, m;
  mpz_inits(x, e, m, nullptr);
  EXPECT_EQ(dmont::limbs_for_words<32>(), 40);
  EXPECT_EQ(dmont::limbs_for_words<16>(), 20);
  int cases = 0;
  for (int bits : {1, 64, 1025, 1500, 2047, 2048}) {
    for (int kind = 0; kind < 3; ++kind) {
      switch (kind) {
        case 0: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;
        case 1: mpz_rrandomb(m, rng, bits), mpz_setbit(m, 0); break;
        default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
      }
      if (kind == 0) mpz_set_ui(x, 0), mpz_setbit(x, 2048), mpz_sub_ui(x, x, 1);  // all ones, >= m
      else mpz_urandomb(x, rng, 2048);
      if (kind == 2) mpz_urandomb(e, rng, 2048);
      else mpz_rrandomb(e, rng, 300);
      check_powm<6, 2, dmont::Form::kSos, 32>(x, e, m, "2048 sos w6");
      check_powm<6, 2, dmont::Form::kSosSquare, 32>(x, e, m, "2048 sos squarings w6");
      check_powm<5, 2, dmont::Form::kSosSquare, 32>(x, e, m, "2048 sos squarings w5");
      ++cases;
    }
  }
  mpz_set_ui(e, 0);
  check_powm<6, 2, dmont::Form::kSosSquare, 32>(x, e, m, "2048, e = 0");
  mpz_set_ui(m, 1), mpz_set_ui(e, 5);
  check_powm<6, 2, dmont::Form::kSosSquare, 32>(x, e, m, "2048, m = 1");
  EXPECT_EQ(cases, 18);
  mpz_clears(x, e, m, nullptr);
  gmp_randclear(rng);
}

// mulmod for a modulus per instance (dmont::mulmod: a R mod m by division,
// one Montgomery product with b), operands above m included.
TEST(DfmaMontgomery, MulmodMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 64);
  mpz_t a, b, m, want, got;
  mpz_inits(a, b, m, want, got, nullptr);
  int cases = 0;
  for (int bits : {1, 2, 52, 64, 300, 989, 1023, 1024}) {
    for (int i = 0; i < 12; ++i) {
      switch (i % 3) {
        case 0: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;
        case 1: mpz_rrandomb(m, rng, bits), mpz_setbit(m, 0); break;
        default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
      }
      if (i % 4 == 0) mpz_set_ui(a, 0), mpz_setbit(a, 1024), mpz_sub_ui(a, a, 1);  // all ones, >= m
      else mpz_urandomb(a, rng, 1024);
      if (i % 4 == 1) mpz_sub_ui(b, m, 1);
      else if (i % 4 == 2) mpz_set_ui(b, 0), mpz_setbit(b, 1024), mpz_sub_ui(b, b, 1);
      else mpz_urandomb(b, rng, 1024);
      uint64_t aw[16], bw[16], mw[16], rw[16], slots[dmont::limbs_for_words<16>() * 3];
      uint32_t region[dmont::region_limbs<dmont::limbs_for_words<16>(), 16>()];
      to_words(aw, 16, a);
      to_words(bw, 16, b);
      to_words(mw, 16, m);
      dmont::mulmod<16, 2>(rw, aw, bw, mw, slots, 3, region);
      mpz_import(got, 16, -1, 8, 0, 0, rw);
      mpz_mul(want, a, b), mpz_mod(want, want, m);
      EXPECT_EQ(mpz_cmp(want, got), 0) << "m of " << bits << " bits, case " << i;
      ++cases;
    }
  }
  EXPECT_EQ(cases, 96);
  mpz_clears(a, b, m, want, got, nullptr);
  gmp_randclear(rng);
}

// The other registered shapes: 128, 256, 512 and 1536 bits (k = 3, 5, 10, 30;
// the odd k rolled one whole pass).
TEST(DfmaMontgomery, PowmOtherSizesMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 63);
  mpz_t x, e, m;
  mpz_inits(x, e, m, nullptr);
  EXPECT_EQ(dmont::limbs_for_words<2>(), 3);
  EXPECT_EQ(dmont::limbs_for_words<4>(), 5);
  EXPECT_EQ(dmont::limbs_for_words<8>(), 10);
  EXPECT_EQ(dmont::limbs_for_words<24>(), 30);
  for (int i = 0; i < 12; ++i) {
    const auto make = [&](int bits) {
      if (i % 3 == 0) mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1);
      else mpz_urandomb(m, rng, bits - i), mpz_setbit(m, 0);
      if (i % 4 == 0) mpz_set_ui(x, 0), mpz_setbit(x, bits), mpz_sub_ui(x, x, 1);
      else mpz_urandomb(x, rng, bits);
      if (i % 2) mpz_urandomb(e, rng, bits);
      else mpz_rrandomb(e, rng, 70 + i);
    };
    make(128);
    check_powm<3, 3, dmont::Form::kCiosSquare, 2>(x, e, m, "128 bits");
    make(256);
    check_powm<4, 5, dmont::Form::kCiosSquare, 4>(x, e, m, "256 bits");
    make(512);
    check_powm<4, 2, dmont::Form::kCiosSquare, 8>(x, e, m, "512 bits w4");
    check_powm<5, 2, dmont::Form::kCiosSquare, 8>(x, e, m, "512 bits w5");
    make(1536);
    check_powm<6, 2, dmont::Form::kSos, 24>(x, e, m, "1536 bits sos");
    check_powm<5, 2, dmont::Form::kCiosSquare, 24>(x, e, m, "1536 bits cios");
  }
  mpz_clears(x, e, m, nullptr);
  gmp_randclear(rng);
}

}  // namespace
}  // namespace bigtune
