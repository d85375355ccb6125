// The fused NTT Barrett powm (powm.nttbarrett.u64.q1.w{4,5,6},
// kernels/modular/nttbarrett_powm.cuh, task nttpowm) on the GPU against GMP:
// odd and power-of-two sizes from 2 words to the 2^16-bit limit (9000, 16384,
// 20000, 40001, 65536: transforms of 2^10 - 2^12 points, lead stages 1 and
// 2), moduli per instance and shared of the kinds issue 9 names (1, 2, 2^k,
// 2^k +- 1, even, odd, small, runs, half size), bases >= m (reduced first),
// exponents 0, 1, 65537, all ones, random and full length (per instance and
// shared); just past the limit: Unsupported. Small sizes for the sanitizers.
// The kinds and the case runner: tests/gpu/mod_check.hpp (shared with the
// composed Barrett's barrett_vs_gmp_test.cpp).
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/gmp_reference.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/mod_check.hpp"
#include "tests/gpu/unsupported_past.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using test::ModCase;

uint64_t run_all(const std::vector<ModCase>& cases, uint64_t seed, const char* what) {
  return test::run_mod_cases(cases, seed, std::string("nttbarrett ") + what);
}

constexpr const char* kW4 = "powm.nttbarrett.u64.q1.w4";
constexpr const char* kW5 = "powm.nttbarrett.u64.q1.w5";
constexpr const char* kW6 = "powm.nttbarrett.u64.q1.w6";
constexpr const char* kW6B2 = "powm.nttbarrett.u64.q1.w6.b2";  // 64 registers

// GMP's mpz_powm is the slow side here (a 64-Kbit powm with a full exponent
// takes ~30 s on one host core): full-length exponents at 9000 - 16384 bits,
// shorter ones above.
TEST(NttBarrettVsGmp, PowmSizesModuliExponents) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  // Full-length exponents (kinds 3, 4), every window, per-instance moduli of every kind.
  for (const char* v : {kW4, kW5, kW6}) cases.push_back({Op::PowM, 9000, 10, -1, 9000, -1, v});
  cases.push_back({Op::PowM, 16384, 6, 5, 16384, -1, kW6});
  cases.push_back({Op::PowM, 16384, 4, -1, 16384, 4, kW5});  // one shared full-length exponent
  // Every shared-modulus kind, exponents per instance (0, 1, 65537, all ones, ...).
  for (int64_t k = 0; k < 10; ++k) cases.push_back({Op::PowM, 20000, 6, k, 700, -1, kW6});
  for (uint64_t bits : {16384ull, 16385ull, 32768ull, 40001ull, 65536ull}) {
    cases.push_back({Op::PowM, bits, 10, -1, 300, -1, kW6});
    cases.push_back({Op::PowM, bits, 10, -1, 300, -1, kW6B2});
    cases.push_back({Op::PowM, bits, 6, 4, 300, -1, kW5});  // even shared modulus
    cases.push_back({Op::PowM, bits, 4, 7, 200, -1, kW4});
  }
  // The limit with exponents of 2048 bits (the benchmark's), odd shared modulus and shared exponent.
  cases.push_back({Op::PowM, 65536, 3, 5, 2048, 4, kW6});
  cases.push_back({Op::PowM, 65536, 6, 3, 2048, -1, kW4});  // 2^b - 1
  EXPECT_EQ(run_all(cases, 9700, "sizes"), 0u);
}

// Subtractions of m' after one Barrett reduction of x with the variants'
// arithmetic (barrett.hpp): floor(r / m') for r = (x << s) - q m'.
uint64_t barrett_corrections(const mpz_t x, const mpz_t m, uint64_t big_n) {
  mpz_t mp, mu, xs, q, r;
  mpz_inits(mp, mu, xs, q, r, nullptr);
  const uint64_t s = big_n - mpz_sizeinbase(m, 2);
  mpz_mul_2exp(mp, m, s);
  mpz_set_ui(mu, 0), mpz_setbit(mu, 2 * big_n), mpz_sub_ui(mu, mu, 1), mpz_fdiv_q(mu, mu, mp);
  mpz_mul_2exp(xs, x, s);
  mpz_fdiv_q_2exp(q, xs, big_n), mpz_mul(q, q, mu), mpz_fdiv_q_2exp(q, q, big_n);
  mpz_submul(xs, q, mp);
  mpz_fdiv_q(r, xs, mp);
  const uint64_t c = mpz_get_ui(r);
  mpz_clears(mp, mu, xs, q, r, nullptr);
  return c;
}

