// Barrett mulmod / sqrmod / powm (kernels/variants/barrett_instances.cu) on the
// GPU against GMP, at the sizes above the Montgomery kernels' 8 Kbit (odd ones
// like 8193 and 12345, up to the 2^19-bit limit) and small ones for the
// sanitizers. Moduli per instance and shared, of the kinds issue 9 names
// (1, 2, 2^k, 2^k +- 1, even, odd, small, long runs), operands >= m (reduced
// first, bigtune.hpp), the largest reduced product (m - 1)^2, exponents 0, 1,
// 65537, random and all ones; past the limit: Unsupported; the product-and-
// remainder variants (mulmod.rem) for moduli per instance. Sizes 1 - 8192 of
// every Barrett variant also run in mod_vs_gmp_test.cpp
// (BIGTUNE_TEST_VARIANTS=barrett).
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/gmp_reference.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/mod_check.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using test::ModCase;

// Every shared-modulus kind and per-instance moduli, for mulmod and sqrmod.
void add_mod_cases(std::vector<ModCase>& out, Op op, uint64_t bits, uint64_t count, const char* variant) {
  out.push_back({op, bits, count, -1, 0, -1, variant});
  for (int64_t k : {0, 1, 2, 3, 4, 5, 6})
    if (bits <= 16384 || k % 2 == 1) out.push_back({op, bits, count, k, 0, -1, variant});
}

TEST(BarrettVsGmp, MulmodSqrmodAbove8Kbit) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  for (uint64_t bits : {8193ull, 12345ull, 16384ull, 16385ull, 40000ull, 65536ull, 100000ull})
    for (Op op : {Op::MulMod, Op::SqrMod}) add_mod_cases(cases, op, bits, bits > 20000 ? 7 : 13, "x");
  for (ModCase& c : cases) c.variant = c.op == Op::MulMod ? "mulmod.barrett.u64.q1" : "sqrmod.barrett.u64.q1";
  // Moduli per instance (session 18: a*b divided by m, no mu): a batch of
  // every kind, past one wave of the division's blocks.
  cases.push_back({Op::MulMod, 32768, 300, -1, 0, -1, "mulmod.barrett.u64.q1"});
  cases.push_back({Op::SqrMod, 16385, 200, -1, 0, -1, "sqrmod.barrett.u64.q1"});
  cases.push_back({Op::MulMod, 262144, 5, -1, 0, -1, "mulmod.barrett.u64.q1"});
  cases.push_back({Op::SqrMod, 262144, 5, 5, 0, -1, "sqrmod.barrett.u64.q1"});
  // The limit, 2^19 bits (the division of 2^(2N) - 1 runs at 2^20 bits).
  cases.push_back({Op::MulMod, 524288, 3, -1, 0, -1, "mulmod.barrett.u64.q1"});
  cases.push_back({Op::SqrMod, 524288, 3, 4, 0, -1, "sqrmod.barrett.u64.q1"});
  EXPECT_EQ(test::run_mod_cases(cases, 9100, "barrett"), 0u);
}

// Session 18: with a shared modulus and the CRT NTT product (30721 - 131072
// bits, kernels/preferred_plans.cpp), q1·mu_lo and q·m' multiply by the
// spectra of mu_lo and m' computed once per call (ntt_cached_launch.hpp).
// Every modulus kind (1, 2^k, 2^k +- 1, even, small, runs, 2, half size),
// batches larger than one wave of product blocks (600 at 32 Kbit), sqrmod,
// and powm (its squarings' reductions) with a shared modulus and with moduli
// per instance (a spectrum pair per instance).
TEST(BarrettVsGmp, CachedSpectraOfTheModulus) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  for (uint64_t bits : {30721ull, 32768ull, 40000ull, 65536ull, 100000ull, 131072ull})
    for (int64_t k = 0; k < 10; ++k) {
      cases.push_back({Op::MulMod, bits, 6, k, 0, -1, "mulmod.barrett.u64.q1"});
      if (k % 2 == 1 || bits == 32768) cases.push_back({Op::SqrMod, bits, 5, k, 0, -1, "sqrmod.barrett.u64.q1"});
    }
  cases.push_back({Op::MulMod, 32768, 600, 5, 0, -1, "mulmod.barrett.u64.q1"});
  cases.push_back({Op::SqrMod, 65536, 300, 3, 0, -1, "sqrmod.barrett.u64.q1"});
  cases.push_back({Op::PowM, 40000, 6, 5, 300, -1, "powm.barrett.u64.q1.w4"});
  cases.push_back({Op::PowM, 65536, 4, 4, 100, 4, "powm.barrett.u64.q1.w6"});
  cases.push_back({Op::PowM, 100000, 8, -1, 70, -1, "powm.barrett.u64.q1.w5"});
  cases.push_back({Op::PowM, 32768, 300, -1, 8, -1, "powm.barrett.u64.q1.w4"});
  EXPECT_EQ(test::run_mod_cases(cases, 9150, "barrett cached"), 0u);
}

