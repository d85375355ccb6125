// The warp backend of divmod.newtonc's passes (kernels/block/newtonc_warp_ops.cuh)
// on 32 host fibers per warp (tests/support/warp_emulation.hpp): its
// primitives against the sequential reference (tests/reference/host_limb_ops.hpp)
// on lengths across the 32-limb chunks with carries and borrows rippling
// through every limb, then whole divisions (both launch schedules, every pass
// on the warp backend, products schoolbook) against GMP.
#include "tests/support/warp_emulation.hpp"  // first: the CUDA names, then the kernels

#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "kernels/block/newtonc_warp_ops.cuh"
#include "tests/reference/host_limb_ops.hpp"
#include "tests/support/div_newtonc_batch.hpp"

namespace bigtune {
namespace {

using Limb = uint64_t;
template <int K>
using WarpOps = kernels::block::NewtoncWarpOps<K>;
using namespace test::newtonc;

// Runs f(ops) as one emulated warp; returns lane 0's result.
template <int K, class F>
auto on_warp(F f) {
  decltype(f(std::declval<WarpOps<K>&>())) out{};
  emu::run_warp(0, [&](unsigned lane) {
    WarpOps<K> ops;
    auto r = f(ops);
    if (lane == 0) out = r;
  });
  return out;
}

std::vector<Limb> pattern(std::mt19937_64& rng, uint32_t n, int kind) {
  std::vector<Limb> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    switch (kind) {
      case 0: v[i] = rng(); break;
      case 1: v[i] = ~Limb(0); break;              // all ones: carries through every limb
      case 2: v[i] = 0; break;                     // zero: borrows through every limb
      default: v[i] = rng() % 3 == 0 ? rng() : (rng() & 1 ? ~Limb(0) : 0);  // runs
    }
  }
  return v;
}

template <int K>
void check_primitives() {
  std::mt19937_64 rng(test::test_seed() + K);
  test::HostLimbOps ref;
  uint64_t checks = 0;
  for (uint32_t n : {1u, 5u, 32u, 33u, 65u, 127u, 128u, 129u, 300u}) {
    for (int ka = 0; ka < 4; ++ka)
      for (int kb = 0; kb < 4; ++kb) {
        const std::vector<Limb> a = pattern(rng, n, ka), b = pattern(rng, n, kb);
        const Limb x = (ka + kb) % 2 ? rng() : 1;
        std::vector<Limb> want(n), got(n);
        // add_n, sub_n (in place on a copy: emit writes where a_at reads)
        for (int sub = 0; sub < 2; ++sub) {
          const Limb wc = sub ? ref.sub_n(want.data(), a.data(), b.data(), n) : ref.add_n(want.data(), a.data(), b.data(), n);
          got = a;
          const Limb gc = on_warp<K>([&](WarpOps<K>& o) {
            return sub ? o.sub_n(got.data(), got.data(), b.data(), n) : o.add_n(got.data(), got.data(), b.data(), n);
          });
          ASSERT_EQ(gc, wc) << "n=" << n << " sub=" << sub << " kinds " << ka << kb;
          ASSERT_EQ(got, want) << "n=" << n << " sub=" << sub << " kinds " << ka << kb;
          ++checks;
        }
        for (int sub = 0; sub < 2; ++sub) {  // add_1 / sub_1 with a full-limb operand
          const Limb wc = sub ? ref.sub_1(want.data(), a.data(), n, x) : ref.add_1(want.data(), a.data(), n, x);
          const Limb gc =
              on_warp<K>([&](WarpOps<K>& o) { return sub ? o.sub_1(got.data(), a.data(), n, x) : o.add_1(got.data(), a.data(), n, x); });
          ASSERT_EQ(gc, wc) << "n=" << n << " sub_1=" << sub;
          ASSERT_EQ(got, want) << "n=" << n << " sub_1=" << sub;
          ++checks;
        }
        // pow_sub: B^n - a[0, an)
        const uint32_t an = n - (ka == 3 ? n / 2 : 0);
        ref.pow_sub(want.data(), a.data(), an, n);
        on_warp<K>([&](WarpOps<K>& o) {
          o.pow_sub(got.data(), a.data(), an, n);
          return 0;
        });
        ASSERT_EQ(got, want) << "pow_sub n=" << n;
        // cmp, prec (a against b, and against itself with one limb changed)
        std::vector<Limb> c = a;
        c[rng() % n] ^= Limb(1) << (rng() % 64);
        for (const std::vector<Limb>* y : {&b, static_cast<const std::vector<Limb>*>(&c), &a}) {
          const int w = ref.cmp(a.data(), n, y->data(), n);
          ASSERT_EQ(on_warp<K>([&](WarpOps<K>& o) { return o.cmp(a.data(), n, y->data(), n); }), w) << "cmp n=" << n;
          ++checks;
        }
        ASSERT_EQ(on_warp<K>([&](WarpOps<K>& o) { return o.cmp(a.data(), n, a.data(), n / 2); }),
                  ref.cmp(a.data(), n, a.data(), n / 2));
        ASSERT_EQ(on_warp<K>([&](WarpOps<K>& o) { return o.prec(b.data(), n); }), ref.prec(b.data(), n));
        // copy_shift, overlapping, both directions
        for (int e : {0, 1, 33, -1, -40}) {
          std::vector<Limb> r1 = a, r2 = a;
          std::vector<Limb> src = a;
          ref.copy_shift(r1.data(), n, src.data(), n, e);
          on_warp<K>([&](WarpOps<K>& o) {
            o.copy_shift(r2.data(), n, r2.data(), n, e);
            return 0;
          });
          ASSERT_EQ(r2, r1) << "copy_shift n=" << n << " e=" << e;
          ++checks;
        }
      }
  }
  std::printf("newtonc warp ops, %d limbs per lane: %llu checks\n", K, (unsigned long long)checks);
}
TEST(DivNewtoncWarpOps, PrimitivesMatchTheSequentialReference) {
  check_primitives<1>();
  check_primitives<4>();
}

// Passes on the emulated warp backend, one warp per instance.
template <int K>
struct WarpBackend {
  test::HostLimbOps mul_ops;
  std::vector<uint64_t> fallback;
  void pass(NewtoncPhase ph, const NewtoncArgs& a) {
    for (uint64_t i = 0; i < a.count; ++i) {
      bool ok = true;
      emu::run_warp(0, [&](unsigned lane) {
        WarpOps<K> ops;
        const bool r = kernels::block::newtonc_pass(ops, ph, a, i);
        if (lane == 0) ok = r;
      });
      if (!ok) fallback.push_back(i);
    }
  }
  void product(uint32_t p, const Limb* pa, const Limb* pb, Limb* pr, const NewtoncArgs&, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) mul_ops.mul(pr + i * 2 * p, pa + i * p, p, pb + i * p, p);
  }
};

