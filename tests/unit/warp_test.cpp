// The warp family without a GPU: the carry vote against a lane-by-lane
// ripple (deliberately slow, sharing no code with carry_vote.hpp), and the
// registry's limits and names for the warp variants.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "kernels/registry.hpp"
#include "kernels/warp/warp_shapes.hpp"
#include "kernels/warp/carry_vote.hpp"

namespace bigtune::kernels {
namespace {

// Carry into each lane and out of the top one, one lane after the other.
warp::CarryVote ripple(uint64_t g, uint64_t p, int lanes) {
  warp::CarryVote v{0, 0};
  uint32_t carry = 0;
  for (int j = 0; j < lanes; ++j) {
    if (carry) v.carry_in |= uint64_t(1) << j;
    const bool gj = (g >> j) & 1, pj = (p >> j) & 1;
    carry = gj || (pj && carry);
  }
  v.carry_out = carry;
  return v;
}

void expect_same(uint64_t g, uint64_t p, int lanes) {
  const warp::CarryVote want = ripple(g, p, lanes), got = warp::carry_vote(g, p, lanes);
  ASSERT_EQ(got.carry_in, want.carry_in) << "lanes " << lanes << " g " << std::hex << g << " p " << p;
  ASSERT_EQ(got.carry_out, want.carry_out) << "lanes " << lanes << " g " << std::hex << g << " p " << p;
}

TEST(WarpCarryVote, MatchesRippleOnEveryPatternOfFourAndEightLanes) {
  for (int lanes : {4, 8}) {
    // Each lane is generate, propagate or neither: all 3^lanes patterns.
    uint64_t patterns = 1;
    for (int j = 0; j < lanes; ++j) patterns *= 3;
    for (uint64_t n = 0; n < patterns; ++n) {
      uint64_t g = 0, p = 0, x = n;
      for (int j = 0; j < lanes; ++j, x /= 3) {
        if (x % 3 == 1) g |= uint64_t(1) << j;
        if (x % 3 == 2) p |= uint64_t(1) << j;
      }
      expect_same(g, p, lanes);
    }
  }
}

TEST(WarpCarryVote, MatchesRippleOnRandomAndEdgePatternsOf16And32Lanes) {
  std::mt19937_64 rng(20261122);
  for (int lanes : {16, 32}) {
    const uint64_t all = (uint64_t(1) << lanes) - 1;
    // Edge: a generate at the bottom propagating through every lane above.
    expect_same(1, all & ~uint64_t(1), lanes);
    expect_same(0, all, lanes);
    expect_same(all, 0, lanes);
    expect_same(uint64_t(1) << (lanes - 1), 0, lanes);
    for (int i = 0; i < 200000; ++i) {
      const uint64_t g = rng() & all;
      // Long runs of propagates are what breaks a wrong resolution.
      const uint64_t p = (i % 2 ? ~rng() | rng() : rng()) & all & ~g;
      expect_same(g, p, lanes);
    }
  }
}

TEST(WarpRegistry, EveryWarpVariantHoldsLanesTimesQLimbs) {
  const DeviceLimits h100 = DeviceLimits::h100();
  int seen = 0;
  for (const Variant& v : registry()) {
    if (std::string(v.family) != "warp") continue;
    if (v.shape != &warp::kWarpShape) continue;  // warp-level modular: own shape, param = lanes | window << 8
    ++seen;
    EXPECT_TRUE(v.param == 2 || v.param == 4 || v.param == 8 || v.param == 16 || v.param == 32) << v.name;
    if (v.param == 2) EXPECT_NE(v.name.find(".blockrot.u32.q16.l2"), std::string::npos) << v.name;  // smallmul's only 2-lane shape
    EXPECT_NE(v.name.find(".l" + std::to_string(v.param)), std::string::npos) << v.name;
    const uint64_t cap = uint64_t(v.param) * v.q * 32;
    EXPECT_EQ(max_operand_bits(v, h100), cap) << v.name;
    EXPECT_EQ(why_invalid(v, cap, 1000, 1, h100), "") << v.name;
    EXPECT_NE(why_invalid(v, cap + 1, 1000, 1, h100), "") << v.name;
    EXPECT_EQ(threads_per_instance(v, 1), v.param) << v.name;
    // Several instances share a warp; blocks stay whole warps.
    const Geometry g = geometry(v, cap, 1000, 3, h100);
    EXPECT_EQ(g.block % 32, 0u) << v.name;
    EXPECT_EQ(g.grid, (1000u + 2) / 3) << v.name;
    EXPECT_EQ(g.smem_bytes, 0u) << v.name;
  }
  // add, sub, mul_low, mul, sqr on L in {4, 8, 16, 32} x Q in {2, 4, 8}, + Q = 16 products,
  // + the block-rotate products (warp_mul_block_instances.cu: 11 L x Q shapes, q16.l2 since smallmul).
  EXPECT_EQ(seen, 12 * 5 + 4 * 3 + 11 * 3 + 10);  // + 10 divmod
}

}  // namespace
}  // namespace bigtune::kernels
