// Modular ops (mulmod, sqrmod, powm, gcd, modinv, sqrt) on the GPU against
// GMP (runtime::gmp_reference): every registered variant at sizes from one
// word to its limit (odd sizes included), moduli per instance and shared
// (count 1) of every kind the brief names (random odd and even, 1, 2,
// 2^k +- 1, 2^k, all ones), operands >= m (documented: reduced), exponents 0,
// 1, 65537, short and full-size, gcd with 0, non-invertible inputs; just past
// each variant's limit: Unsupported.
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
#include "runtime/validate.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/mod_check.hpp"
#include "tests/gpu/variant_filter.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {


// Modulus kinds; i picks one per instance (or once for a shared modulus).
void make_modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint64_t i) {
  switch (i % 11) {
    case 0: mpz_set_ui(m, 1); return;
    case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;  // 2^(b-1) + 1
    case 2: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;      // 2^b - 1
    case 3: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1); break;                          // 2^(b-1)
    case 4: mpz_set_ui(m, 2); break;
    case 5: mpz_urandomb(m, rng, bits), mpz_setbit(m, 0); break;                        // odd
    case 6: mpz_urandomb(m, rng, bits), mpz_clrbit(m, 0), mpz_clrbit(m, 1); break;      // even
    case 7: mpz_rrandomb(m, rng, bits); break;
    case 8: mpz_urandomb(m, rng, 1 + i % 60); break;  // small
    default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;  // full odd
  }
  mpz_tdiv_r_2exp(m, m, bits);            // tiny sizes: keep m below 2^bits
  if (mpz_sgn(m) == 0) mpz_set_ui(m, 1);  // m = 0 is outside the API's contract
}

// Exponents: 0, 1, 65537, short and full (ebits) ones.
void make_exponent(mpz_t e, gmp_randstate_t rng, uint64_t ebits, uint64_t i) {
  switch (i % 6) {
    case 0: mpz_set_ui(e, 0); break;
    case 1: mpz_set_ui(e, 1); break;
    case 2: mpz_set_ui(e, 65537); break;
    case 3: mpz_urandomb(e, rng, std::min<uint64_t>(ebits, 40)); break;
    case 4: mpz_set_ui(e, 0), mpz_setbit(e, ebits), mpz_sub_ui(e, e, 1); break;  // all ones
    default: mpz_urandomb(e, rng, ebits), mpz_setbit(e, ebits - 1); break;
  }
  mpz_tdiv_r_2exp(e, e, ebits);
}

enum class Mod { PerInstance, SharedOdd, SharedEven, SharedOne };

