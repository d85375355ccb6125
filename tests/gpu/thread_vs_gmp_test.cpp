// Thread-per-instance variants (kernels/thread/, issue 4) against GMP: every
// op of the family, every variant, sizes from one bit to each variant's exact
// register limit (odd ones included), several instances-per-block choices
// (non-multiples of the warp size among them), random plus edge operands
// (operands.hpp), poisoned outputs; just past each limit must be Unsupported.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

struct Totals {
  uint64_t cases = 0, instances = 0, mismatches = 0;
} totals;

void poison(Batch& b) {
  std::vector<uint64_t> p(b.words_per_instance() * b.count(), 0xdeadbeefdeadbeefull);
  ASSERT_EQ(cudaMemcpy(b.device_data(), p.data(), p.size() * 8, cudaMemcpyHostToDevice), cudaSuccess);
}

void download_mpz(const Batch& b, std::vector<mpz_t>& out) {
  const std::vector<uint64_t> w = b.download();
  for (uint64_t i = 0; i < b.count(); ++i)
    mpz_import(out[i], b.words_per_instance(), -1, 8, 0, 0, w.data() + i * b.words_per_instance());
}

// One (op, variant, bits, ipb) case on `count` instances; returns mismatches.
uint64_t run_case(Context& ctx, Op op, const kernels::Variant& v, uint64_t bits, uint32_t ipb, uint64_t count,
                  gmp_randstate_t rng) {
  runtime::OpLayout l = runtime::op_layout(op, bits);
  // A result batch wider than the product must come back zero-extended.
  if ((op == Op::Mul || op == Op::Sqr) && bits % 3 == 0) l.r_bits += 64;
  std::vector<mpz_t> a(count), b(count), r(count), r2(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], r2[i], nullptr);
    test::make_pair(a[i], b[i], rng, bits, i);
    if (l.b_bits && l.b_bits != bits) mpz_fdiv_r_2exp(b[i], b[i], l.b_bits);  // divisor: n/2 bits
  }
  Batch da(ctx, bits, count), dr(ctx, l.r_bits, count);
  std::unique_ptr<Batch> db, dr2;
  da.from_mpz(a.data(), count);
  if (l.b_bits) {
    db = std::make_unique<Batch>(ctx, l.b_bits, count);
    db->from_mpz(b.data(), count);
  }
  if (l.r2_bits) {
    dr2 = std::make_unique<Batch>(ctx, l.r2_bits, count);
    poison(*dr2);
  }
  poison(dr);
  Flags flags(ctx, count);
  EXPECT_EQ(cudaMemset(flags.device_data(), 0x5a, count * 4), cudaSuccess);
  runtime::OpBatches x;
  x.r = &dr;
  x.r2 = dr2.get();
  x.a = &da;
  x.b = db.get();
  x.flags = l.flags ? &flags : nullptr;
  const Plan plan{v.name, ipb, "explicit", 0.0};
  runtime::run_op(ctx, op, x, &plan);
  ctx.synchronize();
  download_mpz(dr, r);
  if (dr2) download_mpz(*dr2, r2);
  const std::vector<int32_t> f = flags.download();
  uint64_t bad = 0;
  mpz_t want, want2;
  mpz_inits(want, want2, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    int want_flag = 0;
    runtime::RefOperands in;
    in.a = a[i];
    in.b = b[i];
    runtime::gmp_reference(op, bits, l.r_bits, in, want, want2, &want_flag);
    bool ok = mpz_cmp(want, r[i]) == 0;
    if (runtime::op_has_second_value(op)) ok = ok && mpz_cmp(want2, r2[i]) == 0;
    if (l.flags) ok = ok && f[i] == want_flag;
    if (!ok && ++bad <= 3) {
      ADD_FAILURE() << op_name(op) << " variant " << v.name << " ipb " << ipb << " bits " << bits << " instance "
                    << i << " of " << count << "\n  a     = " << test::hex(a[i]) << "\n  b     = " << test::hex(b[i])
                    << "\n  want  = " << test::hex(want) << " / " << test::hex(want2) << " flag " << want_flag
                    << "\n  got   = " << test::hex(r[i]) << " / " << test::hex(r2[i]) << " flag " << f[i];
    }
  }
  mpz_clears(want, want2, nullptr);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], r2[i], nullptr);
  return bad;
}

