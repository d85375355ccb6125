// The cluster add/sub family without a GPU: names, its 8-tile limit, tiles,
// shared memory and residency as the kernel and the runtime see them.
#include <gtest/gtest.h>

#include <string>

#include "kernels/block/chained_layout.hpp"
#include "kernels/registry.hpp"

namespace bigtune::kernels {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100();

bool is_cluster(const Variant& v) { return std::string(v.algorithm) == "cluster"; }

TEST(ClusterShapes, NamesLimitsAndValidity) {
  int n = 0;
  for (const Variant& v : registry()) {
    if (!is_cluster(v)) continue;
    ++n;
    const uint32_t t = v.param;
    EXPECT_EQ(std::string(v.family), "grid") << v.name;
    EXPECT_TRUE(v.op == Op::Add || v.op == Op::Sub) << v.name;
    EXPECT_EQ(v.name, std::string(op_name(v.op)) + ".cluster.u64.q" + std::to_string(v.q) + ".t" + std::to_string(t));
    EXPECT_EQ(v.max_threads, t) << v.name;
    // At most 8 tiles (the portable cluster size).
    const uint64_t limit = 8ull * t * v.q * 64;
    EXPECT_EQ(max_operand_bits(v, kH100), limit) << v.name;
    EXPECT_TRUE(why_invalid(v, limit, 1, 1, kH100).empty()) << v.name;
    const std::string past = why_invalid(v, limit + 1, 1, 1, kH100);
    EXPECT_NE(past.find(std::to_string(limit)), std::string::npos) << past;
    EXPECT_FALSE(why_invalid(v, 1 << 19, 64, 2, kH100).empty()) << v.name;  // one instance per block
    for (uint64_t bits : {1ull, 65ull, 1000ull, 100003ull, 131073ull, 1000001ull})
      EXPECT_TRUE(why_invalid(v, bits, 4096, 1, kH100).empty()) << v.name << " " << bits;
    // Two operand buffers of a tile (or of the instance when shorter); no scratch.
    EXPECT_EQ(smem_bytes(v, limit, 1), block::smem_bytes_padded(2ull * t * v.q, 8)) << v.name;
    EXPECT_EQ(smem_bytes(v, 1000, 1), block::smem_bytes_padded(2 * 16, 8)) << v.name;
    EXPECT_EQ(threads_per_instance(v, 1000), 32u) << v.name;  // 16 limbs -> 32 threads
    EXPECT_EQ(threads_per_instance(v, limit), t) << v.name;
    EXPECT_EQ(scratch_bytes(v, limit, 4096), 0u) << v.name;
    // Thread block clusters: sm_90 only; an A100 (sm_80) gets a reason, not a launch failure.
    DeviceLimits a100 = kH100;
    a100.cc_major = 8;
    const std::string old = why_invalid(v, 1 << 19, 64, 1, a100);
    EXPECT_NE(old.find("compute capability 9.0"), std::string::npos) << old;
  }
  EXPECT_EQ(n, 2);
}

TEST(ClusterShapes, Q4T512AtTwoToTheTwenty) {
  const Variant* v = find_variant("add.cluster.u64.q4.t512");
  ASSERT_NE(v, nullptr);
  // 2^20 bits = 16384 limbs: 8 tiles of 2048 limbs (2^17 bits), a cluster of 8.
  const uint32_t limbs = operand_limbs(*v, 1 << 20);
  const uint32_t t = block::chained_threads(limbs, 4, 512);
  EXPECT_EQ(t, 512u);
  EXPECT_EQ(block::chained_tiles(limbs, block::chained_tile_limbs(t, 4)), 8u);
  EXPECT_EQ(max_operand_bits(*v, kH100), uint64_t(1) << 20);
  EXPECT_FALSE(why_invalid(*v, (1 << 20) + 1, 1, 1, kH100).empty());  // 1048577 bits: a ninth tile
  // Four blocks per SM (the shape's __launch_bounds__): 4 x 512 threads, and
  // their shared memory (two 2048-limb buffers each, plus the static scan
  // storage and the 1 KB per-block reserve) fits in the SM's 228 KB.
  const Geometry g = geometry(*v, 1 << 20, 4096, 1, kH100);
  EXPECT_EQ(g.block, 512u);
  EXPECT_EQ(4 * g.block, kH100.max_threads_per_sm);
  EXPECT_LE(4 * (g.smem_bytes + 2048), 228u * 1024);
}

}  // namespace
}  // namespace bigtune::kernels