// One (op, variant, bits, ipb, modulus mode) case; returns mismatches.
uint64_t run_case(Context& ctx, Op op, const kernels::Variant& v, uint64_t bits, uint32_t ipb, uint64_t count,
                  Mod mode, uint64_t ebits, gmp_randstate_t rng) {
  // $BIGTUNE_TEST_PROGRESS: a line before each case, so that a run cut by a
  // time limit names the case it was in (the line a variant comes at its end).
  if (std::getenv("BIGTUNE_TEST_PROGRESS")) {
    std::printf("    %s: %llu bits, ipb %u, %llu instances, modulus mode %d, exponent bits %llu\n", v.name.c_str(),
                (unsigned long long)bits, ipb, (unsigned long long)count, int(mode), (unsigned long long)ebits);
    std::fflush(stdout);
  }
  const bool has_m = op == Op::MulMod || op == Op::SqrMod || op == Op::PowM || op == Op::ModInv;
  const bool has_b = op == Op::MulMod || op == Op::Gcd || op == Op::PowM;
  const uint64_t m_count = mode == Mod::PerInstance ? count : 1;
  const uint64_t b_bits = op == Op::PowM ? ebits : bits;
  const uint64_t r_bits = op == Op::Sqrt ? (bits + 1) / 2 : bits;
  std::vector<mpz_t> a(count), b(count), m(m_count), r(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    test::make_pair(a[i], b[i], rng, bits, i);  // not reduced: often >= m
    mpz_tdiv_r_2exp(a[i], a[i], bits);          // tiny sizes: keep below 2^bits
    mpz_tdiv_r_2exp(b[i], b[i], bits);
    if (op == Op::PowM) make_exponent(b[i], rng, ebits, i);
    if (op == Op::Gcd && i % 7 == 3) mpz_set_ui(b[i], 0);
    if (op == Op::Gcd && i % 7 == 4) mpz_set_ui(a[i], 0);
  }
  for (uint64_t i = 0; i < m_count; ++i) {
    mpz_init(m[i]);
    switch (mode) {
      case Mod::PerInstance: make_modulus(m[i], rng, bits, i); break;
      case Mod::SharedOdd: make_modulus(m[i], rng, bits, 9); break;
      case Mod::SharedEven: make_modulus(m[i], rng, bits, bits > 2 ? 6 : 4); break;
      case Mod::SharedOne: mpz_set_ui(m[i], 1); break;
    }
  }
  if (op == Op::ModInv)  // non-invertible inputs: a sharing a factor with m
    for (uint64_t i = 0; i < count; i += 5) {
      if (mpz_cmp_ui(m[i % m_count], 1) > 0) mpz_set(a[i], m[i % m_count]);  // gcd(m, m) = m
    }
  Batch da(ctx, bits, count), db(ctx, b_bits, count), dm(ctx, bits, m_count), dr(ctx, r_bits, count);
  Flags flags(ctx, count);
  da.from_mpz(a.data(), count);
  if (has_b) db.from_mpz(b.data(), count);
  if (has_m) dm.from_mpz(m.data(), m_count);
  test::poison(dr);  // an unwritten limb cannot pass
  cudaMemset(flags.device_data(), 0x5a, count * 4);
  cudaDeviceSynchronize();  // the legacy stream: finished before the Context's launch
  const Plan plan{v.name, ipb, "explicit", 0.0};
  switch (op) {
    case Op::MulMod: ctx.mulmod(dr, da, db, dm, &plan); break;
    case Op::SqrMod: ctx.sqrmod(dr, da, dm, &plan); break;
    case Op::PowM: ctx.powm(dr, da, db, dm, &plan); break;
    case Op::Gcd: ctx.gcd(dr, da, db, &plan); break;
    case Op::ModInv: ctx.modinv(dr, da, dm, &flags, &plan); break;
    case Op::Sqrt: ctx.sqrt(dr, da, &plan); break;
    default: ADD_FAILURE() << "not a modular op"; return 1;
  }
  ctx.synchronize();
  dr.to_mpz(r.data(), count);
  const std::vector<int32_t> f = flags.download();
  const uint64_t bad =
      test::count_mod_mismatches(op, bits, r_bits, a, b, m, r,
                                 v.name + " ipb " + std::to_string(ipb) + " mode " + std::to_string(int(mode)),
                                 op == Op::ModInv ? &f : nullptr);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  for (uint64_t i = 0; i < m_count; ++i) mpz_clear(m[i]);
  return bad;
}

class ModVsGmp : public ::testing::TestWithParam<Op> {};

