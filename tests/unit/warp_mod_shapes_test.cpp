// Shape rules of the warp modular variants of task modfast
// (kernels/warp/warp_mod_shapes.cpp): the global-table powm takes no shared
// memory and a scratch that holds one table per instance up to the launch's
// chunk (warp_mod_layout.hpp), and no more however large the batch.
#include <gtest/gtest.h>

#include "kernels/registry.hpp"
#include "kernels/warp/warp_mod_layout.hpp"

namespace bigtune {
namespace {

TEST(WarpModShapes, GlobalTableScratchIsPerInstanceUpToTheChunk) {
  const kernels::DeviceLimits h100 = kernels::DeviceLimits::h100();
  const kernels::Variant* v = kernels::find_variant("powm.bgfixed.u32.q8.l4.w5");
  ASSERT_NE(v, nullptr);
  const uint64_t table = 32ull * 32 * 4;  // 2^5 entries of 32 limbs
  const uint64_t header = kernels::warp::warp_mod_global_table_offset(4, 8) * 4;
  EXPECT_EQ(kernels::scratch_bytes(*v, 1024, 1000), header + 1000 * table);
  const uint64_t slots = kernels::warp::kWarpModGlobalChunkThreads / 4;  // 2048 blocks of 64 instances
  EXPECT_EQ(kernels::scratch_bytes(*v, 1024, slots), header + slots * table);
  EXPECT_EQ(kernels::scratch_bytes(*v, 1024, (1ull << 32) / 1024), header + slots * table);  // 4M instances
  // No shared memory at the largest block; the shared-memory table variant
  // of the same shape (session 3) needs 2^w entries per instance of the block.
  EXPECT_EQ(kernels::geometry(*v, 1024, 1000, 64, h100).smem_bytes, 0u);
  const kernels::Variant* s = kernels::find_variant("powm.fixed.u32.q8.l4.w4");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(kernels::geometry(*s, 1024, 1000, 64, h100).smem_bytes,
            64 * kernels::warp::warp_mod_table_stride(4, 8, 4) * 4);
}

}  // namespace
}  // namespace bigtune