// The tcbarrett variants: with a shared modulus, q1·mu_lo and q·m' as u8
// matrix products on the tensor cores (kernels/block/mul_const_imma.cuh).
// Every modulus kind (2^k - 1 and long runs give all-ones bytes, the largest
// column sums), odd sizes (operands not a whole number of 32-byte blocks),
// batches that end inside a 16-instance block, up to the 64-Kbit limit, and
// moduli per instance (the rem path); 1792 and 7936 bits (w = 24 mod 32
// words: the quotient pass's 32-byte-aligned tiles take one more tile there,
// kept over the 16-byte lead, which ran 0.866x at 1792 bits in session 28).
TEST(BarrettVsGmp, TensorCoreReductionProducts) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  for (uint64_t bits : {64ull, 65ull, 1000ull, 1024ull, 1792ull, 2048ull, 3001ull, 4096ull, 4097ull, 6000ull, 7936ull,
                        8192ull, 8193ull, 12345ull, 16384ull, 32768ull, 40000ull, 65536ull})
    for (int64_t k = 0; k < 10; ++k) {
      const uint64_t count = bits <= 8192 ? 37 : 17;
      cases.push_back({Op::MulMod, bits, count, k, 0, -1, "mulmod.tcbarrett.u64.q1"});
      if (k % 2 == 1 || bits == 4096) cases.push_back({Op::SqrMod, bits, count, k, 0, -1, "sqrmod.tcbarrett.u64.q1"});
    }
  cases.push_back({Op::MulMod, 2048, 1000, 5, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::MulMod, 8192, 333, 3, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::SqrMod, 16384, 48, 4, 0, -1, "sqrmod.tcbarrett.u64.q1"});
  cases.push_back({Op::MulMod, 4096, 40, -1, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::SqrMod, 3001, 40, -1, 0, -1, "sqrmod.tcbarrett.u64.q1"});
  EXPECT_EQ(test::run_mod_cases(cases, 9160, "tcbarrett"), 0u);
}

// Batches large enough that the one-warpgroup wgmma kernels' resident
// blocks each take several groups of 64 instances (more groups than the
// grid has blocks at up to four blocks an SM on 132 SMs): there A is staged
// by cp.async (wg_stage_a, session 27), a path the small batches above never
// take. Full-width moduli (s = 0, the copies' aligned rows: all ones and
// random odd), an odd size (s > 0: the register loads beside them), and a
// last group partly filled.
TEST(BarrettVsGmp, TensorCoreMultiGroupLaunches) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  cases.push_back({Op::MulMod, 2048, 40001, 5, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::SqrMod, 4096, 34000, 3, 0, -1, "sqrmod.tcbarrett.u64.q1"});
  cases.push_back({Op::MulMod, 8192, 17000, 5, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::MulMod, 3001, 34000, 7, 0, -1, "mulmod.tcbarrett.u64.q1"});
  // 32 Kbit: both reduction products in two parts of x (mul_const_wgmma_parts),
  // one block an SM, so 9000 instances are 141 groups on 132 blocks.
  cases.push_back({Op::MulMod, 32768, 9000, 5, 0, -1, "mulmod.tcbarrett.u64.q1"});
  EXPECT_EQ(test::run_mod_cases(cases, 9170, "tcbarrett multigroup"), 0u);
}

