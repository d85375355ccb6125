// NTT multiplication and squaring (kernels/block/ntt.cuh) and classical
// squaring against GMP: every ntt mul variant and every sqr variant, sizes from one limb to its limit (odd ones, unsplit and split
// transforms), random and edge operands with all-ones pairs forced (the
// largest convolution coefficients: the exactness worst case), batches larger
// than the persistent grid, and a clear Unsupported just past the limit.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/operands.hpp"
#include "tests/gpu/unsupported_past.hpp"

namespace bigtune {
namespace {

uint64_t g_cases = 0, g_instances = 0, g_mismatches = 0;

// One (op, variant, bits, count) case; returns the mismatching instances.
uint64_t run_case(Context& ctx, Op op, const kernels::Variant& v, uint64_t bits, uint64_t rbits, uint64_t count,
                  gmp_randstate_t rng) {
  std::vector<mpz_t> a(count), b(count), r(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    test::make_pair(a[i], b[i], rng, bits, i);
    if (i % 7 == 0) {  // all-ones operands: every coefficient at its bound
      mpz_set_ui(a[i], 0);
      mpz_setbit(a[i], bits);
      mpz_sub_ui(a[i], a[i], 1);
      mpz_set(b[i], a[i]);
    }
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, rbits, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  std::vector<uint64_t> poison(dr.words_per_instance() * count, 0xdeadbeefdeadbeefull);
  cudaMemcpy(dr.device_data(), poison.data(), poison.size() * 8, cudaMemcpyHostToDevice);
  const Plan plan{v.name, 1, "explicit", 0.0};
  runtime::OpBatches x;
  x.r = &dr;
  x.a = &da;
  if (op == Op::Mul) x.b = &db;
  runtime::run_op(ctx, op, x, &plan);
  ctx.synchronize();
  const std::vector<uint64_t> words = dr.download();
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_import(r[i], dr.words_per_instance(), -1, 8, 0, 0, words.data() + i * dr.words_per_instance());
    mpz_mul(want, a[i], op == Op::Mul ? b[i] : a[i]);
    if (mpz_cmp(want, r[i]) != 0 && ++bad <= 3)
      ADD_FAILURE() << op_name(op) << " variant " << v.name << " bits " << bits << " result bits " << rbits
                    << " instance " << i << " of " << count << "\n  a    = " << test::hex(a[i])
                    << "\n  b    = " << (op == Op::Mul ? test::hex(b[i]) : std::string("(a)"))
                    << "\n  want = " << test::hex(want) << "\n  got  = " << test::hex(r[i]);
  }
  mpz_clear(want);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  ++g_cases;
  g_instances += count;
  g_mismatches += bad;
  return bad;
}

class NttVsGmp : public ::testing::TestWithParam<Op> {};

TEST_P(NttVsGmp, EveryVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  const Op op = GetParam();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 300 + static_cast<int>(op));
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<uint64_t> sizes{1,      64,     65,     100,    255,    521,    1000,    3072,
                                    4097,   12345,  32768,  65536,  100003, 131072, 131073,  262144,
                                    262145, 300007, 524288, 1048576};
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  uint64_t variants = 0, bad = 0;
  // BIGTUNE_TEST_NAME_CONTAINS: only the variants whose name contains it (the
  // sanitizer runs of one field's variants); unset: all.
  const char* only = std::getenv("BIGTUNE_TEST_NAME_CONTAINS");
  for (const kernels::Variant& v : kernels::registry()) {
    if (only != nullptr && v.name.find(only) == std::string::npos) continue;
    // Every block-level sqr variant (NTT and classical); the classical mul
    // variants are arith_vs_gmp_test's, the thread and warp ones their own tests'.
    if (v.op != runtime::to_kernel_op(op) || std::string(v.family) != "block" ||
        (op == Op::Mul && std::string(v.algorithm) != "ntt"))
      continue;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    if (std::string(v.algorithm) == "ntt") EXPECT_GE(limit, uint64_t(1) << 20) << v.name << ": issue 3's one-block target";
    std::vector<uint64_t> mine;
    for (uint64_t bits : sizes)
      if (bits <= std::min(limit, cap)) mine.push_back(bits);
    if (limit <= cap) mine.push_back(limit);  // exactly at the limit
    for (uint64_t bits : mine) {
      const uint64_t count = bits >= 524288 ? 3 : bits >= 131072 ? 7 : bits >= 8192 ? 19 : 37;
      const uint64_t rbits = 2 * bits + (bits % 3 == 0 ? 64 : 0);  // also wider than the product
      bad += run_case(ctx, op, v, bits, rbits, count, rng);
    }
    // More instances than the persistent grid's 1024 blocks: blocks loop.
    if (limit >= 1000) bad += run_case(ctx, op, v, 1000, 2000, 2500, rng);
    // 2^17 / 2^18-bit products (one block per SM: the grid is the resident
    // blocks, ntt_grid.hpp, each looping over 2-3 instances), odd sizes.
    if (std::string(v.algorithm) == "ntt" && cap >= 262145) {
      bad += run_case(ctx, op, v, 131071, 2 * 131071, 300, rng);
      bad += run_case(ctx, op, v, 262145, 2 * 262145 + 64, 300, rng);
    }
    // Just past the limit (one bit, one limb): Unsupported, not a wrong result.
    for (const uint64_t past : {limit + 1, limit + 64})
      test::expect_unsupported_past(ctx, op, Plan{v.name, 1, "explicit", 0.0}, past, limit);
  }
  gmp_randclear(rng);
  std::printf("[ %s ntt ] %llu variants; so far %llu cases, %llu instances, %llu mismatches\n", op_name(op),
              (unsigned long long)variants, (unsigned long long)g_cases, (unsigned long long)g_instances,
              (unsigned long long)g_mismatches);
  EXPECT_GE(variants, only != nullptr ? 1u : 6u);
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(MulSqr, NttVsGmp, ::testing::Values(Op::Mul, Op::Sqr),
                         [](const ::testing::TestParamInfo<Op>& info) { return std::string(op_name(info.param)); });

}  // namespace
}  // namespace bigtune