TEST_P(ModVsGmp, EveryVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  const Op op = GetParam();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1000 + static_cast<int>(op));
  const kernels::DeviceLimits limits = test::device_limits();
  const std::vector<uint64_t> sizes{1, 2, 64, 65, 100, 255, 256, 300, 521, 1000, 1024, 2047, 3072, 4097, 8192};
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0;
  // $BIGTUNE_TEST_FAMILY ("thread", "warp"): only that family's variants;
  // $BIGTUNE_TEST_VARIANTS: only names containing one of these comma-separated
  // parts (a GPU run with little time, or a sanitizer run, checks what changed).
  const char* family = std::getenv("BIGTUNE_TEST_FAMILY");
  const auto wanted = [](const std::string& name) { return test::selected_by_env("BIGTUNE_TEST_VARIANTS", name); };
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != runtime::to_kernel_op(op)) continue;
    if (family && *family && std::string(v.family) != family) continue;
    if (!wanted(v.name)) continue;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    // Each size on the smallest variant holding it, plus the variant's limit.
    const uint64_t lower = v.q > 8 ? uint64_t(v.q) * 16 : 0;
    std::vector<uint64_t> mine;
    for (uint64_t bits : sizes)
      if (bits > lower && bits <= limit && bits <= cap) mine.push_back(bits);
    if (limit <= cap) mine.push_back(limit);
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    for (uint64_t bits : mine) {
      const uint64_t count = bits > 2048 ? 23 : 61;  // not multiples of ipb
      // Full-size exponents up to 2048 bits; above, 64-bit ones: the
      // thread-level 4096- and 8192-bit kernels keep their arrays in local
      // memory and take ~1 s per 100 products (measured on the H100).
      // tests/unit/mod_core_test.cpp covers full exponents of every kind.
      // To 64 bits, 203-bit exponents: several words, windows across words.
      const uint64_t ebits = bits <= 64 ? 203 : bits <= 2048 ? bits : 64;
      const uint64_t n = op == Op::PowM && bits > 2048 ? 7 : count;
      for (uint32_t ipb : {1u, 32u, 128u}) {
        if (!kernels::why_invalid(v, bits, n, ipb, limits).empty()) continue;
        bad += run_case(ctx, op, v, bits, ipb, n, Mod::PerInstance, ebits, rng);
        ++cases;
        if (op == Op::MulMod || op == Op::SqrMod || op == Op::PowM) {
          for (Mod mode : {Mod::SharedOdd, Mod::SharedEven, Mod::SharedOne})
            bad += run_case(ctx, op, v, bits, ipb, n, mode, ebits, rng), ++cases;
        }
        if (op == Op::PowM && ipb == 1) break;  // one ipb is enough for the slow powm
      }
    }
    // Just past the limit: a clear Unsupported error, never a wrong result.
    const uint64_t past = limit + 64;
    Batch a(ctx, past, 1), b(ctx, past, 1), m(ctx, past, 1), r(ctx, past, 1);
    Flags f(ctx, 1);
    const Plan plan{v.name, 1, "explicit", 0.0};
    try {
      switch (op) {
        case Op::MulMod: ctx.mulmod(r, a, b, m, &plan); break;
        case Op::SqrMod: ctx.sqrmod(r, a, m, &plan); break;
        case Op::PowM: ctx.powm(r, a, b, m, &plan); break;
        case Op::Gcd: ctx.gcd(r, a, b, &plan); break;
        case Op::ModInv: ctx.modinv(r, a, m, &f, &plan); break;
        default: ctx.sqrt(r, a, &plan); break;
      }
      ADD_FAILURE() << v.name << " accepted " << past << " bits, past its limit " << limit;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
    }
    // A line a variant: a run cut short (powm outlasts a 10-minute device
    // call) shows how far it came.
    std::printf("  %s: %llu cases so far, %llu mismatches\n", v.name.c_str(), (unsigned long long)cases,
                (unsigned long long)bad);
    std::fflush(stdout);
  }
  gmp_randclear(rng);
  std::printf("[ %s ] %llu cases, %llu mismatches\n", op_name(op), (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(ModOps, ModVsGmp,
                         ::testing::Values(Op::MulMod, Op::SqrMod, Op::PowM, Op::Gcd, Op::ModInv, Op::Sqrt),
                         [](const ::testing::TestParamInfo<Op>& info) { return std::string(op_name(info.param)); });

// The default plan (no explicit plan): shared exponent and modulus, large
// batch; at 64 bits (one-word kernels) with a 300-bit exponent.
TEST(ModDefaultPlan, PowmSharedExponentMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 2000);
  for (const uint64_t size : {uint64_t(64), uint64_t(1024)}) {
    const uint64_t bits = std::min<uint64_t>(size, test::max_bits_cap()), count = 1000;
    const uint64_t ebits = bits <= 64 ? 300 : bits;
    std::vector<mpz_t> x(count), r(count);
    mpz_t e, m, want;
    mpz_inits(e, m, want, nullptr);
    mpz_urandomb(e, rng, ebits);
    make_modulus(m, rng, bits, 9);
    for (uint64_t i = 0; i < count; ++i) {
      mpz_inits(x[i], r[i], nullptr);
      test::make_operand(x[i], rng, bits, test::OperandKind::Uniform);
    }
    Batch dx(ctx, bits, count), de(ctx, ebits, 1), dm(ctx, bits, 1), dr(ctx, bits, count);
    dx.from_mpz(x.data(), count);
    de.from_mpz(&e, 1);
    dm.from_mpz(&m, 1);
    ctx.powm(dr, dx, de, dm);
    ctx.synchronize();
    dr.to_mpz(r.data(), count);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < count; ++i) {
      mpz_powm(want, x[i], e, m);
      if (mpz_cmp(want, r[i]) && ++bad <= 3) ADD_FAILURE() << bits << " bits, instance " << i << " got " << test::hex(r[i]);
    }
    EXPECT_EQ(bad, 0u) << bits << " bits";
    for (uint64_t i = 0; i < count; ++i) mpz_clears(x[i], r[i], nullptr);
    mpz_clears(e, m, want, nullptr);
  }
  gmp_randclear(rng);
}

