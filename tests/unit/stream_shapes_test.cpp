// The streaming add/sub family without a GPU: names, family, no size limit
// but the registry's 2^31 bits, one instance per block, tiles, shared memory
// and residency on the H100 as the kernel and the runtime see them.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "kernels/block/stream_layout.hpp"
#include "kernels/operand_limit.hpp"
#include "kernels/registry.hpp"

namespace bigtune::kernels {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100();

const Variant& stream(const char* name) {
  const Variant* v = find_variant(name);
  if (!v) throw std::runtime_error(std::string("missing variant ") + name);
  return *v;
}

TEST(StreamShapes, FourVariantsInTheBlockFamily) {
  int n = 0;
  for (const Variant& v : registry()) {
    if (std::string(v.algorithm) != "stream") continue;
    ++n;
    EXPECT_EQ(std::string(v.family), "block") << v.name;
    EXPECT_EQ(v.limb_bits, 64u);
    EXPECT_TRUE(v.op == Op::Add || v.op == Op::Sub) << v.name;
    const std::string shape = std::string(op_name(v.op)) + ".stream.u64.q" + std::to_string(v.q) + ".t" +
                              std::to_string(v.param);
    EXPECT_TRUE(v.name == shape || v.name == shape + ".s3") << v.name;
    EXPECT_EQ(v.max_threads, v.param) << v.name;
    EXPECT_EQ(scratch_bytes(v, uint64_t(1) << 20, 4096), 0u) << v.name;  // no cross-block state
    EXPECT_EQ(max_operand_bits(v, kH100), kMaxOperandBits) << v.name;  // the GPU suite relies on it
    EXPECT_EQ(kMaxOperandBits, uint64_t(1) << 31);
    EXPECT_TRUE(why_invalid(v, uint64_t(1) << 31, 1, 1, kH100).empty());
    EXPECT_FALSE(why_invalid(v, (uint64_t(1) << 31) + 64, 1, 1, kH100).empty());
    for (uint64_t bits : {1ull, 65ull, 1000ull, 100003ull, 131073ull, 1048576ull, 1048577ull, 1ull << 24})
      EXPECT_TRUE(why_invalid(v, bits, 4097, 1, kH100).empty()) << v.name << " " << bits;
    // A full-width block is the variant's maximum: two instances per block do not fit.
    EXPECT_FALSE(why_invalid(v, uint64_t(1) << 20, 4096, 2, kH100).empty()) << v.name;
  }
  EXPECT_EQ(n, 4);
}

TEST(StreamShapes, TilesAndSharedMemory) {
  const Variant& v = stream("add.stream.u64.q4.t512");  // tiles of 2048 limbs = 2^17 bits, two stages
  EXPECT_EQ(threads_per_instance(v, 1 << 20), 512u);
  // Two stages of a and b, each one tile, padded as layout.hpp.
  EXPECT_EQ(smem_bytes(v, 1 << 20, 1), block::smem_bytes_padded(4 * 2048, 8));
  EXPECT_EQ(smem_bytes(v, (1 << 20) + 1, 1), block::smem_bytes_padded(4 * 2048, 8));
  // One tile: one stage, no more than the instance.
  EXPECT_EQ(smem_bytes(v, 2048 * 64, 1), block::smem_bytes_padded(2 * 2048, 8));
  EXPECT_EQ(threads_per_instance(v, 1000), 32u);  // 16 limbs, 4 threads -> 32
  EXPECT_EQ(smem_bytes(v, 1000, 1), block::smem_bytes_padded(2 * 16, 8));
  EXPECT_EQ(threads_per_instance(v, 64 * 4 * 33), 64u);  // 132 limbs, 33 threads -> 64
  // The kernel's tile count at an odd size: 1048577 bits = 16385 limbs = 9 tiles.
  const uint32_t limbs = operand_limbs(v, 1048577);
  EXPECT_EQ(limbs, 16385u);
  EXPECT_EQ(block::chained_tiles(limbs, block::chained_tile_limbs(512, 4)), 9u);
  EXPECT_EQ(block::stream_stages(9, 2), 2u);
  EXPECT_EQ(block::stream_stages(1, 2), 1u);
  EXPECT_EQ(block::stream_stages(2, 3), 2u);  // fewer tiles than stages: one stage per tile
  EXPECT_EQ(block::stream_smem_logical(limbs, 2048, 2), 4u * 2048);
  EXPECT_EQ(block::stream_smem_logical(limbs, 2048, 3), 6u * 2048);
  // Three stages: a third stage of a and b, not more for two tiles.
  const Variant& s3 = stream("sub.stream.u64.q4.t256.s3");  // tiles of 1024 limbs
  EXPECT_EQ(smem_bytes(s3, 1 << 20, 1), block::smem_bytes_padded(6 * 1024, 8));
  EXPECT_EQ(smem_bytes(s3, 2 * 1024 * 64, 1), block::smem_bytes_padded(4 * 1024, 8));
  EXPECT_EQ(smem_bytes(s3, 1024 * 64, 1), block::smem_bytes_padded(2 * 1024, 8));
}

TEST(StreamShapes, ResidencyOnTheH100) {
  // The __launch_bounds__ minimum of each shape, from shared memory and threads.
  EXPECT_EQ(block::stream_min_blocks(256, 8, 2, 8), 3u);
  EXPECT_EQ(block::stream_min_blocks(512, 4, 2, 8), 3u);
  EXPECT_EQ(block::stream_min_blocks(256, 4, 2, 8), 6u);
  EXPECT_EQ(block::stream_min_blocks(128, 8, 2, 8), 6u);
  EXPECT_EQ(block::stream_min_blocks(256, 4, 3, 8), 4u);
  EXPECT_EQ(block::stream_min_blocks(256, 8, 3, 8), 2u);
  EXPECT_EQ(block::stream_min_blocks(128, 4, 2, 8), 12u);
  EXPECT_EQ(block::stream_min_blocks(128, 4, 3, 8), 8u);
  for (const Variant& v : registry()) {
    if (std::string(v.algorithm) != "stream") continue;
    for (uint64_t bits : {1ull << 17, 1ull << 20, 1ull << 24}) {
      const Geometry g = geometry(v, bits, 4096, 1, kH100);
      EXPECT_EQ(g.block, v.param) << v.name;
      EXPECT_EQ(g.stage_buffers, 1u) << v.name;
      const uint32_t stages = v.name.find(".s3") != std::string::npos ? 3 : 2;
      const uint32_t resident = block::stream_min_blocks(v.param, v.q, stages, 8);
      // That many blocks fit an SM's shared memory (with 1 KB reserved and the static scan storage each).
      EXPECT_LE(resident * (g.smem_bytes + 1024 + 256), kH100.smem_per_sm) << v.name << " " << bits;
    }
  }
}

}  // namespace
}  // namespace bigtune::kernels
