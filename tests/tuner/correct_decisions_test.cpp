// cli/tune_measure.cpp's correct_decisions: measured points replace the
// model's decision for a bucket, but a plan measured at one size only stands
// for a bucket where its occupancy (the tuner's exact occupancy node) holds
// from the bucket's bottom to its top. No GPU: the registry's real add
// variants, made-up times, a register count per thread for the occupancy.
#include <gtest/gtest.h>

#include "cli/tune_measure.hpp"
#include "tuner/occupancy.hpp"
#include "tuner/select.hpp"

namespace bigtune::cli {
namespace {

db::DecisionRecord bucket_decision(const std::string& variant) {
  db::DecisionRecord d;
  d.op = "add";
  d.bits = {262145, 327681};  // (2^18, 1.25 * 2^18]
  d.count = {2049, 4097};
  d.variant = variant;
  d.ipb = 1;
  d.source = "tuner";
  return d;
}

tuner::MeasuredPoint point(uint64_t bits, std::vector<tuner::TimedPlan> timed, tuner::TimedPlan model_first) {
  tuner::MeasuredPoint p;
  p.bits = bits;
  p.count = 4096;
  p.timed = std::move(timed);
  p.model_first = model_first;
  return p;
}

TEST(CorrectDecisions, APlanWhoseOccupancyFallsInTheBucketDoesNotStandForIt) {
  const kernels::DeviceLimits limits = kernels::DeviceLimits::h100();
  // At 2^18 bits the model's Q = 8 scan (512 threads) tied the winner; at
  // 370,752 bits (the next point) the Q = 16 scan won.
  const std::vector<tuner::MeasuredPoint> points{
      point(262144,
            {{"add.scan.u64.q4", 1, 100.0}, {"add.scan.u64.q8", 1, 101.0}, {"add.chained.u64.q16.t512", 1, 104.0}},
            {"add.scan.u64.q4", 1, 100.0}),
      point(370752, {{"add.scan.u64.q16", 1, 100.0}, {"add.chained.u64.q16.t512", 1, 103.0}},
            {"add.chained.u64.q16.t512", 1, 103.0})};
  // 40 registers per thread: the Q = 8 scan has fewer active warps in the
  // bucket (513-640 threads per block) than at the 2^18-bit point (512).
  const tuner::SmLimits sm = tuner::DeviceModel::h100().sm;
  const WarpsPerSm warps = [&](const kernels::Variant& v, uint64_t bits, uint64_t count, uint32_t ipb) {
    const tuner::LaunchShape s = tuner::launch_shape(v, bits, count, ipb, limits);
    return tuner::occupancy(sm, int(s.block_threads), 40, int64_t(s.smem_bytes)).warps_per_sm;
  };
  const kernels::Variant* q8 = kernels::find_variant("add.scan.u64.q8");
  ASSERT_NE(q8, nullptr);
  ASSERT_LT(5 * warps(*q8, 262145, 2049, 1), 4 * warps(*q8, 262144, 4096, 1));  // 513 threads against 512

  // Without the occupancy check the tie at 2^18 keeps the model's plan.
  std::vector<db::DecisionRecord> kept{bucket_decision("add.scan.u64.q8")};
  EXPECT_EQ(correct_decisions(kept, points, limits, 0.02), 0u);
  EXPECT_EQ(kept[0].variant, "add.scan.u64.q8");
  // With it, that measurement does not stand for the bucket: the next
  // point's winner, whose occupancy holds across the bucket, does.
  std::vector<db::DecisionRecord> fixed{bucket_decision("add.scan.u64.q8")};
  EXPECT_EQ(correct_decisions(fixed, points, limits, 0.02, warps), 1u);
  EXPECT_EQ(fixed[0].variant, "add.scan.u64.q16");
  EXPECT_EQ(fixed[0].source, "measured");
}

}  // namespace
}  // namespace bigtune::cli