// powm.tcbarrett (session 22): the Barrett powm's loop with every step's
// reduction products on the tensor cores, where the batch shares its
// modulus. Each window at a full-size exponent and an odd size; every modulus
// kind shared (1, 2^k, 2^k +- 1, even, runs, 2, short: operands >= m reduced
// first) with exponents of every kind (0, 1, 65537, all ones); one exponent
// shared; batches past one block of 64 instances and ending inside one; the
// 64-Kbit limit; moduli per instance (the composed Barrett's own products).
TEST(BarrettVsGmp, TensorCorePowmSharedModulus) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  for (const char* v : {"powm.tcbarrett.u64.q1.w5", "powm.tcbarrett.u64.q1.w6", "powm.tcbarrett.u64.q1.w7"})
    cases.push_back({Op::PowM, 12345, 7, 5, 12345, -1, v});
  for (uint64_t bits : {2049ull, 4096ull, 8193ull, 16384ull})
    for (int64_t k = 0; k < 10; ++k) cases.push_back({Op::PowM, bits, 13, k, 160, -1, "powm.tcbarrett.u64.q1.w6"});
  cases.push_back({Op::PowM, 16384, 9, 5, 300, 4, "powm.tcbarrett.u64.q1.w5"});
  cases.push_back({Op::PowM, 16384, 130, 7, 100, -1, "powm.tcbarrett.u64.q1.w7"});
  cases.push_back({Op::PowM, 32768, 5, 3, 64, -1, "powm.tcbarrett.u64.q1.w6"});
  cases.push_back({Op::PowM, 65536, 3, 5, 64, -1, "powm.tcbarrett.u64.q1.w5"});
  cases.push_back({Op::PowM, 8192, 12, -1, 130, -1, "powm.tcbarrett.u64.q1.w6"});
  EXPECT_EQ(test::run_mod_cases(cases, 9180, "tcbarrett powm"), 0u);
}

// Moduli per instance with no plan given: above 64 bits the runtime runs
// the product and its remainder (mulmod.rem / sqrmod.rem,
// runtime/context_ops.cpp), to 64 bits the selector's plan; every modulus
// kind, operands of every kind (>= m among them), odd sizes and limits of
// the warp shapes. The rem variants with a shared modulus (copied to every
// instance) too; ModVsGmp.EveryVariantMatchesGmp runs them to 2^19 bits.
TEST(BarrettVsGmp, ModuliPerInstanceByTheRemainder) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  for (uint64_t bits : {64ull, 65ull, 128ull, 300ull, 512ull, 1000ull, 1024ull, 2048ull, 3001ull, 4096ull, 8192ull,
                        12345ull})
    for (Op op : {Op::MulMod, Op::SqrMod}) cases.push_back({op, bits, 130, -1, 0, -1, nullptr});
  for (int64_t k : {0, 4, 5, 8}) {
    cases.push_back({Op::MulMod, 2048, 40, k, 0, -1, "mulmod.rem.u64.q1"});
    cases.push_back({Op::SqrMod, 4096, 40, k, 0, -1, "sqrmod.rem.u64.q1"});
  }
  EXPECT_EQ(test::run_mod_cases(cases, 9170, "rem"), 0u);
}

TEST(BarrettVsGmp, PowmAbove8Kbit) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  // Full-size exponent at an odd size, each window.
  for (const char* v : {"powm.barrett.u64.q1.w4", "powm.barrett.u64.q1.w5", "powm.barrett.u64.q1.w6"})
    cases.push_back({Op::PowM, 12345, 5, -1, 12345, -1, v});
  // Short exponents (0, 1, 65537, all ones, random) per instance and shared
  // moduli, 16 - 64 Kbit, on the default plan.
  cases.push_back({Op::PowM, 16384, 10, -1, 200, -1, nullptr});
  cases.push_back({Op::PowM, 16384, 10, 4, 200, -1, nullptr});
  cases.push_back({Op::PowM, 16384, 10, 0, 70, -1, nullptr});
  cases.push_back({Op::PowM, 32768, 5, 5, 100, -1, nullptr});
  cases.push_back({Op::PowM, 65536, 5, -1, 64, -1, nullptr});
  EXPECT_EQ(test::run_mod_cases(cases, 9200, "barrett"), 0u);
}

