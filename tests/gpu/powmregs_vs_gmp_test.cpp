// The warp powm variant of task powmregs (kernels/variants/
// warp_mod_regs_instances.cu: powm.bgsqr.u32.q16.l32.w6, 16 Kbit; the
// register-capped "...t128b<B>" variants this test also ran were dropped)
// against GMP: each at its limit, an odd size one word short of it, a partial size
// (S < L blocks: the squaring's shifted high half), 300 bits and (Q = 8) 65
// bits; moduli per instance of every kind (odd full, 2^(b-1) + 1, 2^b - 1,
// 1, even through the thread family's fallback, small odd), shared odd, even
// and 1; x of every operand kind (often >= m: reduced, as documented);
// exponents 0, 1, 65537, short random, 64 ones and (up to 4096 bits, odd
// moduli) full length; the largest block and one instance a block; and just
// past the limit: Unsupported. Full-length exponents at 8 and 16 Kbit run in
// warp_mod_vs_gmp_test.cpp (WarpModVsGmp.PowmFullExponents covers every warp
// powm variant). $BIGTUNE_TEST_VARIANTS narrows the variants,
// $BIGTUNE_TEST_MAX_BITS the sizes (sanitizer runs).
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/validate.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/mod_check.hpp"
#include "tests/gpu/unsupported_past.hpp"
#include "tests/gpu/variant_filter.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

enum class Mod { PerInstance, PerInstanceOdd, SharedOdd, SharedEven, SharedOne };

void make_modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint64_t i) {
  switch (i % 7) {
    case 0: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;  // 2^(b-1) + 1
    case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;      // 2^b - 1
    case 2: mpz_set_ui(m, 1); break;
    case 3: mpz_urandomb(m, rng, bits), mpz_clrbit(m, 0), mpz_setbit(m, bits - 1); break;  // even, full
    case 4: mpz_urandomb(m, rng, 1 + i % 40), mpz_setbit(m, 0); break;                      // small odd
    default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;  // odd, full
  }
  mpz_tdiv_r_2exp(m, m, bits);
  if (mpz_sgn(m) == 0) mpz_set_ui(m, 1);
}

// Exponent of instance i: full length only where `full` (odd modulus, small
// enough for the fallback-free path to be quick).
void make_exponent(mpz_t e, gmp_randstate_t rng, uint64_t bits, uint64_t i, bool full) {
  switch (i % 6) {
    case 0: mpz_set_ui(e, 0); break;
    case 1: mpz_set_ui(e, 1); break;
    case 2: mpz_set_ui(e, 65537); break;
    case 3: mpz_urandomb(e, rng, 40); break;
    case 4: mpz_set_ui(e, 0), mpz_setbit(e, 64), mpz_sub_ui(e, e, 1); break;  // 64 ones
    default:
      if (full)
        mpz_urandomb(e, rng, bits), mpz_setbit(e, bits - 1);
      else
        mpz_urandomb(e, rng, 64);
      break;
  }
  mpz_tdiv_r_2exp(e, e, bits);
}

// v null: the default plan (no explicit plan). full_to: full-length
// exponents (odd moduli only) up to this many bits.
uint64_t run_case(Context& ctx, const kernels::Variant* v, uint64_t bits, uint32_t ipb, uint64_t count, Mod mode,
                  gmp_randstate_t rng, uint64_t full_to = 4096) {
  const uint64_t mc = mode == Mod::PerInstance || mode == Mod::PerInstanceOdd ? count : 1;
  std::vector<mpz_t> x(count), e(count), m(mc), r(count);
  for (uint64_t i = 0; i < mc; ++i) {
    mpz_init(m[i]);
    switch (mode) {
      case Mod::PerInstance: make_modulus(m[i], rng, bits, i); break;
      case Mod::PerInstanceOdd: make_modulus(m[i], rng, bits, i % 7 == 3 ? 5 : i); break;  // no even one
      case Mod::SharedOdd: make_modulus(m[i], rng, bits, 5); break;
      case Mod::SharedEven: make_modulus(m[i], rng, bits, 3); break;
      case Mod::SharedOne: mpz_set_ui(m[i], 1); break;
    }
  }
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(x[i], e[i], r[i], nullptr);
    test::make_operand(x[i], rng, bits, static_cast<test::OperandKind>(i % test::kOperandKinds));
    const bool odd = mpz_odd_p(m[i % mc]) != 0;
    make_exponent(e[i], rng, bits, i, odd && bits <= full_to);
  }
  Batch dx(ctx, bits, count), de(ctx, bits, count), dm(ctx, bits, mc), dr(ctx, bits, count);
  dx.from_mpz(x.data(), count);
  de.from_mpz(e.data(), count);
  dm.from_mpz(m.data(), mc);
  test::poison(dr);
  const std::string name = v ? v->name : ctx.plan(Op::PowM, bits, count).variant;
  const Plan plan{name, ipb, "explicit", 0.0};
  ctx.powm(dr, dx, de, dm, v ? &plan : nullptr);
  ctx.synchronize();
  dr.to_mpz(r.data(), count);
  const uint64_t bad = test::count_mod_mismatches(Op::PowM, bits, bits, x, e, m, r,
                                                  name + " ipb " + std::to_string(ipb) + " mode " +
                                                      std::to_string(int(mode)));
  for (uint64_t i = 0; i < count; ++i) mpz_clears(x[i], e[i], r[i], nullptr);
  for (uint64_t i = 0; i < mc; ++i) mpz_clear(m[i]);
  return bad;
}