// The block-wide glue of session 8 (task nttfuse): q1 all ones but its low
// word (m = 2^b - 1, x = m - 1: q1 = 2^N - 4), 0, 1 and 2 subtractions of m'
// after a reduction (m' = 2^(N-1), 2^(N-1) + 1, 3·2^(N-2), random; x = m - 1,
// m - 2, runs, random), at power-of-two sizes (the finish's word n after the
// last scan segment) and odd ones (inside it). e = 2 and 3: the result is
// table[2] or table[3], a wrong reduction of x^2 is not squared away. The
// host side checks that the batch reaches 0, 1 and 2 subtractions in x^2's
// reduction: a kernel that stopped after one would fail here. (3 and 4 need
// x > m'^2 / 4: reduced operands never give them; barrett.hpp's bound is for
// any x < 2^(2N).)
TEST(NttBarrettVsGmp, ReductionCorrectionsAndCarries) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 9900);
  uint64_t bad = 0, instances = 0, seen[5] = {};
  for (uint64_t bits : {1000ull, 16384ull, 16385ull, 32768ull, 40001ull, 65536ull}) {
    const uint64_t big_n = 64 * ((bits + 63) / 64);
    for (uint32_t mk = 0; mk < 5; ++mk) {
      constexpr uint64_t kCount = 8;
      std::vector<mpz_t> a(kCount), e(kCount), r(kCount);
      mpz_t m, want;
      mpz_inits(m, want, nullptr);
      switch (mk) {
        case 0: mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;          // 2^b - 1
        case 1: mpz_setbit(m, bits - 1); break;                           // 2^(b-1)
        case 2: mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;      // 2^(b-1) + 1
        case 3: mpz_setbit(m, bits - 1), mpz_setbit(m, bits - 2); break;  // 3 * 2^(b-2)
        default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1); break;
      }
      for (uint64_t i = 0; i < kCount; ++i) {
        mpz_inits(a[i], e[i], r[i], nullptr);
        switch (i % 4) {
          case 0: mpz_sub_ui(a[i], m, 1); break;
          case 1: mpz_sub_ui(a[i], m, 2); break;
          case 2: mpz_rrandomb(a[i], rng, bits), mpz_mod(a[i], a[i], m); break;
          default: mpz_urandomm(a[i], rng, m); break;
        }
        mpz_set_ui(e[i], 2 + (i / 4) % 2);
        mpz_mul(want, a[i], a[i]);
        ++seen[std::min<uint64_t>(barrett_corrections(want, m, big_n), 4)];
      }
      Batch da(ctx, bits, kCount), de(ctx, 64, kCount), dm(ctx, bits, 1), dr(ctx, bits, kCount);
      da.from_mpz(a.data(), kCount);
      de.from_mpz(e.data(), kCount);
      dm.from_mpz(&m, 1);
      for (const char* v : {kW4, kW6, kW6B2}) {
        const Plan plan{v, 1, "explicit", 0.0};
        ctx.powm(dr, da, de, dm, &plan);
        ctx.synchronize();
        dr.to_mpz(r.data(), kCount);
        for (uint64_t i = 0; i < kCount; ++i) {
          mpz_powm(want, a[i], e[i], m);
          ++instances;
          if (mpz_cmp(want, r[i]) && ++bad <= 3)
            ADD_FAILURE() << v << " bits " << bits << " modulus kind " << mk << " instance " << i
                          << "\n  a    = " << test::hex(a[i]) << "\n  m    = " << test::hex(m)
                          << "\n  want = " << test::hex(want) << "\n  got  = " << test::hex(r[i]);
        }
      }
      for (uint64_t i = 0; i < kCount; ++i) mpz_clears(a[i], e[i], r[i], nullptr);
      mpz_clears(m, want, nullptr);
    }
  }
  gmp_randclear(rng);
  std::printf("[ nttbarrett corrections ] %llu instances, %llu mismatches; x^2 reductions with 0/1/2/3/4 "
              "subtractions: %llu/%llu/%llu/%llu/%llu\n",
              (unsigned long long)instances, (unsigned long long)bad, (unsigned long long)seen[0],
              (unsigned long long)seen[1], (unsigned long long)seen[2], (unsigned long long)seen[3],
              (unsigned long long)seen[4]);
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(seen[0], 0u);
  EXPECT_GT(seen[1], 0u);
  EXPECT_GT(seen[2], 0u);
}

TEST(NttBarrettVsGmp, PastTheLimitIsUnsupported) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  for (const char* v : {kW4, kW5, kW6, kW6B2}) {
    const Plan plan{v, 1, "explicit", 0.0};
    const std::string why = test::expect_unsupported_past(ctx, Op::PowM, plan, 65537, 65536);
    EXPECT_NE(why.find("65536"), std::string::npos) << why;
  }
}

// Small sizes and few instances, for compute-sanitizer (memcheck,
// racecheck): every phase of the kernel (spectra, table, squarings, window
// products, the block-wide glue) at 8-point (2 words) to 2^10-point transforms.
TEST(NttBarrettVsGmp, SanitizerSized) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  cases.push_back({Op::PowM, 64, 4, -1, 40, -1, kW4});
  cases.push_back({Op::PowM, 65, 4, -1, 30, -1, kW4});
  cases.push_back({Op::PowM, 1000, 3, -1, 20, -1, kW4});
  cases.push_back({Op::PowM, 1000, 3, 4, 12, 3, kW5});
  cases.push_back({Op::PowM, 8193, 2, 5, 10, -1, kW4});
  cases.push_back({Op::PowM, 1000, 3, -1, 12, -1, kW6});
  cases.push_back({Op::PowM, 1000, 3, 5, 12, -1, kW6B2});
  EXPECT_EQ(run_all(cases, 9800, "sanitizer"), 0u);
}

}  // namespace
}  // namespace bigtune
