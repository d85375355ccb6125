// Every op, every variant valid at each size, several instances-per-block
// choices, against GMP: random operands plus edge values (operands.hpp),
// sizes from one limb to each variant's limit, odd ones included.
// $BIGTUNE_TEST_VARIANTS (comma-separated parts of names) splits a long
// parameter over device calls (add takes ~8 minutes on an H200); each
// variant's line is printed as it finishes, so a cut run shows how far it came.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/operand_limit.hpp"
#include "kernels/registry.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/variant_filter.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

struct Totals {
  uint64_t cases = 0, instances = 0, mismatches = 0;
} totals;

class ArithVsGmp : public ::testing::TestWithParam<Op> {};

// Runs one (op, variant, bits, ipb) case on `count` instances; returns mismatches.
uint64_t run_case(Context& ctx, Op op, const kernels::Variant& v, uint64_t bits, uint32_t ipb, uint64_t count,
                  gmp_randstate_t rng) {
  const uint64_t rbits = op == Op::Mul ? 2 * bits + (bits % 3 == 0 ? 64 : 0) : bits;  // also wider-than-needed
  const uint64_t shift = (bits * 7 / 11) + (count % 5);
  std::vector<mpz_t> a(count), b(count), r(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    test::make_pair(a[i], b[i], rng, bits, i);
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, rbits, count);
  Flags flags(ctx, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  {  // poison the outputs so an unwritten limb cannot pass
    std::vector<uint64_t> poison(dr.words_per_instance() * count, 0xdeadbeefdeadbeefull);
    cudaMemcpy(dr.device_data(), poison.data(), poison.size() * 8, cudaMemcpyHostToDevice);
    cudaMemset(flags.device_data(), 0x5a, count * 4);
    // Both went to the legacy default stream; the Context's stream does not
    // wait for it (cudaStreamNonBlocking): finish them before the launch.
    cudaDeviceSynchronize();
  }
  const Plan plan{v.name, ipb, "explicit", 0.0};
  runtime::run_op(ctx, op, dr, da, db, &flags, shift, &plan);
  ctx.synchronize();
  const bool has_value = op != Op::Cmp;
  std::vector<uint64_t> words;
  if (has_value) words = dr.download();
  const std::vector<int32_t> f = flags.download();
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < count; ++i) {
    int want_flag = 0;
    if (has_value)
      mpz_import(r[i], dr.words_per_instance(), -1, 8, 0, 0, words.data() + i * dr.words_per_instance());
    const bool ok = runtime::matches_gmp(op, bits, shift, a[i], b[i], r[i], f[i], want, &want_flag);
    if (!ok && ++bad <= 3) {
      ADD_FAILURE() << op_name(op) << " variant " << v.name << " ipb " << ipb << " bits " << bits << " instance "
                    << i << " of " << count << " shift " << shift << "\n  a    = " << test::hex(a[i])
                    << "\n  b    = " << test::hex(b[i]) << "\n  want = " << test::hex(want) << " flag "
                    << want_flag << "\n  got  = " << (has_value ? test::hex(r[i]) : "-") << " flag " << f[i];
    }
  }
  mpz_clear(want);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  return bad;
}

// The longest case of a variant without a size limit of its own: 3 * 2^20 +
// 4097 bits (24 whole 2^17-bit stream tiles and a partial one).
constexpr uint64_t kLongUnlimited = 3 * (uint64_t(1) << 20) + 4097;