TEST(PowmRegsVsGmp, Variants) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 7700);
  const kernels::DeviceLimits limits = test::device_limits();
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    const bool mine = v.name.find("bgsqr.u32.q16.l32.") != std::string::npos;
    if (v.op != kernels::Op::PowM || !mine) continue;
    if (!test::selected_by_env("BIGTUNE_TEST_VARIANTS", v.name)) continue;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    std::vector<uint64_t> sizes{limit, limit - 33, limit / 2 + 65, 300};
    if (v.q == 8) sizes.push_back(65);
    for (uint64_t bits : sizes) {
      if (bits > cap) continue;
      const uint64_t count = bits > 4096 ? 7 : 23;  // not a multiple of the instances per block
      const uint32_t lanes = kernels::threads_per_instance(v, bits);
      const uint32_t most = v.max_threads / lanes;
      for (uint32_t ipb : {most, 1u}) {
        if (!kernels::why_invalid(v, bits, count, ipb, limits).empty()) {
          ADD_FAILURE() << v.name << " rejects " << bits << " bits, ipb " << ipb << ": "
                        << kernels::why_invalid(v, bits, count, ipb, limits);
          continue;
        }
        for (Mod mode : {Mod::PerInstance, Mod::SharedOdd, Mod::SharedEven, Mod::SharedOne}) {
          if (ipb == 1 && mode != Mod::PerInstance) continue;  // one instance a block: per-instance moduli only
          bad += run_case(ctx, &v, bits, ipb, count, mode, rng);
          ++cases;
        }
      }
    }
    // Just past the limit: Unsupported, never a wrong result.
    test::expect_unsupported_past(ctx, Op::PowM, Plan{v.name, 1, "explicit", 0.0}, limit + 1, limit);
  }
  gmp_randclear(rng);
  std::printf("[ powm, powmregs warp variants ] %llu variants, %llu cases, %llu mismatches\n",
              (unsigned long long)variants, (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The default plan at 16 Kbit (kernels/preferred_plans.cpp: the full-warp
// squaring kernel from 14849 bits): moduli per instance of every kind (a call
// with an even one runs the composed Barrett powm, warp_mod_launch.cu), the
// same without the even one (the warp kernel), with full-length exponents,
// and a shared odd and even modulus.
TEST(PowmRegsVsGmp, DefaultPlan16Kbit) {
  BIGTUNE_REQUIRE_GPU();
  if (test::max_bits_cap() < 16384) GTEST_SKIP() << "BIGTUNE_TEST_MAX_BITS below 16384";
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 7800);
  uint64_t bad = 0;
  for (uint64_t bits : {16384u, 14849u}) {
    std::printf("[ powm default plan ] %llu bits: %s\n", (unsigned long long)bits,
                ctx.plan(Op::PowM, bits, 13).variant.c_str());
    bad += run_case(ctx, nullptr, bits, 0, 13, Mod::PerInstance, rng, 16384);
    bad += run_case(ctx, nullptr, bits, 0, 13, Mod::PerInstanceOdd, rng, 16384);
    bad += run_case(ctx, nullptr, bits, 0, 13, Mod::SharedOdd, rng, 0);
    bad += run_case(ctx, nullptr, bits, 0, 13, Mod::SharedEven, rng, 0);
  }
  gmp_randclear(rng);
  EXPECT_EQ(bad, 0u);
}

// The default plans at 2-8 Kbit (kernels/preferred_plans.cpp: bgsqr q8.l8,
// q16.l8, q16.l16; task powmicache: their block sizes), no explicit plan:
// each size's top and an odd size of the same plan, moduli per instance of
// every kind (the even ones through the fallback), per instance all odd with
// full-length exponents up to 4 Kbit, shared odd and even; counts that leave
// a partial last block and more than one wave's worth of blocks at 2 Kbit.
TEST(PowmRegsVsGmp, DefaultPlan2To8Kbit) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 7900);
  uint64_t bad = 0, cases = 0;
  for (uint64_t bits : {2048u, 1985u, 4096u, 3585u, 8192u, 7937u}) {
    if (bits > test::max_bits_cap()) continue;
    const uint64_t count = bits <= 2048 ? 45 : bits <= 4096 ? 23 : 11;
    std::printf("[ powm default plan ] %llu bits: %s ipb %u\n", (unsigned long long)bits,
                ctx.plan(Op::PowM, bits, count).variant.c_str(), ctx.plan(Op::PowM, bits, count).ipb);
    bad += run_case(ctx, nullptr, bits, 0, count, Mod::PerInstance, rng);
    bad += run_case(ctx, nullptr, bits, 0, count, Mod::PerInstanceOdd, rng);
    bad += run_case(ctx, nullptr, bits, 0, count, Mod::SharedOdd, rng);
    bad += run_case(ctx, nullptr, bits, 0, count, Mod::SharedEven, rng);
    cases += 4;
  }
  // A batch of many blocks at 2 Kbit (short exponents: GMP's side).
  bad += run_case(ctx, nullptr, 2048, 0, 3001, Mod::SharedOdd, rng, 0);
  ++cases;
  gmp_randclear(rng);
  std::printf("[ powm default plan 2-8 Kbit ] %llu cases, %llu mismatches\n", (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
