// The cluster add/sub family (kernels/variants/cluster_kernels.cuh: one
// thread block cluster per instance, early stores) against GMP: every variant
// at odd sizes, its tile boundaries +-1 limb, 2^20 bits and its exact limit
// (2^20 + 1 bits where it is above it); carries
// and borrows rippling through every limb and every tile; count 1 and many;
// without the flags array; one limb past the limit is Unsupported. A second
// test runs the kernels with tiny tiles (32 threads x Q limbs), many tiles per
// instance and many instances, at sizes compute-sanitizer can afford.
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/block/chained_layout.hpp"
#include "kernels/registry.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "tests/gpu/add_sub_cases.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using test::check_case;
using test::kStretch;
using test::Pattern;

bool is_cluster(const kernels::Variant& v) { return std::string(v.algorithm) == "cluster"; }

// Tile of a variant at full width (Variant.param = T), in bits.
uint64_t tile_bits(const kernels::Variant& v) { return uint64_t(v.param) * v.q * 64; }

TEST(ClusterAddSub, EveryVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  if (limits.cc_major < 9) GTEST_SKIP() << "thread block clusters need sm_90";
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 300);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (!is_cluster(v)) continue;
    if (variants++ > 0)  // progress: a run cut short still says which variants passed
      std::printf("[ cluster ] after %llu variants: %llu cases, %llu mismatches\n", (unsigned long long)variants - 1,
                  (unsigned long long)cases, (unsigned long long)bad), std::fflush(stdout);
    const Op op = v.op == kernels::Op::Add ? Op::Add : Op::Sub;
    const uint64_t t = tile_bits(v), limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, 8 * t) << v.name;
    std::vector<uint64_t> sizes{1, 65, 1000, 3072, 100003, 1000001, uint64_t(1) << 20, (uint64_t(1) << 20) + 1, limit};
    for (uint64_t k : {1u, 3u})
      for (int64_t d : {-1, 0, 1}) sizes.push_back(uint64_t(int64_t(k * t) + 64 * d));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    const Plan plan{v.name, 1, "explicit", 0.0};
    for (uint64_t bits : sizes) {
      if (bits > std::min(limit, cap)) continue;
      const uint64_t many = bits >= (uint64_t(1) << 22) ? 2 : bits >= 300000 ? 7 : 33;
      for (Pattern p : {Pattern::Mixed, Pattern::CarryAll, Pattern::CarryFromLow, Pattern::ManyPropagate}) {
        if (p == Pattern::ManyPropagate && bits <= 64 * kStretch) continue;  // no stretch
        for (uint64_t count : {uint64_t(1), many}) {
          if (count == 1 && p == Pattern::Mixed && bits > 3 * t) continue;  // count `many` covers it
          bad += check_case(ctx, op, v.name, bits, count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
            runtime::run_op(ctx, op, r, a, b, &f, 0, &plan);
          });
          ++cases;
        }
      }
    }
    // Without the flags array as well (the benchmark's --no-flags).
    const uint64_t nf = std::min(2 * t + 64, limit);
    if (nf <= cap)
      bad += check_case(ctx, op, v.name + " (no flags)", nf, 5, Pattern::CarryAll, rng,
                        [&](Batch& r, Batch& a, Batch& b, Flags& f) {
                          runtime::run_op(ctx, op, r, a, b, nullptr, 0, &plan);
                          // matches_gmp needs a flag: take it from a flagged run of the same inputs
                          Batch r2(ctx, r.bits(), r.count());
                          runtime::run_op(ctx, op, r2, a, b, &f, 0, &plan);
                        });
    // One bit and one limb past the limit: Unsupported, not a wrong result or a hang.
    for (uint64_t past : {limit + 1, limit + 64}) test::expect_unsupported_past(ctx, op, plan, past, limit);
  }
  gmp_randclear(rng);
  std::printf("[ cluster ] %llu variants, %llu cases, %llu mismatches\n", (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The registered kernels with 32-thread tiles (128 limbs), up to 8 tiles per
// instance (the cluster limit) and hundreds of clusters; launched like the
// runtime does.
TEST(ClusterAddSub, SmallTilesManyBlocks) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  if (limits.cc_major < 9) GTEST_SKIP() << "thread block clusters need sm_90";
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 301);
  uint64_t cases = 0, bad = 0;
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  std::vector<const void*> seen;
  for (const kernels::Variant& reg : kernels::registry()) {
    if (!is_cluster(reg)) continue;
    if (std::find(seen.begin(), seen.end(), reg.kernel) != seen.end()) continue;
    seen.push_back(reg.kernel);
    kernels::Variant v = reg;
    v.param = 32;
    const Op op = v.op == kernels::Op::Add ? Op::Add : Op::Sub;
    const uint64_t t = tile_bits(v);
    for (uint64_t bits : {t - 64, t, t + 1, 2 * t - 1, 5 * t + 777, 8 * t - 64, 8 * t}) {
      if (bits > cap) continue;
      for (Pattern p : {Pattern::Mixed, Pattern::CarryAll, Pattern::CarryFromLow, Pattern::ManyPropagate}) {
        const uint64_t count = bits > 10 * t ? 17 : 61;
        bad += check_case(ctx, op, v.name + "(t32)", bits, count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
          const kernels::Geometry g = kernels::geometry(v, bits, count, 1, limits);
          kernels::KernelArgs args = test::add_sub_args(r, a, b, f, v, bits, count, g);
          EXPECT_EQ(kernels::scratch_bytes(v, bits, count), 0u) << v.name << " " << bits;  // no scratch
          EXPECT_EQ(kernels::block::chained_tiles(uint32_t(args.limbs), 32 * v.q), kernels::block::ceil_div(bits, t));
          args.scratch = nullptr;
          ASSERT_EQ(kernels::launch(v, args, g, 0), cudaSuccess) << v.name << " " << bits;
          ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        });
        ++cases;
      }
    }
    // Past 8 tiles the cluster launch refuses (an error, not a wrong answer).
    {
      const uint64_t bits = 8 * t + 64;
      Batch a(ctx, bits, 1), b(ctx, bits, 1), r(ctx, bits, 1);
      kernels::KernelArgs args;
      args.r = r.device_data();
      args.a = a.device_data();
      args.b = b.device_data();
      args.count = 1;
      args.bits = bits;
      args.limbs = kernels::operand_limbs(v, bits);
      args.out_limbs = args.limbs;
      args.ipb = 1;
      const kernels::Geometry g = kernels::geometry(v, 1000, 1, 1, limits);
      EXPECT_EQ(kernels::launch(v, args, g, 0), cudaErrorInvalidConfiguration) << v.name;
    }
  }
  gmp_randclear(rng);
  std::printf("[ cluster t32 ] %llu kernels, %llu cases, %llu mismatches\n", (unsigned long long)seen.size(),
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(seen.size(), 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