TEST(DivNewtoncWarpOps, DivisionsMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5);
  uint64_t cases = 0, bad = 0, fallback = 0;
  for (uint32_t n : {1u, 2u, 3u, 5u, 17u, 33u, 65u, 129u}) {
    for (uint32_t m : {n, 2 * n - (n > 1 ? 1 : 0), 2 * n}) {
      const size_t k = 6;
      Operands ops(k);
      for (size_t i = 0; i < k; ++i) {
        mpz_urandomb(ops.u[i], rng, 64ull * m - (i % 2 ? 0 : 7));
        const uint64_t vbits = 64ull * n - (i % 3) * 11;
        if (i == 4) mpz_rrandomb(ops.v[i], rng, vbits); else mpz_urandomb(ops.v[i], rng, vbits);
        mpz_setbit(ops.v[i], vbits - 1);
      }
      if (m == 2 * n) {  // all ones / 2^(64n - 1): the quotient's largest
        mpz_set_ui(ops.u[5], 0);
        mpz_setbit(ops.u[5], 64ull * m);
        mpz_sub_ui(ops.u[5], ops.u[5], 1);
        mpz_set_ui(ops.v[5], 0);
        mpz_setbit(ops.v[5], 64ull * n - 1);
      }
      for (bool fused : {false, true}) {
        const BatchResult r = fused ? run_batch<WarpBackend<4>>(ops.us(), ops.vs(), m, n, true)
                                    : run_batch<WarpBackend<1>>(ops.us(), ops.vs(), m, n, false);
        cases += r.cases;
        bad += r.bad;
        fallback += r.fallback;
      }
    }
  }
  std::printf("newtonc warp passes: %llu cases, %llu mismatches, %llu fallbacks\n", (unsigned long long)cases,
              (unsigned long long)bad, (unsigned long long)fallback);
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(fallback, 0u);
  gmp_randclear(rng);
}

}  // namespace
}  // namespace bigtune
