// The warp Karatsuba (kernels/variants/warp_kara.cuh, "<op>.wkara.u32.q16.l<L>.k1")
// against GMP through the host API with explicit plans: mul and sqr, every
// wkara variant, sizes from 65 bits to each variant's exact limit (odd ones:
// 1000, 3072, 4097, 6007, 12345; one limb past the half split, where a1 has
// one limb; the half itself, where a1 = 0), 1 / 3 / 32 / L instances per block
// (partly empty warps), results sometimes wider than the product (zeros
// above), operands from tests/support/warp_kara_operands.hpp (make_pair's
// edges: 0, 1, all-ones, carries through every limb; plus a0 = a1 and every
// sign combination of the two differences). Outputs are poisoned first.
// Just past the limit (+1, +64 bits) must be Unsupported with a message.
// $BIGTUNE_WKARA_VARIANTS="l4,l16": only variants whose name contains one of
// these (compute-sanitizer runs); $BIGTUNE_TEST_MAX_BITS caps the sizes.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "kernels/warp/warp_kara_shapes.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/split_product_case.hpp"
#include "tests/gpu/variant_filter.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_kara_operands.hpp"
#include "tests/gpu/unsupported_past.hpp"

namespace bigtune {
namespace {

bool selected(const std::string& name) { return test::selected_by_env("BIGTUNE_WKARA_VARIANTS", name); }

// One (op, variant, bits, ipb) case on `count` instances, results sometimes
// wider than the product (zeros above); returns mismatches.
uint64_t run_case(Context& ctx, Op op, const kernels::Variant& v, uint64_t bits, uint32_t ipb, uint64_t count,
                  gmp_randstate_t rng) {
  const uint64_t rbits = 2 * bits + (bits % 3 == 0 ? 128 : 0);
  return test::run_split_product_case(ctx, op, v.name, ipb, bits, rbits, uint64_t(v.param) * v.q * 32, count, rng);
}

TEST(WarpKaraVsGmp, EveryWkaraVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5200);
  const kernels::DeviceLimits limits = test::device_limits();
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0, instances = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.shape != &kernels::warp::kWarpKaraShape || !selected(v.name)) continue;
    const Op op = v.op == kernels::Op::Sqr ? Op::Sqr : Op::Mul;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, 2 * uint64_t(v.param) * v.q * 32) << v.name;
    const uint64_t half = limit / 2;
    std::vector<uint64_t> mine;
    for (uint64_t bits : {uint64_t(65), uint64_t(1000), uint64_t(3072), uint64_t(4097), uint64_t(6007),
                          uint64_t(12345), half, half + 1, half + 33, limit - 31, limit})
      if (bits <= std::min(limit, cap) && std::find(mine.begin(), mine.end(), bits) == mine.end()) mine.push_back(bits);
    for (uint64_t bits : mine)
      for (uint32_t ipb : {1u, 3u, 32u / v.param}) {
        if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
        const uint64_t count = 67;  // not a multiple of any ipb
        bad += run_case(ctx, op, v, bits, ipb, count, rng);
        ++cases;
        instances += count;
      }
    // Just past the limit: Unsupported with a message, never a wrong answer.
    for (uint64_t past : {limit + 1, limit + 64}) {
      const std::string why = test::expect_unsupported_past(ctx, op, Plan{v.name, 1, "explicit", 0.0}, past, limit);
      EXPECT_NE(why.find("at most"), std::string::npos) << v.name << ": " << why;
    }
    // More instances per block than one warp holds: refused (one-warp blocks).
    EXPECT_NE(kernels::why_invalid(v, limit, 1000, 64 / v.param, limits), "") << v.name;
  }
  gmp_randclear(rng);
  std::printf("[ warp karatsuba mul/sqr ] %llu variants, %llu cases, %llu instances, %llu mismatches\n",
              (unsigned long long)variants, (unsigned long long)cases, (unsigned long long)instances,
              (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The default plans (no explicit plan; runtime/default_plan.cpp names the
// warp Karatsuba from 5/8 of each limit, and Karatsuba k2 over it above 20 Kbit)
// on both sides of each threshold, odd sizes included.
TEST(WarpKaraVsGmp, DefaultPlansMatchGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5300);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, on_wkara = 0;
  for (Op op : {Op::Mul, Op::Sqr})
    for (uint64_t bits : {2560ull, 2561ull, 3001ull, 4096ull, 5121ull, 6007ull, 8192ull, 10241ull, 12345ull,
                          16384ull, 20481ull, 27000ull, 32768ull}) {
      if (bits > cap) continue;
      const uint64_t count = 300;
      const Plan plan = ctx.plan(op, bits, count);
      const kernels::Variant* v = kernels::find_variant(plan.variant);
      ASSERT_NE(v, nullptr) << plan.variant;
      on_wkara += plan.variant.find("wkara") != std::string::npos;
      bad += run_case(ctx, op, *v, bits, plan.ipb, count, rng);
      ++cases;
    }
  gmp_randclear(rng);
  std::printf("[ warp karatsuba default plans ] %llu cases (%llu on wkara), %llu mismatches\n",
              (unsigned long long)cases, (unsigned long long)on_wkara, (unsigned long long)bad);
  EXPECT_GT(on_wkara, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
