// The composed Newton division (kernels/block/div_newtonc.hpp) on the CPU:
// the same passes and the same launch sequence (newtonc_run) as the GPU
// variant divmod.newtonc.*, with the passes on the sequential backend
// tests/reference/host_limb_ops.hpp, the batched products as schoolbook
// products, and the instances the fast path hands back divided by the
// DivShinv algorithm (what the GPU fallback runs). Checked against GMP's
// mpz_tdiv_qr; the fast path's coverage (instances it finished) is checked
// too, since a fast path that handed everything to the fallback would pass
// the value checks while being useless.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels/block/div_newtonc.hpp"
#include "kernels/block/div_shinv.hpp"
#include "tests/reference/host_limb_ops.hpp"
#include "tests/support/div_newtonc_batch.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using namespace test::newtonc;  // run_batch, Operands, BatchResult

// Both launch schedules (four passes per Newton step, and the fused two) on
// the same batch; the counts add up.
BatchResult run_both(const std::vector<mpz_t*>& us, const std::vector<mpz_t*>& vs, uint32_t m, uint32_t n) {
  BatchResult r = run_batch(us, vs, m, n, false);
  const BatchResult f = run_batch(us, vs, m, n, true);
  r.cases += f.cases;
  r.bad += f.bad;
  r.fallback += f.fallback;
  return r;
}

// The benchmark's shape (u of m limbs, v of n = m/2 full limbs) and balanced
// shapes with random top bits: every instance must be right, and the fast
// path must finish all of them (divisor top limb nonzero, shift s <= 40 here).
TEST(DivNewtoncAlgorithm, RandomBalancedShapesMatchGmpOnTheFastPath) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed());
  uint64_t cases = 0, bad = 0, fallback = 0;
  const uint32_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 100, 128, 129, 200};
  for (uint32_t n : ns) {
    for (uint32_t m : {n, n + 1, 2 * n - 1, 2 * n}) {
      if (m < n || m > 2 * n || m == 0) continue;
      const size_t k = n <= 33 ? 24 : 6;
      Operands ops(k);
      for (size_t i = 0; i < k; ++i) {
        const uint64_t ubits = 64ull * m - (i % 3 == 0 ? 0 : gmp_urandomm_ui(rng, 64));
        const uint64_t vbits = 64ull * n - gmp_urandomm_ui(rng, 24);  // top limb keeps >= 40 bits
        if (i % 4 == 1) mpz_rrandomb(ops.u[i], rng, ubits); else mpz_urandomb(ops.u[i], rng, ubits);
        if (i % 4 == 2) mpz_rrandomb(ops.v[i], rng, vbits); else mpz_urandomb(ops.v[i], rng, vbits);
        mpz_setbit(ops.v[i], vbits - 1);
      }
      const BatchResult r = run_both(ops.us(), ops.vs(), m, n);
      cases += r.cases;
      bad += r.bad;
      fallback += r.fallback;
    }
  }
  std::printf("div_newtonc host: %llu balanced cases, %llu mismatches, %llu fallbacks (seed %llu)\n",
              (unsigned long long)cases, (unsigned long long)bad, (unsigned long long)fallback,
              (unsigned long long)test::test_seed());
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(fallback, 0u);
  gmp_randclear(rng);
}

// Sizes where the three exact-doubling Newton steps run at several hundred
// limbs (the error they square is largest there), u of 2n limbs, v of n
// limbs with 0..63 leading zero bits in its top limb. All must match GMP; the
// fast path must finish every instance whose divisor lost at most 40 bits
// (the error bound: 2^s times the inverse's ~2^15 ulps stays far below the
// one-estimate fix-up's 2^64 reach); the rest is printed, not asserted.
TEST(DivNewtoncAlgorithm, LargeSizesMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 2);
  for (uint32_t n : {300u, 512u, 777u}) {
    const uint32_t m = 2 * n;
    const size_t k = 8;
    for (int lost : {0, 17, 40, 63}) {
      Operands ops(k);
      for (size_t i = 0; i < k; ++i) {
        mpz_urandomb(ops.u[i], rng, 64ull * m - (i % 2 ? 0 : 5));
        const uint64_t vbits = 64ull * n - uint64_t(lost);
        mpz_urandomb(ops.v[i], rng, vbits);
        mpz_setbit(ops.v[i], vbits - 1);
      }
      const BatchResult r = run_both(ops.us(), ops.vs(), m, n);
      EXPECT_EQ(r.bad, 0u) << "n=" << n << " lost=" << lost;
      if (lost <= 40) EXPECT_EQ(r.fallback, 0u) << "n=" << n << " lost=" << lost;
      std::printf("div_newtonc host n=%u m=%u lost %d bits: %llu cases, %llu fallbacks\n", n, m, lost,
                  (unsigned long long)r.cases, (unsigned long long)r.fallback);
    }
  }
  gmp_randclear(rng);
}

