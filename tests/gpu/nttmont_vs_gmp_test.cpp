// The NTT Montgomery powm on R = 2^N' + 1 (powm.nttmont.u64.q1.w{5,6},
// kernels/modular/nttmont_powm.cuh, session 14) on the GPU against GMP:
// fixed and sliding windows, per-instance odd moduli prime to R (the kernel's own path) at sizes from
// one word to the 2^16-bit limit (plans of 128 to 2048 points, odd sizes
// padded to N'), operands m - 1, reduced, all ones (>= m), runs, uniform;
// exponents 0, 1, 65537, all ones, full and half length; shared moduli and
// exponents; the rare values the kernel takes on a serial path (T+ = 2^N',
// q = 2^N'); and batches with a modulus it refuses (even, 1, a factor of R)
// that run the Barrett powm instead. Small sizes for the sanitizers.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/mod_check.hpp"
#include "tests/gpu/unsupported_past.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

constexpr const char* kW5 = "powm.nttmont.u64.q1.w5";
constexpr const char* kW6 = "powm.nttmont.u64.q1.w6";
constexpr const char* kSW8 = "powm.nttmont.u64.q1.sw8";  // sliding windows

uint64_t words_for(uint64_t bits) { return (bits + 63) / 64; }
// N' of the kernel for `bits` (nttmont_layout.hpp): 32 M, M = max(128, 2^ceil(log2(2 n))).
uint64_t r_bits_for(uint64_t bits) {
  uint64_t m = 128;
  while (m < 2 * words_for(bits)) m *= 2;
  return 32 * m;
}

// An odd modulus of `bits` bits (top bit set unless `small`) prime to R.
void eligible_modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, int kind) {
  mpz_t r, g;
  mpz_inits(r, g, nullptr);
  mpz_setbit(r, r_bits_for(bits)), mpz_add_ui(r, r, 1);
  do {
    if (kind == 0) mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1);
    else if (kind == 1) mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1);  // 2^b - 1
    else if (kind == 2) mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1);
    else if (kind == 3) mpz_rrandomb(m, rng, bits);
    else mpz_urandomb(m, rng, 1 + bits / 2);
    mpz_setbit(m, 0);
    if (mpz_cmp_ui(m, 1) == 0) mpz_set_ui(m, 3);
    mpz_gcd(g, m, r);
    kind = 0;  // a retry: random
  } while (mpz_cmp_ui(g, 1) != 0);
  mpz_clears(r, g, nullptr);
}

struct PowmBatch {
  uint64_t bits, count;
  bool shared_m = false, shared_e = false;
  test::MpzVector a, e, m, r;
  PowmBatch(uint64_t b, uint64_t c, bool sm, bool se)
      : bits(b), count(c), shared_m(sm), shared_e(se), a(c), e(se ? 1 : c), m(sm ? 1 : c), r(c) {}
};

// A seeded GMP random state for one test.
struct Rng {
  gmp_randstate_t s;
  explicit Rng(uint64_t offset) {
    gmp_randinit_default(s);
    gmp_randseed_ui(s, test::test_seed() + offset);
  }
  ~Rng() { gmp_randclear(s); }
  Rng(const Rng&) = delete;
  Rng& operator=(const Rng&) = delete;
};

// Runs the batch on `variant` (null: the default plan), returns mismatches
// (the first three reported).
uint64_t run_batch(Context& ctx, PowmBatch& b, uint64_t ebits, const char* variant, const std::string& what) {
  Batch da(ctx, b.bits, b.count), de(ctx, ebits, b.shared_e ? 1 : b.count), dm(ctx, b.bits, b.shared_m ? 1 : b.count),
      dr(ctx, b.bits, b.count);
  da.from_mpz(b.a.v.data(), b.count);
  de.from_mpz(b.e.v.data(), b.shared_e ? 1 : b.count);
  dm.from_mpz(b.m.v.data(), b.shared_m ? 1 : b.count);
  if (variant != nullptr) {
    const Plan plan{variant, 1, "explicit", 0.0};
    ctx.powm(dr, da, de, dm, &plan);
  } else {
    ctx.powm(dr, da, de, dm);
  }
  ctx.synchronize();
  dr.to_mpz(b.r.v.data(), b.count);
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < b.count; ++i) {
    const mpz_t& m = b.m.v[b.shared_m ? 0 : i];
    mpz_powm(want, b.a.v[i], b.e.v[b.shared_e ? 0 : i], m);
    if (mpz_cmp(want, b.r.v[i]) != 0 && ++bad <= 3)
      ADD_FAILURE() << what << " " << (variant ? variant : "default plan") << " bits " << b.bits << " instance " << i
                    << "\n  a    = " << test::hex(b.a.v[i]) << "\n  m    = " << test::hex(m)
                    << "\n  want = " << test::hex(want) << "\n  got  = " << test::hex(b.r.v[i]);
  }
  mpz_clear(want);
  return bad;
}

