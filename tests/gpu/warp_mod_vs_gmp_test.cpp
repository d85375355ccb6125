// Warp-level powm (kernels/variants/warp_mod_kernels.cuh) with FULL-size
// exponents at 1000 - 8192 bits against GMP mpz_powm: what
// tests/gpu/mod_vs_gmp_test.cpp leaves out above 2048 bits (it cuts exponents
// to 64 bits there for the slow thread-level kernels; it covers every other
// case of these variants: sizes from one word to each limit, every kind of
// modulus, shared and per instance, just past the limit).
// Here: per-instance odd full-size moduli, a batch mixing x >= m, e = 0, 1,
// 65537 and full-length exponents, on each warp powm variant at the largest
// size it is meant for and at odd sizes below it (3072, 4097); and the same
// batch with one shared modulus and one shared exponent.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "kernels/warp/warp_mod_layout.hpp"
#include "kernels/warp/warp_mod_shapes.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/variant_filter.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

uint64_t check_powm(Context& ctx, const kernels::Variant& v, uint64_t bits, uint64_t count, bool shared,
                    const kernels::DeviceLimits& limits, gmp_randstate_t rng) {
  const uint64_t mc = shared ? 1 : count;
  std::vector<mpz_t> x(count), e(mc), m(mc), r(count);
  for (uint64_t i = 0; i < mc; ++i) {
    mpz_inits(e[i], m[i], nullptr);
    mpz_urandomb(m[i], rng, bits), mpz_setbit(m[i], bits - 1), mpz_setbit(m[i], 0);
    if (i % 4 == 1) mpz_set_ui(m[i], 0), mpz_setbit(m[i], bits - 1), mpz_add_ui(m[i], m[i], 1);  // 2^(b-1) + 1
    switch (shared ? 3 : i % 5) {
      case 0: mpz_set_ui(e[i], 0); break;
      case 1: mpz_set_ui(e[i], 1); break;
      case 2: mpz_set_ui(e[i], 65537); break;
      default: mpz_urandomb(e[i], rng, bits), mpz_setbit(e[i], bits - 1); break;  // full length
    }
  }
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(x[i], r[i], nullptr);
    test::make_operand(x[i], rng, bits, static_cast<test::OperandKind>(i % test::kOperandKinds));  // often >= m
  }
  Batch dx(ctx, bits, count), de(ctx, bits, mc), dm(ctx, bits, mc), dr(ctx, bits, count);
  dx.from_mpz(x.data(), count);
  de.from_mpz(e.data(), mc);
  dm.from_mpz(m.data(), mc);
  // ~128 threads per block, fewer instances where the tables outgrow shared memory.
  uint32_t ipb = std::max<uint32_t>(1, 128 / kernels::threads_per_instance(v, bits));
  while (ipb > 1 && !kernels::why_invalid(v, bits, count, ipb, limits).empty()) ipb /= 2;
  const Plan plan{v.name, ipb, "explicit", 0.0};
  ctx.powm(dr, dx, de, dm, &plan);
  ctx.synchronize();
  dr.to_mpz(r.data(), count);
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_powm(want, x[i], e[i % mc], m[i % mc]);
    if (mpz_cmp(want, r[i]) && ++bad <= 3)
      ADD_FAILURE() << v.name << " bits " << bits << " shared " << shared << " instance " << i
                    << "\n  x = " << test::hex(x[i]) << "\n  e = " << test::hex(e[i % mc]) << "\n  m = "
                    << test::hex(m[i % mc]) << "\n  want " << test::hex(want) << "\n  got  " << test::hex(r[i]);
  }
  mpz_clear(want);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(x[i], r[i], nullptr);
  for (uint64_t i = 0; i < mc; ++i) mpz_clears(e[i], m[i], nullptr);
  return bad;
}

