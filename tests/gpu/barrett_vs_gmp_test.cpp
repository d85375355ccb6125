// Barrett mulmod / sqrmod / powm (kernels/variants/barrett_instances.cu) on the
// GPU against GMP, at the sizes above the Montgomery kernels' 8 Kbit (odd ones
// like 8193 and 12345, up to the 2^19-bit limit) and small ones for the
// sanitizers. Moduli per instance and shared, of the kinds issue 9 names
// (1, 2, 2^k, 2^k +- 1, even, odd, small, long runs), operands >= m (reduced
// first, bigtune.hpp), the largest reduced product (m - 1)^2, exponents 0, 1,
// 65537, random and all ones; past the limit: Unsupported. Sizes 1 - 8192 of
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
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

void make_modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint64_t kind) {
  switch (kind % 10) {
    case 0: mpz_set_ui(m, 1); break;
    case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1); break;                        // 2^(b-1)
    case 2: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;   // 2^(b-1) + 1
    case 3: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;       // 2^b - 1
    case 4: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_clrbit(m, 0); break;  // even, full
    case 5: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;  // odd, full
    case 6: mpz_urandomb(m, rng, 1 + kind % 100); break;                                   // small
    case 7: mpz_rrandomb(m, rng, bits); break;                                             // runs
    case 8: mpz_set_ui(m, 2); break;
    default: mpz_urandomb(m, rng, bits / 2 + 1); break;                                    // half size
  }
  mpz_tdiv_r_2exp(m, m, bits);
  if (mpz_sgn(m) == 0) mpz_set_ui(m, 1);  // m = 0 is outside the API's contract
}

void make_operand(mpz_t a, gmp_randstate_t rng, uint64_t bits, const mpz_t m, uint64_t kind) {
  switch (kind % 5) {
    case 0: mpz_sub_ui(a, m, 1); break;                                 // m - 1: the largest reduced
    case 1: mpz_urandomm(a, rng, m); break;                             // reduced
    case 2: mpz_set_ui(a, 0), mpz_setbit(a, bits), mpz_sub_ui(a, a, 1); break;  // all ones (>= m)
    case 3: mpz_rrandomb(a, rng, bits); break;                          // runs, often >= m
    default: mpz_urandomb(a, rng, bits); break;
  }
}

void make_exponent(mpz_t e, gmp_randstate_t rng, uint64_t ebits, uint64_t i) {
  switch (i % 5) {
    case 0: mpz_set_ui(e, 0); break;
    case 1: mpz_set_ui(e, 1); break;
    case 2: mpz_set_ui(e, 65537); break;
    case 3: mpz_set_ui(e, 0), mpz_setbit(e, ebits), mpz_sub_ui(e, e, 1); break;  // all ones
    default: mpz_urandomb(e, rng, ebits), mpz_setbit(e, ebits - 1); break;
  }
  mpz_tdiv_r_2exp(e, e, ebits);
}

struct Case {
  Op op;
  uint64_t bits, count;
  int64_t shared_kind;  // -1: a modulus per instance; else the shared modulus' kind
  uint64_t ebits;
  const char* variant;  // nullptr: the default plan
};

// Returns mismatches.
uint64_t run_case(Context& ctx, const Case& c, gmp_randstate_t rng) {
  const uint64_t count = c.count, mc = c.shared_kind < 0 ? count : 1;
  std::vector<mpz_t> a(count), b(count), m(mc), r(count);
  for (uint64_t i = 0; i < mc; ++i) {
    mpz_init(m[i]);
    make_modulus(m[i], rng, c.bits, c.shared_kind < 0 ? i : uint64_t(c.shared_kind));
  }
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    make_operand(a[i], rng, c.bits, m[i % mc], i);
    make_operand(b[i], rng, c.bits, m[i % mc], i / 5 + 1);
    if (c.op == Op::PowM) make_exponent(b[i], rng, c.ebits, i);
  }
  const uint64_t b_bits = c.op == Op::PowM ? c.ebits : c.bits;
  Batch da(ctx, c.bits, count), db(ctx, b_bits, count), dm(ctx, c.bits, mc), dr(ctx, c.bits, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  dm.from_mpz(m.data(), mc);
  {  // poison the output so an unwritten word cannot pass
    std::vector<uint64_t> poison(dr.words_per_instance() * count, 0xdeadbeefdeadbeefull);
    cudaMemcpy(dr.device_data(), poison.data(), poison.size() * 8, cudaMemcpyHostToDevice);
    cudaDeviceSynchronize();
  }
  const Plan plan{c.variant ? c.variant : "", 1, "explicit", 0.0};
  const Plan* p = c.variant ? &plan : nullptr;
  switch (c.op) {
    case Op::MulMod: ctx.mulmod(dr, da, db, dm, p); break;
    case Op::SqrMod: ctx.sqrmod(dr, da, dm, p); break;
    default: ctx.powm(dr, da, db, dm, p); break;
  }
  ctx.synchronize();
  dr.to_mpz(r.data(), count);
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < count; ++i) {
    runtime::RefOperands in;
    in.a = a[i];
    in.b = b[i];
    in.m = m[i % mc];
    int flag = 0;
    runtime::gmp_reference(c.op, c.bits, c.bits, in, want, nullptr, &flag);
    if (mpz_cmp(want, r[i]) && ++bad <= 3)
      ADD_FAILURE() << op_name(c.op) << " " << (c.variant ? c.variant : "(default)") << " bits " << c.bits
                    << " shared " << c.shared_kind << " instance " << i << " of " << count
                    << "\n  a    = " << test::hex(a[i]) << "\n  b/e  = " << test::hex(b[i])
                    << "\n  m    = " << test::hex(m[i % mc]) << "\n  want = " << test::hex(want)
                    << "\n  got  = " << test::hex(r[i]);
  }
  mpz_clear(want);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  for (uint64_t i = 0; i < mc; ++i) mpz_clear(m[i]);
  return bad;
}

