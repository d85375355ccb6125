// The warp low-half product by halves (kernels/variants/warp_kara_low.cuh,
// "mul_low.wlow.u32.q16.l<L>") against GMP through the host API with explicit
// plans: every wlow variant, sizes from 65 bits to each variant's exact limit
// (odd ones: 255, 521, 1000, 1023, 1025, 3072, 4095, 6007; the half split,
// where a1 = b1 = 0 and only a0 b0 runs; one and 33 bits past it, where
// a0 b1 runs one or two blocks), 1 / 3 / 32 / L instances per block (partly
// empty warps), operands from tests/support/warp_kara_operands.hpp
// (make_pair's edges: 0, 1, all-ones, carries through every limb; equal and
// all-ones halves). Outputs are poisoned first. Just past the limit (+1, +64
// bits) must be Unsupported with a message; more instances per block than one
// warp holds must be refused. Then the default plans around the sizes where
// runtime/default_plan.cpp names the kernel.
// $BIGTUNE_WLOW_VARIANTS="l4": only variants whose name contains one of these
// (compute-sanitizer runs); $BIGTUNE_TEST_MAX_BITS caps the sizes.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "kernels/warp/warp_kara_low_shapes.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/split_product_case.hpp"
#include "tests/gpu/variant_filter.hpp"
#include "tests/gpu/unsupported_past.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_kara_operands.hpp"

namespace bigtune {
namespace {

bool selected(const std::string& name) { return test::selected_by_env("BIGTUNE_WLOW_VARIANTS", name); }

// One mul_low case of `count` instances on plan (name, ipb); returns mismatches.
uint64_t run_case(Context& ctx, const std::string& name, uint32_t param, uint64_t bits, uint32_t ipb, uint64_t count,
                  gmp_randstate_t rng) {
  // The wlow split; for a default plan of another family (param 0) any split
  // below `bits` (make_split_pair needs 0 < half_bits).
  const uint64_t half_bits = param ? uint64_t(param) * 16 * 32 : std::max<uint64_t>(bits / 2, 1);
  return test::run_split_product_case(ctx, Op::MulLow, name, ipb, bits, bits, half_bits, count, rng);
}

TEST(WarpKaraLowVsGmp, EveryWlowVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5500);
  const kernels::DeviceLimits limits = test::device_limits();
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0, instances = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.shape != &kernels::warp::kWarpKaraLowShape || !selected(v.name)) continue;
    ASSERT_EQ(v.op, kernels::Op::MulLow) << v.name;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, 2 * uint64_t(v.param) * v.q * 32) << v.name;
    const uint64_t half = limit / 2;
    std::vector<uint64_t> mine;
    for (uint64_t bits : {uint64_t(65), uint64_t(255), uint64_t(521), uint64_t(1000), uint64_t(1023),
                          uint64_t(1025), uint64_t(3072), uint64_t(4095), uint64_t(6007), half, half + 1, half + 33,
                          limit - 31, limit})
      if (bits <= std::min(limit, cap) && std::find(mine.begin(), mine.end(), bits) == mine.end()) mine.push_back(bits);
    for (uint64_t bits : mine)
      for (uint32_t ipb : {1u, 3u, 32u / v.param}) {
        if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
        const uint64_t count = 67;  // not a multiple of any ipb
        bad += run_case(ctx, v.name, v.param, bits, ipb, count, rng);
        ++cases;
        instances += count;
      }
    // Just past the limit: Unsupported with a message, never a wrong answer.
    for (uint64_t past : {limit + 1, limit + 64}) {
      const std::string why =
          test::expect_unsupported_past(ctx, Op::MulLow, Plan{v.name, 1, "explicit", 0.0}, past, limit);
      EXPECT_NE(why.find("at most"), std::string::npos) << v.name << ": " << why;
    }
    // More instances per block than one warp holds: refused (one-warp blocks).
    EXPECT_NE(kernels::why_invalid(v, limit, 1000, 64 / v.param, limits), "") << v.name;
  }
  gmp_randclear(rng);
  std::printf("[ warp mul_low by halves ] %llu variants, %llu cases, %llu instances, %llu mismatches\n",
              (unsigned long long)variants, (unsigned long long)cases, (unsigned long long)instances,
              (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The default mul_low plans (no explicit plan) from 1 to 8 Kbit, on both sides
// of each threshold of kernels/preferred_plans.cpp, odd sizes included.
TEST(WarpKaraLowVsGmp, DefaultMulLowPlansMatchGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5600);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, on_wlow = 0;
  for (uint64_t bits : {768ull, 769ull, 1000ull, 1024ull, 2048ull, 2049ull, 2560ull, 3072ull, 3136ull, 3137ull, 4095ull,
                        4096ull, 4097ull, 6007ull, 8192ull}) {
    if (bits > cap) continue;
    const uint64_t count = 300;
    const Plan plan = ctx.plan(Op::MulLow, bits, count);
    const kernels::Variant* v = kernels::find_variant(plan.variant);
    ASSERT_NE(v, nullptr) << plan.variant;
    on_wlow += plan.variant.find("wlow") != std::string::npos;
    bad += run_case(ctx, plan.variant, v->param, bits, plan.ipb, count, rng);
    ++cases;
  }
  gmp_randclear(rng);
  std::printf("[ mul_low default plans 1-8 Kbit ] %llu cases (%llu on wlow), %llu mismatches\n",
              (unsigned long long)cases, (unsigned long long)on_wlow, (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
