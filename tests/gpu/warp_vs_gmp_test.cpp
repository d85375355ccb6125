// The warp family (L lanes x Q limbs per instance) against GMP: add, sub,
// mul_low, mul, sqr for every warp variant, at sizes from one limb to each
// variant's exact limit (odd ones included: 65, 255, 521, 1000, 3072, ...),
// several instances per block (also ones that leave a warp partly empty),
// random and edge operands (tests/support/operands.hpp: zero, one, all-ones,
// runs, edge limbs; pairs such as all-ones + 1 carry through every limb), and
// just past the limit, which must be Unsupported. Outputs are poisoned first.
// divmod: the same sizes with divisors of n/2, n, 33, 32 and 1 bits.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "kernels/warp/warp_rounds_shapes.hpp"
#include "kernels/warp/warp_kara_shapes.hpp"
#include "kernels/warp/warp_kara_low_shapes.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/divmod_check.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/variant_filter.hpp"
#include "tests/support/operands.hpp"
#include "tests/gpu/unsupported_past.hpp"

namespace bigtune {
namespace {

struct Totals {
  uint64_t cases = 0, instances = 0, mismatches = 0;
} totals;

bool is_warp(const kernels::Variant& v) { return std::string(v.family) == "warp"; }

uint64_t result_bits(Op op, uint64_t bits) {
  if (op != Op::Mul && op != Op::Sqr) return bits;
  return 2 * bits + (bits % 3 == 0 ? 128 : 0);  // sometimes wider than the product: zeros above
}

// One (op, variant, bits, ipb) case on `count` instances; returns mismatches.
uint64_t run_case(Context& ctx, Op op, const kernels::Variant& v, uint64_t bits, uint32_t ipb, uint64_t count,
                  gmp_randstate_t rng) {
  const uint64_t rbits = result_bits(op, bits);
  std::vector<mpz_t> a(count), b(count), r(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    test::make_pair(a[i], b[i], rng, bits, i);
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, rbits, count);
  Flags flags(ctx, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  {
    std::vector<uint64_t> poison(dr.words_per_instance() * count, 0xdeadbeefdeadbeefull);
    cudaMemcpy(dr.device_data(), poison.data(), poison.size() * 8, cudaMemcpyHostToDevice);
    cudaMemset(flags.device_data(), 0x5a, count * 4);
  }
  const Plan plan{v.name, ipb, "explicit", 0.0};
  runtime::OpBatches io;
  io.r = &dr;
  io.a = &da;
  io.b = op == Op::Sqr ? nullptr : &db;
  io.flags = runtime::op_has_flag(op) ? &flags : nullptr;
  runtime::run_op(ctx, op, io, &plan);
  ctx.synchronize();
  const std::vector<uint64_t> words = dr.download();
  const std::vector<int32_t> f = flags.download();
  uint64_t bad = 0;
  mpz_t want, unused;
  mpz_inits(want, unused, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_import(r[i], dr.words_per_instance(), -1, 8, 0, 0, words.data() + i * dr.words_per_instance());
    int want_flag = 0;
    runtime::RefOperands in;
    in.a = a[i];
    in.b = b[i];
    runtime::gmp_reference(op, bits, rbits, in, want, unused, &want_flag);
    const bool flag_ok = !runtime::op_has_flag(op) || f[i] == want_flag;
    if ((mpz_cmp(want, r[i]) != 0 || !flag_ok) && ++bad <= 3) {
      ADD_FAILURE() << op_name(op) << " variant " << v.name << " ipb " << ipb << " bits " << bits << " instance "
                    << i << " of " << count << "\n  a    = " << test::hex(a[i]) << "\n  b    = " << test::hex(b[i])
                    << "\n  want = " << test::hex(want) << " flag " << want_flag << "\n  got  = " << test::hex(r[i])
                    << " flag " << f[i];
    }
  }
  mpz_clears(want, unused, nullptr);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  return bad;
}

class WarpVsGmp : public ::testing::TestWithParam<Op> {};

TEST_P(WarpVsGmp, EveryWarpVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  const Op op = GetParam();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1000 + static_cast<int>(op));
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<uint64_t> sizes{1, 32, 64, 65, 100, 255, 256, 257, 511, 521, 1000, 1024, 2047, 3072, 4097, 8191, 8192};
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != runtime::to_kernel_op(op) || !is_warp(v)) continue;
    if (v.shape == &kernels::warp::kWarpKaraShape) continue;  // 2 L Q limbs: warp_kara_vs_gmp_test.cpp
    if (v.shape == &kernels::warp::kWarpKaraLowShape) continue;  // 2 L Q limbs: warp_kara_low_vs_gmp_test.cpp
    // $BIGTUNE_WARP_VARIANTS="a,b": only variants whose name contains one of these (sanitizer runs).
    if (!test::selected_by_env("BIGTUNE_WARP_VARIANTS", v.name)) continue;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, uint64_t(v.param) * v.q * 32) << v.name;
    std::vector<uint64_t> mine;
    for (uint64_t bits : sizes)
      if (bits <= std::min(limit, cap)) mine.push_back(bits);
    if (limit <= cap) mine.push_back(limit);  // exactly at the limit
    if (limit - 31 <= cap) mine.push_back(limit - 31);  // top limb partly used
    for (uint64_t bits : mine) {
      // 1 instance per block (a warp mostly idle), 3 (a segment boundary mid-warp),
      // full warps, and the widest block the variant allows.
      for (uint32_t use : {1u, 3u, 32u / v.param, 2u * 32u / v.param, v.max_threads / v.param}) {
        if (!kernels::why_invalid(v, bits, 1, use, limits).empty()) continue;
        const uint64_t count = 67;  // not a multiple of any ipb
        bad += run_case(ctx, op, v, bits, use, count, rng);
        ++cases;
        totals.instances += count;
      }
    }
    // Just past the limit: Unsupported with a message, never a wrong answer.
    for (uint64_t past : {limit + 1, limit + 64}) {
      Batch a(ctx, past, 1), b(ctx, past, 1), r(ctx, result_bits(op, past), 1);
      Flags f(ctx, 1);
      const Plan plan{v.name, 1, "explicit", 0.0};
      runtime::OpBatches io;
      io.r = &r;
      io.a = &a;
      io.b = op == Op::Sqr ? nullptr : &b;
      io.flags = runtime::op_has_flag(op) ? &f : nullptr;
      try {
        runtime::run_op(ctx, op, io, &plan);
        ADD_FAILURE() << v.name << " accepted " << past << " bits, past its limit " << limit;
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
        EXPECT_NE(std::string(e.what()).find("at most"), std::string::npos) << e.what();
      }
    }
  }
  gmp_randclear(rng);
  totals.cases += cases;
  totals.mismatches += bad;
  std::printf("[ warp %s ] %llu variants, %llu cases, %llu mismatches\n", op_name(op), (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(WarpOps, WarpVsGmp, ::testing::Values(Op::Add, Op::Sub, Op::MulLow, Op::Mul, Op::Sqr),
                         [](const ::testing::TestParamInfo<Op>& info) { return std::string(op_name(info.param)); });

// divmod: u of `bits` bits by v of `vbits` bits (v no longer than u): q, r and
// the zero-divisor flag against GMP. Divisors mix every operand kind (zero
// included), dividends too, so u < v, u = v-ish and all-ones cases occur.
uint64_t run_divmod_case(Context& ctx, const kernels::Variant& v, uint64_t bits, uint64_t vbits, uint32_t ipb,
                         uint64_t count, gmp_randstate_t rng) {
  std::vector<mpz_t> u(count), d(count);
  mpz_t scratch;
  mpz_init(scratch);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(u[i], d[i], nullptr);
    test::make_pair(d[i], scratch, rng, vbits, i);
    test::make_operand(u[i], rng, bits, static_cast<test::OperandKind>((i / 3) % test::kOperandKinds));
    if (i % 11 == 5) mpz_mul(u[i], d[i], d[i]), mpz_fdiv_r_2exp(u[i], u[i], bits);  // multiples-ish of v
  }
  const uint64_t bad = test::check_divmod(ctx, v.name, ipb, bits, vbits, u, d);
  mpz_clear(scratch);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(u[i], d[i], nullptr);
  return bad;
}

TEST(WarpDivModVsGmp, EveryWarpVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 2000);
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<uint64_t> sizes{1, 64, 65, 100, 255, 256, 521, 1000, 1024, 2047, 3072, 4097, 8192, 16384};
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != kernels::Op::DivMod || !is_warp(v)) continue;
    if (std::string(v.algorithm) == "newton") continue;  // 2N-digit dividends: warp_divnewton_vs_gmp_test.cpp
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, uint64_t(v.param) * v.q * 32) << v.name;
    std::vector<uint64_t> mine;
    for (uint64_t bits : sizes)
      if (bits <= std::min(limit, cap)) mine.push_back(bits);
    if (limit <= cap) mine.push_back(limit);
    for (uint64_t bits : mine) {
      // n / (n/2) (TARGETS.md's shape), n / n, n / 33 bits, n / 1 limb, n / 1 bit.
      const std::vector<uint64_t> vbits{(bits + 1) / 2, bits, std::min<uint64_t>(bits, 33),
                                        std::min<uint64_t>(bits, 32), 1};
      for (uint64_t vb : vbits)
        for (uint32_t ipb : {1u, 3u, v.max_threads / v.param}) {
          if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
          bad += run_divmod_case(ctx, v, bits, vb, ipb, 67, rng);
          ++cases;
          totals.instances += 67;
        }
    }
    for (uint64_t past : {limit + 1, limit + 64}) {
      test::expect_unsupported_past(ctx, Op::DivMod, Plan{v.name, 1, "explicit", 0.0}, past, limit);
    }
  }
  gmp_randclear(rng);
  totals.cases += cases;
  totals.mismatches += bad;
  std::printf("[ warp divmod ] %llu variants, %llu cases, %llu mismatches\n", (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The block-rotate product in rounds (kernels/variants/warp_mul_rounds.cuh,
// shape kWarpRoundsShape: R rounds of ipb instances per block). WarpOps above
// runs these variants too, but with 67 instances, so that wide blocks never
// reach a second round; here counts span several whole blocks of R rounds
// and end in a block with partly and wholly empty rounds. Sizes: odd ones
// (65, 1000, 3072, 4097), half the limit + 1, limit - 31 and the exact limit
// (limit + 1 and + 64 are checked Unsupported by WarpOps).
TEST(WarpRoundsVsGmp, EveryRoundsVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1900);
  const kernels::DeviceLimits limits = test::device_limits();
  const uint64_t cap = test::max_bits_cap();
  const uint32_t R = kernels::warp::kWarpRounds;
  uint64_t cases = 0, bad = 0, variants = 0;
  // BIGTUNE_ROUNDS_VARIANTS="a,b": only variants whose name contains one of
  // these (compute-sanitizer runs).
  const auto selected = [](const std::string& name) { return test::selected_by_env("BIGTUNE_ROUNDS_VARIANTS", name); };
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.shape != &kernels::warp::kWarpRoundsShape || !selected(v.name)) continue;
    const Op op = v.op == kernels::Op::Mul ? Op::Mul : Op::MulLow;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, uint64_t(v.param) * v.q * 32) << v.name;
    std::vector<uint64_t> mine;
    for (uint64_t bits : {uint64_t(65), uint64_t(1000), uint64_t(3072), uint64_t(4097), limit / 2 + 1, limit - 31, limit})
      if (bits <= std::min(limit, cap)) mine.push_back(bits);
    for (uint64_t bits : mine)
      for (uint32_t ipb : {3u, 32u / v.param, v.max_threads / v.param}) {
        if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
        const uint64_t count = 2 * uint64_t(R) * ipb + ipb + (ipb + 1) / 2;
        bad += run_case(ctx, op, v, bits, ipb, count, rng);
        ++cases;
        totals.instances += count;
      }
  }
  gmp_randclear(rng);
  totals.cases += cases;
  totals.mismatches += bad;
  std::printf("[ warp rounds mul_low/mul ] %llu variants, %llu cases, %llu mismatches\n",
              (unsigned long long)variants, (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The totals once all tests ran (an environment's TearDown runs last).
class WarpTotals : public ::testing::Environment {
 public:
  void TearDown() override {
    if (totals.cases == 0) return;
    std::printf("warp GPU differential summary: %llu cases, %llu instances, %llu mismatches\n",
                (unsigned long long)totals.cases, (unsigned long long)totals.instances,
                (unsigned long long)totals.mismatches);
  }
};
[[maybe_unused]] ::testing::Environment* const warp_totals = ::testing::AddGlobalTestEnvironment(new WarpTotals);

}  // namespace
}  // namespace bigtune