uint64_t run_all(const std::vector<Case>& cases, uint64_t seed) {
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + seed);
  uint64_t bad = 0;
  for (const Case& c : cases) bad += run_case(ctx, c, rng);
  gmp_randclear(rng);
  std::printf("[ barrett ] %zu cases, %llu mismatches\n", cases.size(), (unsigned long long)bad);
  return bad;
}

// Every shared-modulus kind and per-instance moduli, for mulmod and sqrmod.
void add_mod_cases(std::vector<Case>& out, Op op, uint64_t bits, uint64_t count, const char* variant) {
  out.push_back({op, bits, count, -1, 0, variant});
  for (int64_t k : {0, 1, 2, 3, 4, 5, 6})
    if (bits <= 16384 || k % 2 == 1) out.push_back({op, bits, count, k, 0, variant});
}

TEST(BarrettVsGmp, MulmodSqrmodAbove8Kbit) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<Case> cases;
  for (uint64_t bits : {8193ull, 12345ull, 16384ull, 16385ull, 40000ull, 65536ull, 100000ull})
    for (Op op : {Op::MulMod, Op::SqrMod}) add_mod_cases(cases, op, bits, bits > 20000 ? 7 : 13, "x");
  for (Case& c : cases) c.variant = c.op == Op::MulMod ? "mulmod.barrett.u64.q1" : "sqrmod.barrett.u64.q1";
  cases.push_back({Op::MulMod, 262144, 5, -1, 0, "mulmod.barrett.u64.q1"});
  cases.push_back({Op::SqrMod, 262144, 5, 5, 0, "sqrmod.barrett.u64.q1"});
  // The limit, 2^19 bits (the division of 2^(2N) - 1 runs at 2^20 bits).
  cases.push_back({Op::MulMod, 524288, 3, -1, 0, "mulmod.barrett.u64.q1"});
  cases.push_back({Op::SqrMod, 524288, 3, 4, 0, "sqrmod.barrett.u64.q1"});
  EXPECT_EQ(run_all(cases, 9100), 0u);
}

TEST(BarrettVsGmp, PowmAbove8Kbit) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<Case> cases;
  // Full-size exponent at an odd size, each window.
  for (const char* v : {"powm.barrett.u64.q1.w4", "powm.barrett.u64.q1.w5", "powm.barrett.u64.q1.w6"})
    cases.push_back({Op::PowM, 12345, 5, -1, 12345, v});
  // Short exponents (0, 1, 65537, all ones, random) per instance and shared
  // moduli, 16 - 64 Kbit, on the default plan.
  cases.push_back({Op::PowM, 16384, 10, -1, 200, nullptr});
  cases.push_back({Op::PowM, 16384, 10, 4, 200, nullptr});
  cases.push_back({Op::PowM, 16384, 10, 0, 70, nullptr});
  cases.push_back({Op::PowM, 32768, 5, 5, 100, nullptr});
  cases.push_back({Op::PowM, 65536, 5, -1, 64, nullptr});
  EXPECT_EQ(run_all(cases, 9200), 0u);
}

// Small sizes and few instances, for compute-sanitizer (memcheck, racecheck):
// every glue kernel, the operand reduction and the powm loop run.
TEST(BarrettVsGmp, SanitizerSized) {
  BIGTUNE_REQUIRE_GPU();
  std::vector<Case> cases;
  // 1024: full-width shared moduli (s = 0), operands >= m take the
  // one-subtraction path; the others the Barrett reduction of operands.
  for (uint64_t bits : {65ull, 1000ull, 1024ull, 8193ull}) {
    cases.push_back({Op::MulMod, bits, 5, -1, 0, "mulmod.barrett.u64.q1"});
    cases.push_back({Op::MulMod, bits, 5, 5, 0, "mulmod.barrett.u64.q1"});
    cases.push_back({Op::SqrMod, bits, 5, 4, 0, "sqrmod.barrett.u64.q1"});
  }
  cases.push_back({Op::PowM, 1000, 5, -1, 20, "powm.barrett.u64.q1.w4"});
  cases.push_back({Op::PowM, 8193, 3, 5, 12, "powm.barrett.u64.q1.w6"});
  EXPECT_EQ(run_all(cases, 9300), 0u);
}

TEST(BarrettVsGmp, DefaultPlanAndLimit) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  EXPECT_EQ(ctx.plan(Op::MulMod, 16384, 1000).variant, "mulmod.barrett.u64.q1");
  // Task nttfuse: the fused NTT Barrett powm up to 2^16 bits, the composed one above.
  EXPECT_EQ(ctx.plan(Op::PowM, 65536, 100).variant, "powm.nttbarrett.u64.q1.w6.b2");
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
