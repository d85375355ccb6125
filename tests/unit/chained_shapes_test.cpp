// The chained (multi-block) add/sub family without a GPU: names, its 2^24-bit
// limit, tiles, scratch and geometry as the kernel and the runtime see them.
#include <gtest/gtest.h>

#include <string>

#include "kernels/block/chained_layout.hpp"
#include "kernels/registry.hpp"

namespace bigtune::kernels {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100();

const Variant& chained(const char* name) {
  const Variant* v = find_variant(name);
  if (!v) throw std::runtime_error(std::string("missing variant ") + name);
  return *v;
}

TEST(ChainedShapes, FourVariantsInTheGridFamily) {
  int n = 0;
  for (const Variant& v : registry()) {
    if (std::string(v.algorithm) != "chained") continue;
    ++n;
    EXPECT_EQ(std::string(v.family), "grid") << v.name;
    EXPECT_EQ(v.limb_bits, 64u);
    EXPECT_TRUE(v.op == Op::Add || v.op == Op::Sub) << v.name;
    EXPECT_EQ(v.name, std::string(op_name(v.op)) + ".chained.u64.q" + std::to_string(v.q) + ".t" +
                          std::to_string(v.param));
    EXPECT_EQ(scratch_bytes(v, 1000, 7), 0u) << v.name;  // one tile: no look-back
    EXPECT_EQ(max_operand_bits(v, kH100), uint64_t(1) << 24) << v.name;
    EXPECT_TRUE(why_invalid(v, uint64_t(1) << 24, 1, 1, kH100).empty());
    const std::string past = why_invalid(v, (uint64_t(1) << 24) + 64, 1, 1, kH100);
    EXPECT_NE(past.find("16777216"), std::string::npos) << past;
    // Valid from one bit on, one tile per block: any size a batch can have.
    for (uint64_t bits : {1ull, 65ull, 1000ull, 131073ull, 1048576ull, 1000001ull})
      EXPECT_TRUE(why_invalid(v, bits, 4096, 1, kH100).empty()) << v.name << " " << bits;
  }
  EXPECT_EQ(n, 4);
}

TEST(ChainedShapes, TilesScratchAndThreads) {
  const Variant& v = chained("add.chained.u64.q8.t512");  // tiles of 4096 limbs
  // 2^20 bits = 16384 limbs: four full tiles.
  EXPECT_EQ(threads_per_instance(v, 1 << 20), 512u);
  EXPECT_EQ(scratch_bytes(v, 1 << 20, 4096), 4u * (1 + 4 * 4096));
  // One limb more: a fifth tile of one limb.
  EXPECT_EQ(scratch_bytes(v, (1 << 20) + 1, 10), 4u * (1 + 5 * 10));
  // One tile or less: no look-back, no scratch, narrower blocks (a multiple of 32).
  EXPECT_EQ(scratch_bytes(v, 4096 * 64, 100), 0u);
  EXPECT_EQ(threads_per_instance(v, 4096 * 64), 512u);
  EXPECT_EQ(threads_per_instance(v, 1000), 32u);         // 16 limbs, 2 threads -> 32
  EXPECT_EQ(threads_per_instance(v, 64 * 8 * 33), 64u);  // 264 limbs, 33 threads -> 64
  EXPECT_EQ(scratch_bytes(v, 1000, 1 << 20), 0u);
  // Shared memory: one tile buffer (or the instance, when shorter), padded as layout.hpp.
  EXPECT_EQ(smem_bytes(v, 1 << 20, 1), block::smem_bytes_padded(4096, 8));
  EXPECT_EQ(smem_bytes(v, 1000, 1), block::smem_bytes_padded(16, 8));
  // The shapes agree with the kernel's own arithmetic.
  const uint32_t limbs = operand_limbs(v, 1000001);
  const uint32_t t = block::chained_threads(limbs, 8, 512);
  EXPECT_EQ(t, 512u);
  EXPECT_EQ(block::chained_tiles(limbs, block::chained_tile_limbs(t, 8)), 4u);  // 15626 limbs
  EXPECT_EQ(block::chained_scratch_words(4, 3), 13u);
  EXPECT_EQ(block::chained_scratch_words(1, 3), 0u);
}

TEST(ChainedShapes, GeometryFitsTheH100) {
  for (const Variant& v : registry()) {
    if (std::string(v.algorithm) != "chained") continue;
    for (uint64_t bits : {1ull << 19, 1ull << 20, 1ull << 24}) {  // at least one full tile
      const Geometry g = geometry(v, bits, 4096, 1, kH100);
      EXPECT_EQ(g.block, v.param) << v.name;
      EXPECT_LE(g.smem_bytes + 1024, kH100.smem_per_block_optin) << v.name;
      EXPECT_TRUE(g.stage_buffers == 1 || g.stage_buffers == 2);
    }
  }
}

}  // namespace
}  // namespace bigtune::kernels
