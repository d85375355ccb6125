// Occupancy against cases worked out with the CUDA occupancy calculator's
// rules for compute capability 9.0 (cuda_occupancy.h: 64 warps, 32 blocks,
// 64 K registers in 4 sub-partitions allocated 256 per warp, 228 KB shared
// memory per SM with 1 KB reserved per block in 128-byte units).
#include <gtest/gtest.h>

#include "tuner/occupancy.hpp"

namespace bigtune::tuner {
namespace {

struct Case {
  int threads, regs;
  int64_t smem;
  int blocks, warps;
  OccupancyLimit limit;
};

TEST(Occupancy, MatchesCalculatorTable) {
  const Case cases[] = {
      {256, 32, 0, 8, 64, OccupancyLimit::Warps},
      {256, 64, 0, 4, 32, OccupancyLimit::Registers},
      {128, 255, 0, 2, 8, OccupancyLimit::Registers},     // 255 -> 8192 per warp: 2 warps per sub-partition
      {96, 40, 0, 16, 48, OccupancyLimit::Registers},     // 1280 per warp: 12 per sub-partition (not 51/3 = 17)
      {1024, 32, 49152, 2, 64, OccupancyLimit::Warps},    // 50176 B per block would allow 4
      {64, 16, 100000, 2, 4, OccupancyLimit::SharedMemory},  // 101120 B per block
      {32, 16, 0, 32, 32, OccupancyLimit::Blocks},
      {1000, 24, 0, 2, 64, OccupancyLimit::Warps},        // 32 warps per block (rounded up)
      {512, 128, 0, 1, 16, OccupancyLimit::Registers},    // 4096 per warp, 4 per sub-partition
      {128, 0, 116736 - 1024, 2, 8, OccupancyLimit::SharedMemory},  // exactly half the SM
      {128, 0, 116736 - 1023, 1, 4, OccupancyLimit::SharedMemory},  // one byte more rounds past half
  };
  const SmLimits sm = SmLimits::h100();
  for (const Case& c : cases) {
    const OccupancyResult r = occupancy(sm, c.threads, c.regs, c.smem);
    EXPECT_EQ(r.blocks_per_sm, c.blocks) << c.threads << " threads " << c.regs << " regs " << c.smem << " B";
    EXPECT_EQ(r.warps_per_sm, c.warps) << c.threads;
    EXPECT_EQ(r.limit, c.limit) << c.threads << " " << occupancy_limit_name(r.limit);
  }
}

TEST(Occupancy, ZeroWithReasonBeyondLimits) {
  const SmLimits sm = SmLimits::h100();
  EXPECT_EQ(occupancy(sm, 128, 256, 0).blocks_per_sm, 0);
  EXPECT_EQ(occupancy(sm, 128, 32, 232449).blocks_per_sm, 0);
  EXPECT_EQ(occupancy(sm, 1025, 32, 0).blocks_per_sm, 0);
  EXPECT_EQ(occupancy(sm, 1024, 255, 0).blocks_per_sm, 0);  // 256K registers per block
  EXPECT_FALSE(occupancy(sm, 1024, 255, 0).why_zero.empty());
}

}  // namespace
}  // namespace bigtune::tuner