TEST_P(ArithVsGmp, EveryValidVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  const Op op = GetParam();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + static_cast<int>(op));
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<uint64_t> sizes{1,    64,    65,    100,   255,   256,    521,    1000,   1024,  3072,
                                    4097, 8192,  12345, 32768, 65536, 100003, 131072, 262144, 524288, 1048576};
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  uint64_t cases = 0, bad = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != runtime::to_kernel_op(op)) continue;
    if (!test::selected_by_env("BIGTUNE_TEST_VARIANTS", v.name)) continue;
    const uint64_t cases_before = cases, bad_before = bad;
    const uint64_t limit_bits = kernels::max_operand_bits(v, limits);
    const uint64_t max_bits = std::min(limit_bits, cap / 64 * 64);
    std::vector<uint64_t> mine;
    for (uint64_t bits : sizes)
      if (bits <= max_bits) mine.push_back(bits);
    // Exactly at the limit where the limit is the variant's own. One limited
    // only by the registry's 2^31 bits (the streaming add/sub family) gets a
    // long size of many tiles, the last one partial, instead: 13 instances at
    // 2^31 bits would be ~10 GB of GMP integers on the host (session 24's
    // add.stream run did not finish in 147 s).
    const bool own_limit = limit_bits < kernels::kMaxOperandBits;
    mine.push_back(own_limit ? max_bits : std::min<uint64_t>(kLongUnlimited, max_bits));
    for (uint64_t bits : mine) {
      for (uint32_t ipb : {1u, 3u, 8u}) {
        if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
        const uint64_t count = bits >= 131072 ? 13 : bits >= 8192 ? 29 : 61;  // not multiples of ipb
        bad += run_case(ctx, op, v, bits, ipb, count, rng);
        ++cases;
        totals.instances += count;
      }
    }
    // Just past the limit: a clear Unsupported error, not a wrong result.
    const uint64_t past = limit_bits + 64;
    Batch a(ctx, past, 1), b(ctx, past, 1), r(ctx, op == Op::Mul ? 2 * past : past, 1);
    Flags f(ctx, 1);
    const Plan plan{v.name, 1, "explicit", 0.0};
    try {
      runtime::run_op(ctx, op, r, a, b, &f, 1, &plan);
      ADD_FAILURE() << v.name << " accepted " << past << " bits, past its limit " << limit_bits;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
    }
    std::printf("  %s: %llu cases (%llu mismatches)\n", v.name.c_str(), (unsigned long long)(cases - cases_before),
                (unsigned long long)(bad - bad_before));
    std::fflush(stdout);
  }
  gmp_randclear(rng);
  totals.cases += cases;
  totals.mismatches += bad;
  std::printf("[ %s ] %llu cases, %llu mismatches\n", op_name(op), (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllOps, ArithVsGmp,
                         ::testing::Values(Op::Add, Op::Sub, Op::Cmp, Op::Shl, Op::Shr, Op::MulLow, Op::Mul),
                         [](const ::testing::TestParamInfo<Op>& info) { return std::string(op_name(info.param)); });

// The default plan (no explicit plan) at sizes across the whole range.
TEST(DefaultPlan, MatchesGmpAcrossSizes) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 100);
  uint64_t checked = 0;
  for (Op op : {Op::Add, Op::Sub, Op::Cmp, Op::Shl, Op::Shr, Op::MulLow, Op::Mul}) {
    for (uint64_t bits : {64ull, 777ull, 4096ull, 50000ull, 262144ull}) {
      const uint64_t count = 1000;
      Plan plan;
      try {
        plan = ctx.plan(op, bits, count);
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::Unsupported);
        continue;
      }
      const kernels::Variant* v = kernels::find_variant(plan.variant);
      ASSERT_NE(v, nullptr) << plan.variant;
      EXPECT_EQ(run_case(ctx, op, *v, bits, plan.ipb, count, rng), 0u) << plan.variant;
      ++checked;
    }
  }
  gmp_randclear(rng);
  EXPECT_GE(checked, 30u);
}

TEST(Summary, PrintTotals) {
  BIGTUNE_REQUIRE_GPU();
  std::printf("GPU differential summary: %llu cases, %llu instances, %llu mismatches\n",
              (unsigned long long)totals.cases, (unsigned long long)totals.instances,
              (unsigned long long)totals.mismatches);
}

}  // namespace
}  // namespace bigtune
