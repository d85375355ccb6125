// The persistent cluster add/sub kernels (".p", kernels/variants/
// cluster_persistent_kernels.cuh) over many rounds: each cluster loops over
// instances c, c + C, ..., the next instance's tile fetched into the other
// stage and the tile aggregates double-buffered by round parity, so a bug in
// that hand-over shows only when a cluster runs several rounds.
// ClusterAddSub.* (cluster_add_vs_gmp_test.cpp) covers every size and
// pattern, the limit and limit + 1, but with few instances (one round per
// cluster). Here: counts well above the resident clusters through the
// runtime (real tiles, up to 2^20 bits), and tiny tiles with the clusters
// capped to a few (geometry.grid, as the launch documents), so that rounds of
// 1 .. 8 tiles, an odd last round and patterns whose carries cross every tile
// run under compute-sanitizer at small sizes.
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "bigtune/bigtune.hpp"
#include "kernels/block/chained_layout.hpp"
#include "kernels/registry.hpp"
#include "runtime/run_op.hpp"
#include "tests/gpu/add_sub_cases.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using test::check_case;
using test::Pattern;

bool is_persistent(const kernels::Variant& v) {
  return std::string(v.algorithm) == "cluster" && v.name.size() > 2 && v.name.compare(v.name.size() - 2, 2, ".p") == 0;
}

TEST(ClusterPersistent, ManyRoundsMatchGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  if (limits.cc_major < 9) GTEST_SKIP() << "thread block clusters need sm_90";
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 310);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (!is_persistent(v)) continue;
    ++variants;
    const Op op = v.op == kernels::Op::Add ? Op::Add : Op::Sub;
    const uint64_t t = uint64_t(v.param) * v.q * 64;  // tile bits
    const Plan plan{v.name, 1, "explicit", 0.0};
    // 1, 3 and 8 tiles; counts past the resident clusters of an H100 (~40-50
    // clusters of 8 three-per-SM blocks, ~130-400 of fewer tiles): many rounds.
    struct Size { uint64_t bits, count; };
    for (const Size s : {Size{1000, 4099}, Size{t - 64, 1201}, Size{3 * t - 1, 701}, Size{1000003, 203},
                         Size{uint64_t(1) << 20, 157}}) {
      if (s.bits > std::min(cap, kernels::max_operand_bits(v, limits))) continue;
      for (Pattern p : {Pattern::Mixed, Pattern::CarryAll, Pattern::CarryFromLow, Pattern::ManyPropagate}) {
        if (p == Pattern::ManyPropagate && s.bits <= 64 * test::kStretch) continue;
        bad += check_case(ctx, op, v.name, s.bits, s.count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
          runtime::run_op(ctx, op, r, a, b, &f, 0, &plan);
        });
        ++cases;
      }
    }
  }
  gmp_randclear(rng);
  std::printf("[ cluster.p ] %llu variants, %llu cases, %llu mismatches\n", (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// 32-thread tiles (Q x 32 limbs), the clusters capped to 1, 2 or 5 through
// the geometry's grid: up to 61 rounds per cluster at sizes compute-sanitizer
// can afford; with and without the flags array.
TEST(ClusterPersistent, SmallTilesCappedClusters) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  if (limits.cc_major < 9) GTEST_SKIP() << "thread block clusters need sm_90";
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 311);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& reg : kernels::registry()) {
    if (!is_persistent(reg)) continue;
    ++variants;
    kernels::Variant v = reg;
    v.param = 32;
    const Op op = v.op == kernels::Op::Add ? Op::Add : Op::Sub;
    const uint64_t t = uint64_t(v.param) * v.q * 64;
    for (uint64_t bits : {uint64_t(65), t - 64, t + 1, 3 * t + 777, 8 * t}) {
      if (bits > cap) continue;
      for (uint64_t clusters : {1u, 2u, 5u}) {
        for (Pattern p : {Pattern::Mixed, Pattern::CarryAll, Pattern::CarryFromLow}) {
          const uint64_t count = 61;
          for (bool with_flags : {true, false}) {
            if (!with_flags && p != Pattern::CarryAll) continue;
            bad += check_case(ctx, op, v.name + "(t32, C " + std::to_string(clusters) + (with_flags ? ")" : ", no flags)"),
                              bits, count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
              kernels::Geometry g = kernels::geometry(v, bits, count, 1, limits);
              g.grid = clusters;
              kernels::KernelArgs args = test::add_sub_args(r, a, b, f, v, bits, count, g);
              ASSERT_EQ(kernels::scratch_bytes(v, bits, count), 0u);
              args.scratch = nullptr;
              if (!with_flags) args.flags = nullptr;
              ASSERT_EQ(kernels::launch(v, args, g, 0), cudaSuccess) << v.name << " " << bits;
              if (!with_flags) {
                // check_case compares the flags too: take them from a flagged run
                // of the same inputs into another result (r stays the flagless one's).
                ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
                Batch r2(ctx, r.bits(), r.count());
                args.r = r2.device_data();
                args.flags = reinterpret_cast<uint32_t*>(f.device_data());
                ASSERT_EQ(kernels::launch(v, args, g, 0), cudaSuccess) << v.name << " " << bits;
              }
              ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
            });
            ++cases;
          }
        }
      }
    }
  }
  gmp_randclear(rng);
  std::printf("[ cluster.p t32 ] %llu variants, %llu cases, %llu mismatches\n", (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(variants, 0u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