// Shapes and values the fast path does not take or cannot finish: short and
// one-limb divisors, zero, v = 2^k, all ones, u < v, u = v, m > 2n. Every
// answer must still be GMP's (through the fallback where needed).
TEST(DivNewtoncAlgorithm, EdgeDivisorsMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1);
  uint64_t cases = 0, bad = 0, fallback = 0;
  for (uint32_t m : {1u, 2u, 3u, 5u, 8u, 16u, 17u, 33u, 64u}) {
    for (uint32_t n : {1u, 2u, (m + 1) / 2, m}) {
      if (n > m || n == 0) continue;
      const uint64_t bits = 64ull * m, vbits = 64ull * n;
      Operands ops(40);
      size_t k = 0;
      auto next = [&](bool random_u) -> mpz_t& {
        if (random_u) mpz_urandomb(ops.u[k], rng, bits);
        return ops.v[k++];
      };
      mpz_set_ui(next(true), 1);
      mpz_set_ui(next(true), 2);
      for (uint64_t b : {uint64_t(1), uint64_t(63), uint64_t(64), vbits / 2, vbits - 1})
        if (b < vbits) {
          mpz_t& v = next(true);
          mpz_set_ui(v, 0);
          mpz_setbit(v, b);
        }
      {
        mpz_t& v = next(true);
        mpz_set_ui(v, 0);
        mpz_setbit(v, vbits);
        mpz_sub_ui(v, v, 1);  // all ones
      }
      mpz_set_ui(next(true), 0);  // zero divisor
      {
        mpz_t& v = next(true);  // v with one bit in its top limb: shift 63
        mpz_urandomb(v, rng, vbits - 63);
        mpz_setbit(v, vbits - 64);
      }
      if (n == m) {
        for (int t = 0; t < 2; ++t) {  // u = v, then v = u + 1 (u < v unless that overflows)
          mpz_urandomb(ops.u[k], rng, bits);
          mpz_t& v = next(false);
          mpz_set(v, ops.u[k - 1]);
          if (t == 1) mpz_add_ui(v, v, 1);
          if (mpz_sizeinbase(v, 2) > vbits) mpz_sub_ui(v, v, 2);
        }
      }
      {  // all-ones dividend, divisor 2^(vbits-1) and its neighbours
        for (int t = 0; t < 3; ++t) {
          mpz_set_ui(ops.u[k], 0);
          mpz_setbit(ops.u[k], bits);
          mpz_sub_ui(ops.u[k], ops.u[k], 1);
          mpz_t& v = next(false);
          mpz_set_ui(v, 0);
          mpz_setbit(v, vbits - 1);
          if (t == 1) mpz_add_ui(v, v, 1);
          if (t == 2) mpz_sub_ui(v, v, 1);
        }
      }
      mpz_set_ui(ops.u[k], 0);
      mpz_urandomb(next(false), rng, vbits);  // u = 0
      std::vector<mpz_t*> us, vs;
      for (size_t i = 0; i < k; ++i) {
        us.push_back(&ops.u[i]);
        vs.push_back(&ops.v[i]);
      }
      const BatchResult r = run_both(us, vs, m, n);
      cases += r.cases;
      bad += r.bad;
      fallback += r.fallback;
    }
  }
  std::printf("div_newtonc host edges: %llu cases, %llu mismatches, %llu fallbacks\n", (unsigned long long)cases,
              (unsigned long long)bad, (unsigned long long)fallback);
  EXPECT_EQ(bad, 0u);
  gmp_randclear(rng);
}

// The precision schedule: ascending from 1 to n, each step at most doubling.
TEST(DivNewtoncAlgorithm, PrecisionScheduleGrowsToN) {
  for (uint32_t n = 1; n <= 20000; n += (n < 300 ? 1 : 97)) {
    uint32_t ps[64];
    const int k = kernels::block::newtonc_precisions(n, ps);
    ASSERT_GE(k, 1);
    EXPECT_EQ(ps[0], 1u);
    EXPECT_EQ(ps[k - 1], n);
    for (int j = 1; j < k; ++j) {
      EXPECT_GT(ps[j], ps[j - 1]) << "n=" << n;
      EXPECT_LE(ps[j], 2 * ps[j - 1]) << "n=" << n;
    }
  }
}

}  // namespace
}  // namespace bigtune