class ThreadVsGmp : public ::testing::TestWithParam<Op> {};

TEST_P(ThreadVsGmp, EveryThreadVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  const Op op = GetParam();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1000 + static_cast<int>(op));
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<uint64_t> sizes{1,   2,   63,  64,   65,   100,  127,  128,  129,  192,  255,  256,
                                    257, 384, 511, 512,  521,  767,  1000, 1023, 1024, 1025, 1536, 2047,
                                    2048, 3072, 4097, 5000, 8191, 8192};
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != runtime::to_kernel_op(op) || std::string(v.family) != "thread") continue;
    ++variants;
    const uint64_t limit_bits = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit_bits, uint64_t(v.q) * v.limb_bits) << v.name;
    std::vector<uint64_t> mine;
    // Register variants: sizes above half the limit (smaller ones belong to
    // the next variant down) plus a few small ones for padding; the others
    // (add, sub, divmod keep no register arrays) every size to their limit.
    const bool registers = op == Op::MulLow || op == Op::Mul || op == Op::Sqr;  // one variant per power of two
    for (uint64_t bits : sizes)
      if (bits <= std::min(limit_bits, cap) && (!registers || bits * 2 > limit_bits || bits <= 65))
        mine.push_back(bits);
    if (limit_bits <= cap) mine.push_back(limit_bits);  // exactly at the limit
    for (uint64_t bits : mine) {
      for (uint32_t ipb : {1u, 33u, 128u}) {
        if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
        const uint64_t count = ipb == 128 ? 300 : 71;  // not multiples of ipb: a partial last block
        bad += run_case(ctx, op, v, bits, ipb, count, rng);
        ++cases;
        totals.instances += count;
      }
    }
    // Just past the limit: a clear Unsupported error, never a wrong result.
    const runtime::OpLayout past_l = runtime::op_layout(op, limit_bits + 1);
    Batch a(ctx, limit_bits + 1, 1), r(ctx, past_l.r_bits, 1);
    std::unique_ptr<Batch> b, r2;
    if (past_l.b_bits) b = std::make_unique<Batch>(ctx, past_l.b_bits, 1);
    if (past_l.r2_bits) r2 = std::make_unique<Batch>(ctx, past_l.r2_bits, 1);
    Flags f(ctx, 1);
    runtime::OpBatches x;
    x.r = &r;
    x.r2 = r2.get();
    x.a = &a;
    x.b = b.get();
    x.flags = &f;
    const Plan plan{v.name, 1, "explicit", 0.0};
    try {
      runtime::run_op(ctx, op, x, &plan);
      ADD_FAILURE() << v.name << " accepted " << limit_bits + 1 << " bits, past its limit " << limit_bits;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
      EXPECT_NE(std::string(e.what()).find("at most"), std::string::npos) << e.what();
    }
  }
  gmp_randclear(rng);
  totals.cases += cases;
  totals.mismatches += bad;
  std::printf("[ thread %s ] %llu variants, %llu cases, %llu mismatches\n", op_name(op), (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(ThreadOps, ThreadVsGmp, ::testing::Values(Op::Add, Op::Sub, Op::MulLow, Op::Mul, Op::Sqr, Op::DivMod),
                         [](const ::testing::TestParamInfo<Op>& info) { return std::string(op_name(info.param)); });

// The totals after every test has run (a TEST would run before the
// parameterised ones and print zeros).
class SummaryPrinter : public ::testing::Environment {
 public:
  void TearDown() override {
    if (totals.cases == 0) return;
    std::printf("thread-family GPU differential summary: %llu cases, %llu instances, %llu mismatches\n",
                (unsigned long long)totals.cases, (unsigned long long)totals.instances,
                (unsigned long long)totals.mismatches);
  }
};
[[maybe_unused]] ::testing::Environment* const kSummary = ::testing::AddGlobalTestEnvironment(new SummaryPrinter);

}  // namespace
}  // namespace bigtune