// Small sizes and few instances, for compute-sanitizer (memcheck, racecheck):
// every glue kernel, the operand reduction and the powm loop run.
TEST(BarrettVsGmp, SanitizerSized) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<ModCase> cases;
  // 1024: full-width shared moduli (s = 0), operands >= m go straight into
  // the product (a b < 2^(2N)); the others the Barrett reduction of operands.
  for (uint64_t bits : {65ull, 1000ull, 1024ull, 8193ull}) {
    cases.push_back({Op::MulMod, bits, 5, -1, 0, -1, "mulmod.barrett.u64.q1"});
    cases.push_back({Op::MulMod, bits, 5, 5, 0, -1, "mulmod.barrett.u64.q1"});
    cases.push_back({Op::SqrMod, bits, 5, 4, 0, -1, "sqrmod.barrett.u64.q1"});
  }
  cases.push_back({Op::PowM, 1000, 5, -1, 20, -1, "powm.barrett.u64.q1.w4"});
  cases.push_back({Op::PowM, 8193, 3, 5, 12, -1, "powm.barrett.u64.q1.w6"});
  // A shared modulus on the CRT NTT product, and a powm's moduli per
  // instance: the cached spectra's kernels.
  cases.push_back({Op::MulMod, 32768, 3, 5, 0, -1, "mulmod.barrett.u64.q1"});
  cases.push_back({Op::SqrMod, 32768, 3, 0, 0, -1, "sqrmod.barrett.u64.q1"});
  cases.push_back({Op::PowM, 32768, 3, -1, 6, -1, "powm.barrett.u64.q1.w4"});
  // The product and its remainder: moduli per instance by default, a shared one copied.
  cases.push_back({Op::MulMod, 1000, 5, -1, 0, -1, nullptr});
  cases.push_back({Op::SqrMod, 4097, 3, -1, 0, -1, nullptr});
  cases.push_back({Op::MulMod, 1000, 5, 5, 0, -1, "mulmod.rem.u64.q1"});
  // The reduction products on the tensor cores (shared moduli).
  cases.push_back({Op::MulMod, 1000, 5, 5, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::SqrMod, 4097, 3, 9, 0, -1, "sqrmod.tcbarrett.u64.q1"});
  cases.push_back({Op::PowM, 4097, 3, 5, 20, -1, "powm.tcbarrett.u64.q1.w5"});
  // Full-width shared moduli (s = 0) to ~10 Kbit: the finish in the q m'
  // pass (barrett_rem_wgmma_kernel; three groups of 64, the last partly
  // filled), all-ones and random moduli.
  cases.push_back({Op::MulMod, 4096, 130, 5, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::SqrMod, 8192, 70, 3, 0, -1, "sqrmod.tcbarrett.u64.q1"});
  cases.push_back({Op::PowM, 4096, 3, 5, 20, -1, "powm.tcbarrett.u64.q1.w5"});
  // 12-16 Kbit: the two-warpgroup wgmma product (its carry summaries between
  // warpgroups, three groups of 64 instances) and the finish in registers.
  cases.push_back({Op::MulMod, 16384, 130, 5, 0, -1, "mulmod.tcbarrett.u64.q1"});
  cases.push_back({Op::SqrMod, 12345, 3, 2, 0, -1, "sqrmod.tcbarrett.u64.q1"});
  EXPECT_EQ(test::run_mod_cases(cases, 9300, "barrett"), 0u);
}

TEST(BarrettVsGmp, DefaultPlanAndLimit) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  EXPECT_EQ(ctx.plan(Op::MulMod, 16384, 1000).variant, "mulmod.tcbarrett.u64.q1");  // session 19
  EXPECT_EQ(ctx.plan(Op::MulMod, 65537, 1000).variant, "mulmod.barrett.u64.q1");
  // Up to 2^16 bits the NTT Montgomery powm (session 14; a batch with an even
  // modulus runs the fused NTT Barrett powm, NttMontVsGmp.DefaultPlanAbove16Kbit),
  // the composed Barrett powm above.
  EXPECT_EQ(ctx.plan(Op::PowM, 65536, 100).variant, "powm.nttmont.u64.q1.sw9");
  EXPECT_EQ(ctx.plan(Op::PowM, 65537, 100).variant, "powm.barrett.u64.q1.w6");
  const uint64_t past = 524288 + 1;
  Batch a(ctx, past, 1), b(ctx, past, 1), m(ctx, past, 1), r(ctx, past, 1);
  for (const char* name : std::initializer_list<const char*>{"mulmod.barrett.u64.q1", nullptr}) {
    const Plan plan{name ? name : "", 1, "explicit", 0.0};
    try {
      ctx.mulmod(r, a, b, m, name ? &plan : nullptr);
      ADD_FAILURE() << "mulmod accepted " << past << " bits";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
    }
  }
  try {
    ctx.powm(r, a, b, m);
    ADD_FAILURE() << "powm accepted " << past << " bits";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
  }
}

}  // namespace
}  // namespace bigtune