// mulmod/sqrmod.dfma.u64.q16 (.b4, mulmod .roll4 / .roll5, .wtile) with a shared odd modulus of 989 to
// 1024 bits: the 52-bit-limb Barrett on DFMA (kernels/modular/barrett_dfma.cuh).
// Moduli 2^(b-1) + 1, 2^b - 1, odd of full size and with runs; operands m - 1,
// all ones, runs, reduced and not; a batch larger than one block.
TEST(ModDfma, BarrettOnFp64MatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  if (test::max_bits_cap() < 1024) GTEST_SKIP() << "BIGTUNE_TEST_MAX_BITS below 1024";
  std::vector<test::ModCase> cases;
  for (uint64_t bits : {989ull, 1000ull, 1023ull, 1024ull})
    for (int64_t kind : {2, 3, 5, 7})
      for (const char* v : {"mulmod.dfma.u64.q16", "mulmod.dfma.u64.q16.b4", "mulmod.dfma.u64.q16.roll4",
                            "mulmod.dfma.u64.q16.roll5", "mulmod.dfma.u64.q16.roll4.wtile", "sqrmod.dfma.u64.q16",
                            "sqrmod.dfma.u64.q16.b4"})
        cases.push_back({v[0] == 'm' ? Op::MulMod : Op::SqrMod, bits, 300, kind, 0, -1, v});
  // Warp tiles (.wtile): batches of 1, 31 and 33 instances (a part tile), and past one wave of
  // tiles on any GPU up to 160 SMs (3 blocks of 4 warps an SM: 61,440 instances), so that each
  // warp loops and fetches its next tile while it computes.
  for (uint64_t count : {1ull, 31ull, 33ull, 100003ull})
    cases.push_back({Op::MulMod, 1024, count, 5, 0, -1, "mulmod.dfma.u64.q16.roll4.wtile"});
  EXPECT_EQ(test::run_mod_cases(cases, 9400, "mulmod dfma"), 0u);
}

