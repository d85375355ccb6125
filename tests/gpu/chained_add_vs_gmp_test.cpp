// The chained add/sub family (one instance over several blocks, carry passed by
// a decoupled look-back: kernels/variants/chained_kernels.cuh) against GMP:
// every chained variant at its tile boundaries +-1 limb, odd sizes, 2^20 bits
// and its 2^24-bit limit; carries and borrows rippling through every limb and
// every tile; count 1 and many; one past the limit is Unsupported. A second
// test runs the same kernels with tiny tiles (32 threads x Q limbs), many
// tiles per instance and many instances, so that the look-back is exercised
// hard at sizes compute-sanitizer can afford.
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

bool is_chained(const kernels::Variant& v) { return std::string(v.algorithm) == "chained"; }

// Tile of a variant at full width, in bits.
uint64_t tile_bits(const kernels::Variant& v) { return uint64_t(v.param) * v.q * 64; }

TEST(ChainedAddSub, EveryVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 200);
  const uint64_t cap = test::max_bits_cap();
  uint64_t cases = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (!is_chained(v)) continue;
    ++variants;
    const Op op = v.op == kernels::Op::Add ? Op::Add : Op::Sub;
    const uint64_t t = tile_bits(v), limit = kernels::max_operand_bits(v, limits);
    EXPECT_EQ(limit, uint64_t(1) << 24) << v.name;
    std::vector<uint64_t> sizes{1, 65, 1000, 3072, 100003, 1000001, uint64_t(1) << 20, limit};
    for (uint64_t k : {1u, 2u, 3u, 7u})
      for (int64_t d : {-64, -1, 0, 1, 64}) sizes.push_back(uint64_t(int64_t(k * t) + d));
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    const Plan plan{v.name, 1, "explicit", 0.0};
    for (uint64_t bits : sizes) {
      if (bits > std::min(limit, cap)) continue;
      const uint64_t many = bits >= (uint64_t(1) << 22) ? 3 : bits >= 300000 ? 9 : 33;
      for (Pattern p : {Pattern::Mixed, Pattern::CarryAll, Pattern::CarryFromLow, Pattern::ManyPropagate}) {
        if (p == Pattern::ManyPropagate && bits <= 64 * kStretch) continue;  // no stretch
        for (uint64_t count : {uint64_t(1), many}) {
          bad += check_case(ctx, op, v.name, bits, count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
            runtime::run_op(ctx, op, r, a, b, &f, 0, &plan);
          });
          ++cases;
        }
      }
    }
    // Without the flags array as well (the benchmark's --no-flags).
    if (2 * t + 64 <= cap)
      bad += check_case(ctx, op, v.name + " (no flags)", 2 * t + 64, 5, Pattern::CarryAll, rng,
                        [&](Batch& r, Batch& a, Batch& b, Flags& f) {
                          runtime::run_op(ctx, op, r, a, b, nullptr, 0, &plan);
                          // matches_gmp needs a flag: take it from a flagged run of the same inputs
                          Batch r2(ctx, r.bits(), r.count());
                          runtime::run_op(ctx, op, r2, a, b, &f, 0, &plan);
                        });
    // One limb past the limit: Unsupported, not a wrong result or a hang.
    test::expect_unsupported_past(ctx, op, plan, limit + 64, limit);
  }
  gmp_randclear(rng);
  std::printf("[ chained ] %llu variants, %llu cases, %llu mismatches\n", (unsigned long long)variants,
              (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_EQ(variants, 4u);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

// The registered kernels with 32-thread tiles (Variant.param = 32): tiles of
// 128 .. 512 limbs, dozens of tiles per instance and hundreds of blocks
// waiting on each other; launched like the runtime does (scratch, geometry).
TEST(ChainedAddSub, SmallTilesManyBlocks) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const kernels::DeviceLimits limits = test::device_limits();
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 201);
  uint64_t cases = 0, bad = 0;
  void* scratch = nullptr;
  uint64_t scratch_capacity = 0;
  const uint64_t cap = test::max_bits_cap();  // compute-sanitizer runs cap the sizes
  std::vector<std::pair<kernels::Op, uint32_t>> seen;
  for (const kernels::Variant& reg : kernels::registry()) {
    if (!is_chained(reg)) continue;
    const auto key = std::make_pair(reg.op, reg.q);  // one variant per (op, Q): the tile width is replaced
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    kernels::Variant v = reg;
    v.param = 32;
    const Op op = v.op == kernels::Op::Add ? Op::Add : Op::Sub;
    const uint64_t t = tile_bits(v);
    for (uint64_t bits : {t - 64, t, t + 1, 5 * t + 777, 40 * t, 40 * t + 64}) {
      if (bits > cap) continue;
      for (Pattern p : {Pattern::Mixed, Pattern::CarryAll, Pattern::CarryFromLow, Pattern::ManyPropagate}) {
        const uint64_t count = bits > 10 * t ? 17 : 101;
        bad += check_case(ctx, op, v.name + "(t32)", bits, count, p, rng, [&](Batch& r, Batch& a, Batch& b, Flags& f) {
          const kernels::Geometry g = kernels::geometry(v, bits, count, 1, limits);
          kernels::KernelArgs args = test::add_sub_args(r, a, b, f, v, bits, count, g);
          const uint64_t need = kernels::scratch_bytes(v, bits, count);
          EXPECT_EQ(need, bits > t ? 4 * (1 + count * kernels::block::ceil_div(bits, t)) : 0) << bits;
          if (need > scratch_capacity) {
            if (scratch) cudaFree(scratch);
            ASSERT_EQ(cudaMalloc(&scratch, need), cudaSuccess);
            scratch_capacity = need;
          }
          // Garbage in the scratch must not matter: the launch clears it.
          if (scratch) cudaMemset(scratch, 0xa5, scratch_capacity);
          args.scratch = need ? scratch : nullptr;
          ASSERT_EQ(kernels::launch(v, args, g, 0), cudaSuccess);
          ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        });
        ++cases;
      }
    }
  }
  if (scratch) cudaFree(scratch);
  gmp_randclear(rng);
  std::printf("[ chained t32 ] %llu cases, %llu mismatches\n", (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_EQ(seen.size(), 4u);  // add and sub, Q = 8 and 16
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