TEST(NttMontVsGmp, PowmSizesOperandsExponents) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  Rng rs(1420);
  auto& rng = rs.s;
  uint64_t bad = 0, instances = 0;
  struct Size {
    uint64_t bits, ebits, count;
  };
  // Full exponents to 16 Kbit; GMP takes ~30 s for one full 64-Kbit powm, so shorter ones above.
  for (const Size s : {Size{64, 64, 12}, Size{1000, 1000, 12}, Size{4096, 4096, 10}, Size{9000, 9000, 8},
                       Size{16384, 16384, 6}, Size{16385, 600, 10}, Size{32768, 500, 10}, Size{40001, 300, 8},
                       Size{65536, 300, 8}}) {
    for (const char* v : {kW5, kW6, kSW8}) {
      for (int shape = 0; shape < 3; ++shape) {  // per instance, shared modulus, shared exponent
        PowmBatch b(s.bits, s.count, shape == 1, shape == 2);
        for (uint64_t i = 0; i < b.m.v.size(); ++i) eligible_modulus(b.m.v[i], rng, s.bits, int(i % 5));
        for (uint64_t i = 0; i < s.count; ++i)
          test::make_mod_operand(b.a.v[i], rng, s.bits, b.m.v[b.shared_m ? 0 : i], i);
        for (uint64_t i = 0; i < b.e.v.size(); ++i)
          test::make_exponent_of_kind(b.e.v[i], rng, s.ebits, shape == 2 ? 4 : i);
        bad += run_batch(ctx, b, s.ebits, v, "sizes");
        instances += s.count;
      }
    }
  }
  std::printf("[ nttmont sizes ] %llu instances, %llu mismatches\n", (unsigned long long)instances,
              (unsigned long long)bad);
  EXPECT_EQ(bad, 0u);
}

// The serial paths: T+ = x~^2 mod R = 2^N' for x~ = 2^(N'/2) (x = x~ R^-1 mod
// m), and q = 2^N' for t = m (m = f^2, x~ = f); e = 2 and 3 square x~ first
// (table[2] = x~ x~ / R, then the squarings); and a 2^N'-sized all-ones
// modulus prime to R.
TEST(NttMontVsGmp, RareValuesOnTheSerialPath) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  Rng rs(1421);
  auto& rng = rs.s;
  uint64_t bad = 0;
  for (uint64_t bits : {4096ull, 32768ull, 65536ull}) {
    const uint64_t rb = r_bits_for(bits);
    PowmBatch b(bits, 8, false, false);
    mpz_t r, rinv, f;
    mpz_inits(r, rinv, f, nullptr);
    mpz_setbit(r, rb), mpz_add_ui(r, r, 1);
    for (uint64_t i = 0; i < 8; ++i) {
      mpz_t& m = b.m.v[i];
      mpz_t& x = b.a.v[i];
      if (i < 4) {  // T+ = 2^N'
        eligible_modulus(m, rng, bits, i % 2 ? 1 : 0);
        mpz_set_ui(x, 0), mpz_setbit(x, rb / 2);
      } else {  // q = 2^N': m = f^2 with f odd, f < 2^(bits/2)
        do {
          mpz_urandomb(f, rng, bits / 2 - 1), mpz_setbit(f, bits / 2 - 2), mpz_setbit(f, 0);
          mpz_mul(m, f, f);
          mpz_gcd(rinv, m, r);
        } while (mpz_cmp_ui(rinv, 1) != 0);
        mpz_set(x, f);
      }
      ASSERT_NE(mpz_invert(rinv, r, m), 0);
      mpz_mul(x, x, rinv), mpz_mod(x, x, m);  // x = x~ R^-1: table[1] = x~
      mpz_set_ui(b.e.v[i], 2 + i % 2);
    }
    for (const char* v : {kW5, kSW8}) bad += run_batch(ctx, b, 64, v, "rare");
    mpz_clears(r, rinv, f, nullptr);
  }
  EXPECT_EQ(bad, 0u);
}