// .roll4.wtile where rows are not 16-byte aligned (a, b and r one word off): its launch runs
// the untiled roll4 kernel. Launched as the runtime does (registry geometry, the variant's
// launch), against GMP.
TEST(ModDfma, WarpTilesUnalignedRunUntiled) {
  BIGTUNE_REQUIRE_GPU();
  if (test::max_bits_cap() < 1024) GTEST_SKIP() << "BIGTUNE_TEST_MAX_BITS below 1024";
  const kernels::Variant* v = kernels::find_variant("mulmod.dfma.u64.q16.roll4.wtile");
  ASSERT_NE(v, nullptr);
  constexpr uint64_t kBits = 1024, kCount = 1001;
  constexpr uint32_t kRow = 16;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 9420);
  test::MpzVector a(kCount), b(kCount), m(1), got(1);
  test::make_modulus_of_kind(m.v[0], rng, kBits, 5);
  // One buffer: a, b, r, m, each past a word of padding (8 bytes off cudaMalloc's alignment).
  const uint64_t span = kCount * kRow + 2;
  std::vector<uint64_t> host(4 * span, 0);
  uint64_t *ha = host.data() + 1, *hb = ha + span, *hm = ha + 3 * span;
  for (uint64_t i = 0; i < kCount; ++i) {
    test::make_mod_operand(a.v[i], rng, kBits, m.v[0], i);
    test::make_mod_operand(b.v[i], rng, kBits, m.v[0], i / 5 + 1);
    mpz_export(ha + i * kRow, nullptr, -1, 8, 0, 0, a.v[i]);
    mpz_export(hb + i * kRow, nullptr, -1, 8, 0, 0, b.v[i]);
  }
  mpz_export(hm, nullptr, -1, 8, 0, 0, m.v[0]);
  uint64_t* dev = nullptr;
  void* scratch = nullptr;
  const uint64_t scratch_need = kernels::scratch_bytes(*v, kBits, kCount);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&dev), host.size() * 8), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&scratch, std::max<uint64_t>(scratch_need, 16)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dev, host.data(), host.size() * 8, cudaMemcpyHostToDevice), cudaSuccess);
  kernels::KernelArgs args;
  args.a = dev + 1;
  args.b = dev + 1 + span;
  args.r = dev + 1 + 2 * span;
  args.m = dev + 1 + 3 * span;
  args.scratch = scratch;
  args.count = kCount;
  args.bits = kBits;
  args.limbs = args.b_limbs = args.out_limbs = args.m_limbs = kRow;
  args.m_shared = 1;
  const kernels::Geometry g = kernels::geometry(*v, kBits, kCount, 1, test::device_limits());
  args.ipb = g.ipb;
  args.threads_per_instance = g.threads_per_instance;
  ASSERT_EQ(kernels::launch(*v, args, g, 0), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(host.data(), dev, host.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(dev);
  cudaFree(scratch);
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < kCount; ++i) {
    mpz_mul(want, a.v[i], b.v[i]);
    mpz_mod(want, want, m.v[0]);
    mpz_import(got.v[0], kRow, -1, 8, 0, 0, ha + 2 * span + i * kRow);
    if (mpz_cmp(want, got.v[0]) != 0 && ++bad <= 3) ADD_FAILURE() << "instance " << i << " got " << test::hex(got.v[0]);
  }
  mpz_clear(want);
  gmp_randclear(rng);
  std::printf("[ mulmod dfma unaligned ] %llu instances, %llu mismatches\n", (unsigned long long)kCount,
              (unsigned long long)bad);
  EXPECT_EQ(bad, 0u);
}