TEST(WarpModVsGmp, PowmFullExponents) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 4000);
  const kernels::DeviceLimits limits = test::device_limits();
  uint64_t cases = 0, bad = 0;
  // $BIGTUNE_TEST_VARIANTS: only names containing one of these comma-separated
  // parts (as tests/gpu/mod_vs_gmp_test.cpp).
  const auto wanted = [](const std::string& name) { return test::selected_by_env("BIGTUNE_TEST_VARIANTS", name); };
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != kernels::Op::PowM || std::string(v.family) != "warp" || !wanted(v.name)) continue;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    std::vector<uint64_t> sizes{limit};
    for (uint64_t odd : {1000u, 3072u, 4097u})
      if (odd <= limit && 2 * odd > limit) sizes.push_back(odd);  // sizes this shape is meant for
    for (uint64_t bits : sizes)
      for (bool shared : {false, true}) {
        // GMP is the slow side at 8 Kbit (mpz_powm ~5 per second and core).
        bad += check_powm(ctx, v, bits, bits > 4200 ? 3 : bits > 2048 ? 9 : 37, shared, limits, rng);
        ++cases;
      }
  }
  gmp_randclear(rng);
  std::printf("[ warp powm, full exponents ] %llu cases, %llu mismatches\n", (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The global-table powm runs a batch in chunks that reuse the tables
// (kernels/variants/warp_mod_launch.cu): at most the table slots, 2^19 / L
// instances (warp_mod_layout.hpp), cut to whole waves of resident blocks
// (task powm1k), so twice the slots plus 7 is at least 2 chunks and a partial
// third, each with its own x, e and m (pointers advanced per chunk), and the
// shared-modulus case.
// Short exponents keep GMP's side to a few seconds.
// Both global-table kernels: the block product's and the squaring's (task
// powmsqr), which share the launch.
void check_chunks(const char* name) {
  const kernels::Variant* v = kernels::find_variant(name);
  ASSERT_NE(v, nullptr) << name;
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 4100);
  const uint64_t bits = 1000;
  const uint64_t count = 2 * (kernels::warp::kWarpModGlobalChunkThreads / kernels::warp::warp_mod_lanes(v->param)) + 7;
  uint64_t bad = 0;
  for (bool shared : {false, true}) {
    const uint64_t mc = shared ? 1 : count;
    std::vector<mpz_t> x(count), e(count), m(mc), r(count);
    for (uint64_t i = 0; i < count; ++i) {
      mpz_inits(x[i], e[i], r[i], nullptr);
      mpz_urandomb(x[i], rng, bits);
      mpz_urandomb(e[i], rng, 17);
      if (i % 1000 == 0) mpz_set_ui(e[i], i % 2000 == 0 ? 0 : 1);
    }
    for (uint64_t i = 0; i < mc; ++i) {
      mpz_init(m[i]);
      mpz_urandomb(m[i], rng, bits), mpz_setbit(m[i], bits - 1), mpz_setbit(m[i], 0);
    }
    Batch dx(ctx, bits, count), de(ctx, 17, count), dm(ctx, bits, mc), dr(ctx, bits, count);
    dx.from_mpz(x.data(), count);
    de.from_mpz(e.data(), count);
    dm.from_mpz(m.data(), mc);
    const Plan plan{v->name, 16, "explicit", 0.0};
    ctx.powm(dr, dx, de, dm, &plan);
    ctx.synchronize();
    dr.to_mpz(r.data(), count);
    mpz_t want;
    mpz_init(want);
    for (uint64_t i = 0; i < count; ++i) {
      mpz_powm(want, x[i], e[i], m[shared ? 0 : i]);
      if (mpz_cmp(want, r[i]) && ++bad <= 3)
        ADD_FAILURE() << name << " shared " << shared << " instance " << i << "\n  want "
                      << test::hex(want) << "\n  got  " << test::hex(r[i]);
    }
    mpz_clear(want);
    for (uint64_t i = 0; i < count; ++i) mpz_clears(x[i], e[i], r[i], nullptr);
    for (uint64_t i = 0; i < mc; ++i) mpz_clear(m[i]);
  }
  gmp_randclear(rng);
  std::printf("[ warp powm, global-table chunks, %s ] 2 x %llu instances, %llu mismatches\n", name,
              (unsigned long long)count, (unsigned long long)bad);
  EXPECT_EQ(bad, 0u);
}

TEST(WarpModVsGmp, PowmGlobalTableChunks) {
  BIGTUNE_REQUIRE_GPU();
  check_chunks("powm.bgfixed.u32.q8.l4.w5");
  check_chunks("powm.bgsqr.u32.q8.l4.w5");
}

// The two-lane powm (task powm1k): both q16.l2 variants at their limit (1024
// bits) and the odd sizes below it, small ones included (65, 255: one block
// of Q = 16 limbs, the squaring's S = 1 path), per-instance and shared
// modulus and exponent, full-length exponents (check_powm: x >= m, e = 0, 1,
// 65537); one bit past the limit: Unsupported. tests/gpu/mod_vs_gmp_test.cpp
// adds every kind of modulus (even ones through the thread fallback, 1).
TEST(WarpModVsGmp, PowmTwoLaneSizes) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 4200);
  const kernels::DeviceLimits limits = test::device_limits();
  uint64_t cases = 0, bad = 0;
  for (const char* name : {"powm.bgsqr.u32.q16.l2.w5", "powm.bgsqr.u32.q16.l2.w6"}) {
    const kernels::Variant* v = kernels::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    const uint64_t limit = kernels::max_operand_bits(*v, limits);
    EXPECT_EQ(limit, 1024u) << name;
    for (uint64_t bits : {uint64_t(65), uint64_t(255), uint64_t(521), uint64_t(1000), limit})
      for (bool shared : {false, true}) {
        bad += check_powm(ctx, *v, bits, 37, shared, limits, rng);
        ++cases;
      }
    const uint64_t past = limit + 1;
    Batch a(ctx, past, 1), e(ctx, past, 1), m(ctx, past, 1), r(ctx, past, 1);
    const Plan plan{v->name, 1, "explicit", 0.0};
    try {
      ctx.powm(r, a, e, m, &plan);
      ADD_FAILURE() << name << " accepted " << past << " bits, past its limit " << limit;
    } catch (const Error& err) {
      EXPECT_EQ(err.code(), ErrorCode::Unsupported) << err.what();
    }
  }
  gmp_randclear(rng);
  std::printf("[ warp powm q16.l2, sizes 65 - 1024 ] %llu cases, %llu mismatches\n", (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_EQ(bad, 0u);
}

// The two-lane kernel through the chunked launch (16 instances per block).
TEST(WarpModVsGmp, PowmGlobalTableChunksTwoLane) {
  BIGTUNE_REQUIRE_GPU();
  check_chunks("powm.bgsqr.u32.q16.l2.w5");
}

}  // namespace
}  // namespace bigtune
