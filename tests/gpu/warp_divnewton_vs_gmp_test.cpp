// divmod.newton (the warp Newton-reciprocal division, two passes: Newton
// kernel, then Knuth for the instances it leaves) against GMP through the
// public API: every variant, sizes from one limb to its exact limit (odd ones:
// 65, 255, 1000, 3072, 4097, ...), several instances per block, the divisor
// kinds of tests/support/div_operands.hpp (n/2 bits, every length, 1, 2^k,
// 2^(n/2) - 1, one limb, zero, v = u, v > u, all-ones, largest remainder),
// divisor batches of n/2 and n bits, one large batch per size (many blocks),
// and just past the limit, which must be Unsupported. Outputs are poisoned.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/divmod_check.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/div_operands.hpp"
#include "tests/support/operands.hpp"
#include "tests/gpu/unsupported_past.hpp"

namespace bigtune {
namespace {

uint64_t run_case(Context& ctx, const kernels::Variant& v, uint64_t bits, uint64_t vbits, uint32_t ipb,
                  uint64_t count, gmp_randstate_t rng) {
  std::vector<mpz_t> u(count), d(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(u[i], d[i], nullptr);
    test::make_div_case(u[i], d[i], rng, bits, vbits, i);
  }
  const uint64_t bad = test::check_divmod(ctx, v.name, ipb, bits, vbits, u, d);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(u[i], d[i], nullptr);
  return bad;
}

TEST(WarpDivNewtonVsGmp, EveryVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5000);
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<uint64_t> sizes{1, 64, 65, 255, 1000, 1024, 2047, 2048, 3072, 4096, 4097, 8192, 16384};
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  uint64_t cases = 0, instances = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != kernels::Op::DivMod || std::string(v.algorithm) != "newton") continue;
    // BIGTUNE_TEST_VARIANT_CONTAINS narrows the run (compute-sanitizer runs take one or two variants).
    if (const char* only = std::getenv("BIGTUNE_TEST_VARIANT_CONTAINS"); only && v.name.find(only) == std::string::npos)
      continue;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, 2ull * v.param * v.q * 32) << v.name;
    std::vector<uint64_t> mine;
    for (uint64_t bits : sizes)
      if (bits <= std::min(limit, cap)) mine.push_back(bits);
    if (limit <= cap) mine.push_back(limit);
    for (uint64_t bits : mine) {
      for (uint64_t vb : {(bits + 1) / 2, bits})
        for (uint32_t ipb : {1u, 3u, v.max_threads / v.param}) {
          if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
          bad += run_case(ctx, v, bits, vb, ipb, 67, rng);
          ++cases, instances += 67;
        }
      const uint64_t big = cap == ~uint64_t(0) ? 3000 : 200;  // many blocks; fewer under the sanitizer
      bad += run_case(ctx, v, bits, (bits + 1) / 2, v.max_threads / v.param, big, rng);
      ++cases, instances += big;
    }
    for (uint64_t past : {limit + 1, limit + 64}) {
      test::expect_unsupported_past(ctx, Op::DivMod, Plan{v.name, 1, "explicit", 0.0}, past, limit);
    }
  }
  gmp_randclear(rng);
  std::printf("[ warp divmod.newton ] %llu variants, %llu cases, %llu instances, %llu mismatches\n",
              (unsigned long long)variants, (unsigned long long)cases, (unsigned long long)instances,
              (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