// A modulus the Montgomery form refuses (even, 1, a multiple of a factor of
// R) anywhere in the batch: the launch runs the Barrett powm for it.
TEST(NttMontVsGmp, RefusedModuliRunBarrett) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<test::ModCase> cases;
  for (uint64_t bits : {1000ull, 16384ull, 40001ull, 65536ull}) {
    cases.push_back({Op::PowM, bits, 10, -1, 200, -1, kW6});  // kinds 0-9 per instance: 1, 2^(b-1), even, 2
    for (int64_t k : {0, 1, 4, 8}) cases.push_back({Op::PowM, bits, 4, k, 200, -1, kW5});  // shared
  }
  EXPECT_EQ(test::run_mod_cases(cases, 1422, "nttmont refused"), 0u);
  // 114689 = 7 2^14 + 1 divides F_12 = 2^4096 + 1, R for 2049 - 4096 bits.
  Context ctx;
  Rng rs(1423);
  auto& rng = rs.s;
  PowmBatch b(3000, 6, false, false);
  for (uint64_t i = 0; i < 6; ++i) {
    eligible_modulus(b.m.v[i], rng, 2980, 0);
    if (i == 3) mpz_mul_ui(b.m.v[i], b.m.v[i], 114689);
    test::make_mod_operand(b.a.v[i], rng, 3000, b.m.v[i], i);
    test::make_exponent_of_kind(b.e.v[i], rng, 500, i);
  }
  EXPECT_EQ(run_batch(ctx, b, 500, kW6, "factor of R"), 0u);
}

// The default plans above 16 Kbit (kernels/preferred_plans.cpp: .sw9 since
// session 14), no explicit plan: odd moduli (the Montgomery path) and a batch
// with an even modulus (the Barrett powm), per instance and shared.
TEST(NttMontVsGmp, DefaultPlanAbove16Kbit) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  Rng rs(1425);
  auto& rng = rs.s;
  uint64_t bad = 0;
  for (uint64_t bits : {16385ull, 32768ull, 32769ull, 65536ull}) {
    std::printf("[ powm default plan ] %llu bits: %s\n", (unsigned long long)bits,
                ctx.plan(Op::PowM, bits, 6).variant.c_str());
    for (int shape = 0; shape < 3; ++shape) {  // odd per instance, odd shared, one even per instance
      PowmBatch b(bits, 6, shape == 1, false);
      for (uint64_t i = 0; i < b.m.v.size(); ++i) {
        eligible_modulus(b.m.v[i], rng, bits, int(i % 5));
        if (shape == 2 && i == 4) mpz_clrbit(b.m.v[i], 0);
      }
      for (uint64_t i = 0; i < 6; ++i) {
        test::make_mod_operand(b.a.v[i], rng, bits, b.m.v[b.shared_m ? 0 : i], i);
        test::make_exponent_of_kind(b.e.v[i], rng, 256, i);
      }
      bad += run_batch(ctx, b, 256, nullptr, "shape " + std::to_string(shape));
    }
  }
  EXPECT_EQ(bad, 0u);
}

TEST(NttMontVsGmp, PastTheLimitIsUnsupported) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  for (const char* v : {kW5, kW6, kSW8}) {
    const Plan plan{v, 1, "explicit", 0.0};
    const std::string why = test::expect_unsupported_past(ctx, Op::PowM, plan, 65537, 65536);
    EXPECT_NE(why.find("65536"), std::string::npos) << why;
  }
}

// Small sizes and few instances, for compute-sanitizer (memcheck, racecheck):
// every phase (spectra, table, squarings, window products, the serial paths,
// the conversion out) on the 128- and 256-point plans.
TEST(NttMontVsGmp, SanitizerSized) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  Rng rs(1424);
  auto& rng = rs.s;
  uint64_t bad = 0;
  for (uint64_t bits : {64ull, 2049ull, 4096ull}) {
    PowmBatch b(bits, 3, false, false);
    for (uint64_t i = 0; i < 3; ++i) {
      eligible_modulus(b.m.v[i], rng, bits, int(i));
      test::make_mod_operand(b.a.v[i], rng, bits, b.m.v[i], i + 2);
      test::make_exponent_of_kind(b.e.v[i], rng, 40, i + 2);
    }
    for (const char* v : {kW5, kSW8}) bad += run_batch(ctx, b, 40, v, "sanitizer");
  }
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