// powm.dfma.u64.q16.w4 / .w5 / .w4.sq / .w5.sq and q32 (dfma_montgomery.cuh): moduli
// per instance of every kind (1, 2, even ones: the fallback pass; 2^k +- 1,
// odd of full size, short ones) and shared odd and even moduli, exponents per
// instance of every kind (0, 1, 65537, all ones, full and half length) and
// shared, at sizes from one limb to 1024 / 2048 bits, a batch over one block.
TEST(ModDfma, PowmOnFp64MatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  if (test::max_bits_cap() < 1024) GTEST_SKIP() << "BIGTUNE_TEST_MAX_BITS below 1024";
  std::vector<test::ModCase> cases;
  for (const char* v : {"powm.dfma.u64.q16.w4", "powm.dfma.u64.q16.w5", "powm.dfma.u64.q16.w4.sq",
                        "powm.dfma.u64.q16.w5.sq"}) {
    for (uint64_t bits : {64ull, 130ull, 521ull, 989ull, 1024ull}) {
      cases.push_back({Op::PowM, bits, 300, -1, bits, -1, v});
      for (int64_t kind : {3, 4, 5}) cases.push_back({Op::PowM, bits, 40, kind, bits, -1, v});
    }
    cases.push_back({Op::PowM, 1024, 130, -1, 2048, 3, v});  // a shared all-ones exponent longer than m
  }
  // 2048 bits: 40 limbs, the SOS forms on 64-thread blocks; and 128-1536 bits.
  for (const char* v : {"powm.dfma.u64.q32.w6", "powm.dfma.u64.q32.w6.sq", "powm.dfma.u64.q32.w5.sq",
                        "powm.dfma.u64.q2.w3.sq", "powm.dfma.u64.q4.w4.sq", "powm.dfma.u64.q8.w4.sq",
                        "powm.dfma.u64.q8.w5.sq", "powm.dfma.u64.q24.w6", "powm.dfma.u64.q24.w5.sq"}) {
    const uint64_t cap = 64 * uint64_t(kernels::find_variant(v)->q);
    for (uint64_t bits : {uint64_t(64), cap / 2 + 13, cap - 1, cap}) {
      cases.push_back({Op::PowM, bits, 150, -1, bits, -1, v});
      for (int64_t kind : {3, 4}) cases.push_back({Op::PowM, bits, 20, kind, bits, -1, v});
    }
  }
  EXPECT_EQ(test::run_mod_cases(cases, 9500, "powm dfma"), 0u);
}

// powm.dfmat.u64.q<NW>.t<T>.w6 (dfma_team_montgomery.cuh): a team of lanes an instance at 2.5
// to 16 Kbit; BIGTUNE_TEST_VARIANTS selects some. Moduli per instance of every kind (1, 2 and even ones: the thread fallback pass;
// 2^k +- 1, short ones) with short exponents of every kind (0, 1, 65537, all ones, random);
// shared odd moduli with full-size exponents per instance; a shared even modulus; a shared
// all-ones exponent longer than m. Sizes from one word to the cap; batches that leave the
// last block part empty.
TEST(ModDfma, PowmOnFp64TeamsMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  // Under a size cap (compute-sanitizer runs): sizes to the cap, 40-bit exponents, odd moduli.
  const uint64_t cap_bits = test::max_bits_cap();
  const bool quick = cap_bits < 8192;
  std::vector<test::ModCase> cases;
  for (const kernels::Variant& variant : kernels::registry()) {
    const std::string v = variant.name;
    if (v.rfind("powm.dfmat.", 0) != 0 || !test::selected_by_env("BIGTUNE_TEST_VARIANTS", v)) continue;
    const uint64_t cap = 64 * uint64_t(variant.q);
    // GMP's side of a full exponent at 16 Kbit takes ~1 s an instance: 8192-bit exponents there.
    const uint64_t full_e = std::min<uint64_t>(cap, 8192);
    for (uint64_t bits : {uint64_t(64), cap / 2 + 13, cap - 1, cap}) {
      if (bits > cap_bits) continue;
      // every modulus kind, short e (under the cap: shared moduli 1 and odd, no even ones, whose
      // thread fallback would take memcheck minutes)
      if (quick) {
        for (int64_t kind : {0, 3}) cases.push_back({Op::PowM, bits, 30, kind, 64, -1, variant.name.c_str()});
      } else {
        cases.push_back({Op::PowM, bits, 50, -1, 64, -1, variant.name.c_str()});
      }
      cases.push_back({Op::PowM, bits, 37, 5, quick ? 40 : std::min(bits, full_e), -1, variant.name.c_str()});
      if (!quick) cases.push_back({Op::PowM, bits, 20, 4, 64, -1, variant.name.c_str()});  // shared even m
    }
    if (cap > cap_bits) continue;
    // a shared all-ones exponent longer than m (but at 16 Kbit)
    cases.push_back({Op::PowM, cap, 45, 3, quick ? 50 : std::min(cap + 100, full_e), 3, variant.name.c_str()});
  }
  EXPECT_EQ(test::run_mod_cases(cases, 9600, "powm dfma teams"), 0u);
}

}  // namespace
}  // namespace bigtune
