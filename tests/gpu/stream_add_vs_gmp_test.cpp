// The streaming add/sub family (one block per instance walking it tile by
// tile, the carry kept inside the block: kernels/variants/stream_kernels.cuh)
// against GMP: every stream variant at its tile boundaries +-1 limb, odd sizes
// (65, 1000, 3072, 100003, 1048577 bits), 2^20 bits and its 2^31-bit limit
// (a carry through all 2^25 limbs); carries and borrows rippling through every
// limb and every tile; count 1 and counts that are multiples of nothing; no
// flags array; one past the limit is Unsupported. A second test runs the same
// kernels with small tiles (32 and 96 threads: 128 .. 768 limbs), so that even
// small sizes take dozens of tiles, at sizes compute-sanitizer can afford.
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/block/stream_layout.hpp"
#include "kernels/registry.hpp"
#include "runtime/run_op.hpp"
#include "tests/gpu/add_sub_cases.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"

namespace bigtune {
namespace {

using test::check_case;
using test::kStretch;
using test::Pattern;

constexpr Pattern kPatterns[] = {Pattern::Mixed, Pattern::CarryAll, Pattern::CarryFromLow, Pattern::ManyPropagate};

bool is_stream(const kernels::Variant& v) { return std::string(v.algorithm) == "stream"; }

// Tile of a variant at full width, in bits.
uint64_t tile_bits(const kernels::Variant& v) { return uint64_t(v.param) * v.q * 64; }

Op host_op(const kernels::Variant& v) { return v.op == kernels::Op::Add ? Op::Add : Op::Sub; }

TEST(StreamAddSub, EveryVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 300);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (!is_stream(v)) continue;
    ++variants;
    const Op op = host_op(v);
    const uint64_t t = tile_bits(v), limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, uint64_t(1) << 31) << v.name;
    std::vector<uint64_t> sizes{1, 64, 65, 1000, 3072, 100003, 1000001, uint64_t(1) << 20, (uint64_t(1) << 20) + 1};
    for (uint64_t k : {1u, 2u, 3u, 9u})
      for (int64_t d : {-64, -1, 0, 1, 64}) sizes.push_back(uint64_t(int64_t(k * t) + d));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    const Plan plan{v.name, 1, "explicit", 0.0};
    for (uint64_t bits : sizes) {
      if (bits > cap) continue;
      const uint64_t many = bits >= 300000 ? 7 : 37;  // counts that are multiples of nothing
      for (Pattern p : kPatterns) {
        if (p == Pattern::ManyPropagate && bits <= 64 * kStretch) continue;  // no stretch
        for (uint64_t count : {uint64_t(1), many}) {
          bad += check_case(ctx, op, v.name, bits, count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
            runtime::run_op(ctx, op, r, a, b, &f, 0, &plan);
          });
          ++cases;
        }
      }
    }
    // At the limit: one instance of 2^31 bits, the carry (borrow) through all
    // of its 2^25 limbs and 2^14 .. 2^15 tiles.
    if (limit <= cap) {
      bad += check_case(ctx, op, v.name, limit, 1, Pattern::CarryAll, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
        runtime::run_op(ctx, op, r, a, b, &f, 0, &plan);
      });
      ++cases;
    }
    // Without the flags array as well (the benchmark's --no-flags).
    if (3 * t + 65 <= cap) {
      bad += check_case(ctx, op, v.name + " (no flags)", 3 * t + 65, 5, Pattern::CarryAll, rng,
                        [&](Batch& r, Batch& a, Batch& b, Flags& f) {
                          runtime::run_op(ctx, op, r, a, b, nullptr, 0, &plan);
                          // check_case compares the flags too: take them from a flagged
                          // run of the same inputs into another result
                          Batch r2(ctx, r.bits(), r.count());
                          runtime::run_op(ctx, op, r2, a, b, &f, 0, &plan);
                        });
      ++cases;
    }
    // One limb past the limit: Unsupported, not a wrong result or a hang.
    if (limit + 64 <= cap) test::expect_unsupported_past(ctx, op, plan, limit + 64, limit);
    // More than one instance per block: not this family's shape.
    {
      Batch a(ctx, uint64_t(1) << 20, 2), b(ctx, uint64_t(1) << 20, 2), r(ctx, uint64_t(1) << 20, 2);
      const Plan two{v.name, 2, "explicit", 0.0};
      try {
        runtime::run_op(ctx, op, r, a, b, nullptr, 0, &two);
        ADD_FAILURE() << v.name << " accepted 2 instances per block at 2^20 bits";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
      }
    }
  }
  gmp_randclear(rng);
  std::printf("[ stream ] %llu variants, %llu cases, %llu mismatches\n", (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_EQ(variants, 4u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The registered kernels with small tiles (Variant.param = 32 or 96 threads:
// tiles of 128 .. 768 limbs, 96 not a power of two), so that sizes from one
// tile to 40 tiles per instance run in seconds under compute-sanitizer;
// launched as the runtime does (registry geometry, the variant's launch).
TEST(StreamAddSub, SmallTilesManyTiles) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 301);
  uint64_t cases = 0, bad = 0;
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  std::vector<std::pair<kernels::Op, uint32_t>> seen;
  for (const kernels::Variant& reg : kernels::registry()) {
    if (!is_stream(reg)) continue;
    // One variant per (op, Q, stages): the tile width is replaced.
    const auto key = std::make_pair(reg.op, reg.q * 10 + (reg.name.find(".s3") != std::string::npos ? 3 : 2));
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    for (uint32_t width : {32u, 96u}) {
      kernels::Variant v = reg;
      v.param = width;
      const Op op = host_op(v);
      const uint64_t t = tile_bits(v);
      for (uint64_t bits : {uint64_t(65), t - 64, t, t + 1, 5 * t + 777, uint64_t(100003), 40 * t, 40 * t + 64}) {
        if (bits > cap) continue;
        for (Pattern p : kPatterns) {
          const uint64_t count = bits > 10 * t ? 17 : 101;
          const std::string what = v.name + "(t" + std::to_string(width) + ")";
          bad += check_case(ctx, op, what, bits, count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
            ASSERT_TRUE(kernels::why_invalid(v, bits, count, 1, limits).empty()) << what << " " << bits;
            const kernels::Geometry g = kernels::geometry(v, bits, count, 1, limits);
            kernels::KernelArgs args = test::add_sub_args(r, a, b, f, v, bits, count, g);
            EXPECT_EQ(kernels::scratch_bytes(v, bits, count), 0u);  // no cross-block state
            ASSERT_EQ(kernels::launch(v, args, g, 0), cudaSuccess);
            ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
          });
          ++cases;
        }
      }
    }
  }
  gmp_randclear(rng);
  std::printf("[ stream small tiles ] %llu cases, %llu mismatches\n", (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_EQ(seen.size(), 4u);  // add and sub, two and three stages
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The default plan where runtime/default_plan.cpp names a stream variant
// (2^16 .. 2^17 bits, above 2^21 bits), with no explicit plan, against GMP.
TEST(StreamAddSub, DefaultPlanMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 302);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, streamed = 0;
  for (Op op : {Op::Add, Op::Sub}) {
    for (uint64_t bits : {uint64_t(65536), uint64_t(100003), uint64_t(131072), (uint64_t(1) << 22) + 64}) {
      if (bits > cap) continue;
      const uint64_t count = bits > 200000 ? 3 : 37;
      const Plan plan = ctx.plan(op, bits, count);
      streamed += plan.variant.find(".stream.") != std::string::npos;
      for (Pattern p : kPatterns) {
        bad += check_case(ctx, op, "default " + plan.variant, bits, count, p, rng,
                          [&](Batch& r, Batch& a, Batch& b, Flags& f) { runtime::run_op(ctx, op, r, a, b, &f, 0); });
        ++cases;
      }
    }
  }
  gmp_randclear(rng);
  std::printf("[ stream default plan ] %llu cases (%llu sizes on a stream plan), %llu mismatches\n",
              (unsigned long long)cases, (unsigned long long)streamed, (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
