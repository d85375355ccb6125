// divmod.newtonc (Newton reciprocal composed from registered full products,
// fallback divmod.shinv for what the fast path hands back) against GMP through
// the public API: sizes from one limb to the exact limit 2^20 (odd ones: 65,
// 255, 1000, 3072, 40001, 100003), the divisor kinds of
// tests/support/div_operands.hpp (n/2 bits, every length, 1, 2^k, 2^(n/2) - 1,
// short, zero, v = u, v > u, all ones, largest remainder) with divisor batches
// of n/2 and n bits, a batch of the benchmark's shape only (every instance on
// the fast path), and the limit + 1 / + 64, which must be Unsupported; for
// every registered divmod.newtonc variant.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/run_op.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/divmod_check.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/div_operands.hpp"
#include "tests/support/operands.hpp"
#include "tests/gpu/unsupported_past.hpp"

namespace bigtune {
namespace {

// Every registered divmod.newtonc variant (the table products, and div15's
// preferred_plan products, fused schedule and warp passes).
std::vector<std::string> newtonc_names() {
  std::vector<std::string> names;
  for (const kernels::Variant& v : kernels::registry())
    if (v.name.rfind("divmod.newtonc.", 0) == 0) names.push_back(v.name);
  return names;
}

// half_only: every divisor n/2 bits with its top bit set (the fast path's
// shape); else the mixed kinds of make_div_case.
uint64_t run_case(Context& ctx, const std::string& name, uint64_t bits, uint64_t vbits, uint64_t count, bool half_only, gmp_randstate_t rng) {
  std::vector<mpz_t> u(count), d(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(u[i], d[i], nullptr);
    if (half_only) {
      const uint64_t half = std::min(vbits, (bits + 1) / 2);
      mpz_urandomb(u[i], rng, bits);
      mpz_urandomb(d[i], rng, half);
      mpz_setbit(d[i], half - 1);
    } else {
      test::make_div_case(u[i], d[i], rng, bits, vbits, i);
    }
  }
  const uint64_t bad = test::check_divmod(ctx, name, 1, bits, vbits, u, d);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(u[i], d[i], nullptr);
  return bad;
}

TEST(DivNewtoncVsGmp, MatchesGmpToTheLimit) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 7000);
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<std::string> names = newtonc_names();
  ASSERT_GE(names.size(), 1u);
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  const std::vector<uint64_t> sizes{1,     64,    65,     128,    255,    1000,   3072,   8192,  16001,
                                    16384, 32768, 32769,  40001,  65536,  100003, 131072, 262144, 1u << 20};
  for (const std::string& name : names) {
    const kernels::Variant* v = kernels::find_variant(name);
    ASSERT_NE(v, nullptr);
    const uint64_t limit = kernels::max_operand_bits(*v, limits);
    EXPECT_EQ(limit, uint64_t(1) << 20);
    uint64_t cases = 0, instances = 0, bad = 0;
    for (uint64_t bits : sizes) {
      if (bits > std::min(limit, cap)) continue;
      const uint64_t mixed = bits >= 262144 ? 24 : 67, fast = bits >= 262144 ? 16 : 64;
      for (uint64_t vb : {(bits + 1) / 2, bits}) {
        bad += run_case(ctx, name, bits, vb, mixed, false, rng);
        ++cases, instances += mixed;
      }
      bad += run_case(ctx, name, bits, (bits + 1) / 2, fast, true, rng);
      ++cases, instances += fast;
    }
    for (uint64_t past : {limit + 1, limit + 64}) {
      test::expect_unsupported_past(ctx, Op::DivMod, Plan{name, 1, "explicit", 0.0}, past, limit);
    }
    std::printf("[ %s ] %llu cases, %llu instances, %llu mismatches\n", name.c_str(), (unsigned long long)cases,
                (unsigned long long)instances, (unsigned long long)bad);
    EXPECT_GT(cases, 0u);
    EXPECT_EQ(bad, 0u) << name;
  }
  gmp_randclear(rng);
}

}  // namespace
}  // namespace bigtune
