// The early-store add/sub families without a GPU: names, limits, tiles,
// scratch and shared memory as the kernel and the runtime see them.
#include <gtest/gtest.h>

#include <string>

#include "kernels/block/chained_layout.hpp"
#include "kernels/registry.hpp"

namespace bigtune::kernels {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100();

bool is_early(const Variant& v) {
  return std::string(v.algorithm) == "early" || std::string(v.algorithm) == "cluster";
}

TEST(EarlyShapes, NamesLimitsAndValidity) {
  int n = 0;
  for (const Variant& v : registry()) {
    if (!is_early(v)) continue;
    ++n;
    const bool cluster = std::string(v.algorithm) == "cluster";
    const uint32_t t = v.param & 0xffffu;
    EXPECT_EQ(std::string(v.family), "grid") << v.name;
    EXPECT_TRUE(v.op == Op::Add || v.op == Op::Sub) << v.name;
    EXPECT_EQ(v.name, std::string(op_name(v.op)) + "." + v.algorithm + ".u64.q" + std::to_string(v.q) + ".t" +
                          std::to_string(t));
    EXPECT_EQ(v.max_threads, t) << v.name;
    const uint64_t limit = cluster ? 8ull * t * v.q * 64 : uint64_t(1) << 24;
    EXPECT_EQ(max_operand_bits(v, kH100), limit) << v.name;
    EXPECT_TRUE(why_invalid(v, limit, 1, 1, kH100).empty()) << v.name;
    EXPECT_FALSE(why_invalid(v, limit + 64, 1, 1, kH100).empty()) << v.name;
    EXPECT_FALSE(why_invalid(v, 1 << 20, 64, 2, kH100).empty()) << v.name;  // one instance per block
    for (uint64_t bits : {1ull, 65ull, 1000ull, 131073ull, 1000001ull, 1048576ull})
      EXPECT_TRUE(why_invalid(v, bits, 4096, 1, kH100).empty()) << v.name << " " << bits;
    // Two operand buffers of a tile (or of the instance when shorter).
    EXPECT_EQ(smem_bytes(v, 1 << 20, 1), block::smem_bytes_padded(2ull * t * v.q, 8)) << v.name;
    EXPECT_EQ(smem_bytes(v, 1000, 1), block::smem_bytes_padded(2 * 16, 8)) << v.name;
    EXPECT_EQ(threads_per_instance(v, 1000), 32u) << v.name;  // 16 limbs, 2 threads -> 32
    EXPECT_EQ(threads_per_instance(v, 1 << 20), t) << v.name;
    // Scratch: ticket + a status per tile for the look-back; none for clusters or one tile.
    const uint64_t tiles = (1ull << 20) / (uint64_t(t) * v.q * 64);
    EXPECT_EQ(scratch_bytes(v, 1 << 20, 4096), cluster ? 0u : 4 * (1 + tiles * 4096)) << v.name;
    EXPECT_EQ(scratch_bytes(v, 1000, 4096), 0u) << v.name;
  }
  EXPECT_EQ(n, 14);
}

TEST(EarlyShapes, ResidentBlocksOnTheH100) {
  // The shapes are chosen for 3 (2^18-bit tiles) or 4-6 (2^17-bit tiles)
  // blocks per SM: shared memory of that many blocks (plus their 1 KB reserve and
  // static storage) fits in the SM's 228 KB.
  for (const Variant& v : registry()) {
    if (!is_early(v)) continue;
    const uint32_t t = v.param & 0xffffu;
    const uint32_t blocks = v.q * t == 4096 ? 3 : 6;  // 2^18-bit tiles: 3 per SM; 2^17-bit: 6 (q4.t512: 4)
    const Geometry g = geometry(v, 1 << 20, 4096, 1, kH100);
    EXPECT_EQ(g.block, t) << v.name;
    EXPECT_LE(blocks * (g.smem_bytes + 2048), 228u * 1024) << v.name;
  }
}

}  // namespace
}  // namespace bigtune::kernels
