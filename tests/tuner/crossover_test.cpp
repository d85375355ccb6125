// tune's decision rules on synthetic cost functions (no GPU): bisection of
// the crossover between measured anchors, which point governs a decision
// bucket, when a measurement overrides the model; the occupancy-API
// baseline's choice; the shared sampling batches and the counter batch.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "db/buckets.hpp"
#include "kernels/registry.hpp"
#include "tuner/baseline.hpp"
#include "tuner/crossover.hpp"
#include "tuner/select.hpp"

namespace bigtune::tuner {
namespace {

// Two plans whose costs cross at `cross` bits: "classical" ~ bits^2,
// "ntt" ~ bits * log2(bits) scaled to meet it there; optionally a third
// plan `near` that is within 1 % of the best everywhere but never the best.
struct Synthetic {
  double cross = 48000;
  bool with_near = false;
  int calls = 0;
  std::vector<uint64_t> measured;
  double classical(double b) const { return b * b * 1e-6; }
  double ntt(double b) const { return classical(cross) / (cross * std::log2(cross)) * b * std::log2(b); }
  MeasuredPoint at(uint64_t bits, const std::string& model_first = "classical") {
    ++calls;
    measured.push_back(bits);
    MeasuredPoint p;
    p.bits = bits;
    p.count = 1;
    p.timed = {{"classical", 1, classical(double(bits))}, {"ntt", 1, ntt(double(bits))}};
    if (with_near) p.timed.push_back({"near", 1, 1.01 * std::min(p.timed[0].us, p.timed[1].us)});
    p.model_first = {model_first, 1, 0};
    for (const TimedPlan& t : p.timed)
      if (t.variant == model_first) p.model_first.us = t.us;
    return p;
  }
  MeasureFn fn() {
    return [this](uint64_t bits, const std::vector<TimedPlan>&) -> std::optional<MeasuredPoint> { return at(bits); };
  }
};

std::vector<MeasuredPoint> anchors(Synthetic& s, const std::string& model_first = "classical") {
  std::vector<MeasuredPoint> out;
  for (uint64_t b = 64; b <= (uint64_t(1) << 20); b *= 4) out.push_back(s.at(b, model_first));
  return out;
}

TEST(Crossover, WinnerAndModelRight) {
  Synthetic s;
  const MeasuredPoint small = s.at(1024), large = s.at(1 << 20);
  ASSERT_NE(small.winner(), nullptr);
  EXPECT_EQ(small.winner()->variant, "classical");
  EXPECT_EQ(large.winner()->variant, "ntt");
  EXPECT_TRUE(small.model_right());
  EXPECT_FALSE(large.model_right());
  EXPECT_FALSE(large.time_of("missing", 1).has_value());
  // A model choice that was never timed (it could not run) is not right.
  MeasuredPoint p = s.at(1024, "gone");
  EXPECT_FALSE(p.model_right(0.5));
}

TEST(Crossover, TargetsOnlyWhereWinnersDiffer) {
  Synthetic s;
  const auto pts = anchors(s);
  const auto t = bisection_targets(pts, CrossoverOptions{});
  // Winners: classical up to 16384, ntt from 65536: one interval differs.
  ASSERT_EQ(t.size(), 1u);
  EXPECT_GT(t[0], 16384u);
  EXPECT_LT(t[0], 65536u);
  EXPECT_EQ(t[0] % 64, 0u);
  EXPECT_NEAR(double(t[0]), 32768.0, 64.0);  // the geometric midpoint
}

TEST(Crossover, BisectionLocatesTheCrossoverWithinABucket) {
  for (double cross : {20000.0, 30000.0, 48000.0, 60000.0}) {
    Synthetic s;
    s.cross = cross;
    CrossoverOptions o;
    const auto pts = refine_crossovers(anchors(s), s.fn(), o);
    // Adjacent points around the crossover are closer than a bucket (25 %).
    const MeasuredPoint* below = nullptr;
    const MeasuredPoint* above = nullptr;
    for (const MeasuredPoint& p : pts) {
      if (p.bits < cross) below = &p;
      if (p.bits >= cross && !above) above = &p;
    }
    ASSERT_TRUE(below && above) << cross;
    EXPECT_EQ(below->winner()->variant, "classical") << cross;
    EXPECT_EQ(above->winner()->variant, "ntt") << cross;
    EXPECT_LT(double(above->bits) / double(below->bits), o.min_ratio) << cross;
    EXPECT_LE(s.calls, 8 + o.max_points);
    for (size_t i = 1; i < pts.size(); ++i) EXPECT_LT(pts[i - 1].bits, pts[i].bits);
  }
}

TEST(Crossover, DecisionsFollowTheMeasuredCrossoverNotTheNearestAnchor) {
  // The H100 case: classical still wins at 48,000 bits, the NTT from 65,536.
  Synthetic s;
  s.cross = 56000;
  const auto anchors_only = anchors(s, "classical");
  const db::Bucket b48 = db::bits_bucket(48000);
  // With anchors only, the bucket of 48,000 bits is nearest the 65,536-bit
  // anchor, whose winner (ntt) is wrong there.
  const TimedPlan* before = measured_override(anchors_only, b48.lo, b48.hi);
  ASSERT_NE(before, nullptr);
  EXPECT_EQ(before->variant, "ntt");
  const auto pts = refine_crossovers(anchors_only, s.fn(), CrossoverOptions{});
  // After bisection the model (classical) is right near 48,000 bits: kept.
  EXPECT_EQ(measured_override(pts, b48.lo, b48.hi), nullptr);
  // Far above the crossover the measured ntt overrides it.
  const db::Bucket b100 = db::bits_bucket(100000);
  const TimedPlan* above = measured_override(pts, b100.lo, b100.hi);
  ASSERT_NE(above, nullptr);
  EXPECT_EQ(above->variant, "ntt");
  // Every bucket from 2^12 to 2^20 bits gets the plan that is best at its centre
  // (up to the bucket holding the crossover itself).
  for (uint64_t bits = 4096; bits < (uint64_t(1) << 20);) {
    const db::Bucket b = db::bits_bucket(bits);
    const double centre = std::sqrt(double(b.lo) * double(b.hi));
    const TimedPlan* o = measured_override(pts, b.lo, b.hi);
    const std::string chosen = o ? o->variant : "classical";
    if (!b.contains(uint64_t(s.cross)) && std::fabs(std::log2(centre / s.cross)) > 0.33) {
      EXPECT_EQ(chosen, centre < s.cross ? "classical" : "ntt") << bits;
    }
    bits = b.hi;
  }
}

TEST(Crossover, NoBisectionWhenOnePlanServesBothEnds) {
  Synthetic s;
  s.with_near = true;  // "near" is within 1 % everywhere: it serves any interval
  auto pts = anchors(s);
  // The winners differ (classical / ntt) but neither serves both ends; the
  // near plan is no winner, so targets remain.
  EXPECT_EQ(bisection_targets(pts, CrossoverOptions{}).size(), 1u);
  // Winners within the tolerance at both ends: nothing to bisect.
  for (MeasuredPoint& p : pts) {
    const double best = p.winner()->us;
    for (TimedPlan& t : p.timed)
      if (t.variant != p.winner()->variant) t.us = best * 1.02;
  }
  EXPECT_TRUE(bisection_targets(pts, CrossoverOptions{}).empty());
  CrossoverOptions tight;
  tight.tolerance = 0.01;
  EXPECT_EQ(bisection_targets(pts, tight).size(), 1u);
}

TEST(Crossover, StopsAtMaxPointsBudgetAndFailures) {
  Synthetic s;
  CrossoverOptions o;
  o.max_points = 1;
  auto pts = refine_crossovers(anchors(s), s.fn(), o);
  int bisected = 0;
  for (const MeasuredPoint& p : pts) bisected += p.bisected;
  EXPECT_EQ(bisected, 1);
  // keep_going false: nothing added.
  Synthetic s2;
  o.max_points = 12;
  pts = refine_crossovers(anchors(s2), s2.fn(), o, [] { return false; });
  EXPECT_EQ(pts.size(), 8u);
  // A size that cannot be measured is not retried forever.
  Synthetic s3;
  int tries = 0;
  pts = refine_crossovers(
      anchors(s3), [&](uint64_t, const std::vector<TimedPlan>&) -> std::optional<MeasuredPoint> {
        ++tries;
        return std::nullopt;
      },
      o);
  EXPECT_EQ(tries, 1);
  EXPECT_EQ(pts.size(), 8u);
}

TEST(Crossover, NeighbourWinnersAreTimedAtTheNewPoint) {
  Synthetic s;
  std::vector<std::vector<TimedPlan>> asked;
  auto pts = refine_crossovers(
      anchors(s),
      [&](uint64_t bits, const std::vector<TimedPlan>& also) -> std::optional<MeasuredPoint> {
        asked.push_back(also);
        return s.at(bits);
      },
      CrossoverOptions{});
  ASSERT_FALSE(asked.empty());
  std::set<std::string> first;
  for (const TimedPlan& t : asked[0]) first.insert(t.variant);
  EXPECT_EQ(first, (std::set<std::string>{"classical", "ntt"}));
}

TEST(Crossover, GoverningPointIsNearestInLogBitsWithinAnOctave) {
  Synthetic s;
  std::vector<MeasuredPoint> pts{s.at(1024), s.at(65536)};
  EXPECT_EQ(governing_point(pts, 1024, 1280)->bits, 1024u);
  EXPECT_EQ(governing_point(pts, 40960, 49152)->bits, 65536u);
  EXPECT_EQ(governing_point(pts, 1536, 1792)->bits, 1024u);  // log2 centre 10.7: 0.7 octaves from 1024
  EXPECT_EQ(governing_point(pts, 6144, 7168), nullptr);       // log2 centre 12.7: 2.7 and 3.3 octaves away
  EXPECT_EQ(governing_point(pts, 229376, 262144), nullptr);   // 1.8 octaves away
  EXPECT_EQ(governing_point({}, 64, 80), nullptr);
}

TEST(Crossover, AlgorithmChangesAreBisectedFirst) {
  // Winners change at every interval, but only one change is between
  // algorithms (mul.classical -> mul.ntt); with one point to spend, it goes there.
  auto point = [](uint64_t bits, const std::string& winner) {
    MeasuredPoint p;
    p.bits = bits;
    p.timed = {{winner, 1, 1.0}};
    p.model_first = {winner, 1, 1.0};
    return p;
  };
  std::vector<MeasuredPoint> pts{point(256, "mul.comba.u32.q8"), point(1024, "mul.comba.u32.q32"),
                                 point(4096, "mul.sumrotate.u32.q16.l8"), point(16384, "mul.sumrotate.u32.q16.l32"),
                                 point(65536, "mul.ntt.u64.q1")};
  const auto t = bisection_targets(pts, CrossoverOptions{});
  ASSERT_EQ(t.size(), 4u);
  EXPECT_GT(t[0], 16384u);  // sumrotate -> ntt
  EXPECT_LT(t[0], 65536u);
  EXPECT_GT(t[1], 1024u);   // comba -> sumrotate, then the Q changes
  EXPECT_LT(t[1], 4096u);
  CrossoverOptions one;
  one.max_points = 1;
  std::vector<uint64_t> asked;
  refine_crossovers(
      pts,
      [&](uint64_t bits, const std::vector<TimedPlan>&) -> std::optional<MeasuredPoint> {
        asked.push_back(bits);
        return point(bits, "mul.ntt.u64.q1");
      },
      one);
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], t[0]);
}

TEST(Crossover, TheBucketsOwnPlanTimedAndBeatenIsReplaced) {
  // The model was right at the point (its first choice won there), but its
  // choice for the bucket is another plan, timed there and 24 % slower.
  MeasuredPoint p;
  p.bits = 46336;
  p.timed = {{"divmod.shinv.u64.q4", 1, 100.0}, {"divmod.shinv.u64.q4.smem", 1, 124.0}};
  p.model_first = {"divmod.shinv.u64.q4", 1, 100.0};
  const std::vector<MeasuredPoint> pts{p};
  const db::Bucket b = db::bits_bucket(48000);
  const TimedPlan smem{"divmod.shinv.u64.q4.smem", 1, 0};
  EXPECT_EQ(measured_override(pts, b.lo, b.hi), nullptr);  // without the bucket's plan: the model was right
  const TimedPlan* w = measured_override(pts, b.lo, b.hi, 0.02, 1.0, &smem);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->variant, "divmod.shinv.u64.q4");
  // The bucket's plan within the tolerance there: kept, even where the
  // model's first choice lost.
  MeasuredPoint q = p;
  q.timed[1].us = 101.0;
  q.model_first = {"divmod.knuth.u32.q64", 1, 300.0};
  q.timed.push_back({"divmod.knuth.u32.q64", 1, 300.0});
  EXPECT_EQ(measured_override({q}, b.lo, b.hi, 0.02, 1.0, &smem), nullptr);
  // The bucket's plan not timed there: the model's first choice decides.
  const TimedPlan other{"divmod.knuth.u32.q8.l16", 2, 0};
  ASSERT_NE(measured_override({q}, b.lo, b.hi, 0.02, 1.0, &other), nullptr);
}

TEST(Baseline, OccupancyChoiceFollowsTheApiRuleAndKeepsTies) {
  std::vector<OccupancyCandidate> c{
      {"a/1", 32, 128}, {"a/2", 64, 256}, {"a/4", 64, 512}, {"b/1", 64, 512}, {"c/1", 48, 1024}};
  const auto got = occupancy_choice(c);
  EXPECT_EQ(got, (std::vector<std::string>{"a/4", "b/1"}));  // most warps, then largest block; tie kept
  EXPECT_TRUE(occupancy_choice({}).empty());
  EXPECT_TRUE(occupancy_choice({{"z/1", 0, 1024}}).empty());
  EXPECT_NEAR(geomean_time({1, 4}), 2.0, 1e-12);
  EXPECT_NEAR(geomean_time({2, INFINITY, 0}), 2.0, 1e-12);
  EXPECT_TRUE(std::isnan(geomean_time({})));
}

TEST(Sampling, EveryVariantOfASizeSharesOneBatch) {
  const kernels::DeviceLimits limits = kernels::DeviceLimits::h100();
  for (kernels::Op op : {kernels::Op::Add, kernels::Op::Mul, kernels::Op::DivMod}) {
    SamplingOptions so;
    std::map<uint64_t, std::set<uint64_t>> main_counts;
    int variants = 0;
    for (const kernels::Variant& v : kernels::registry()) {
      if (v.op != op) continue;
      ++variants;
      for (const SamplePoint& p : sampling_plan(v, limits, so)) {
        const bool tail = p.count == uint64_t(p.ipb) * so.sm_count * 3 / 2;
        if (tail) continue;
        EXPECT_EQ(p.count % kSampleCountMultiple, 0u) << v.name << " " << p.bits;
        main_counts[p.bits].insert(p.count);
      }
    }
    if (variants == 0) continue;
    for (const auto& [bits, counts] : main_counts) EXPECT_EQ(counts.size(), 1u) << kernels::op_name(op) << " " << bits;
    // The lite design: at most 7 sizes, a subset of the plan's counts per size.
    so.lite = true;
    for (const kernels::Variant& v : kernels::registry()) {
      if (v.op != op) continue;
      std::set<uint64_t> sizes;
      for (const SamplePoint& p : sampling_plan(v, limits, so)) sizes.insert(p.bits);
      EXPECT_LE(sizes.size(), 7u) << v.name;
    }
  }
}

TEST(Sampling, CounterBatchIsSmallWholeAndNeverLarger) {
  EXPECT_EQ(counter_batch_count(16384, 8192), 1024u);               // 2^23 / 2^14 = 512 -> 1024
  EXPECT_EQ(counter_batch_count(256, 524288), 32768u);              // 2^23 / 256
  EXPECT_EQ(counter_batch_count(768, 175104) % kSampleCountMultiple, 0u);
  EXPECT_EQ(counter_batch_count(4096, 1024), 1024u);                // never more than the sample
  EXPECT_EQ(counter_batch_count(4096, 198), 198u);                  // tails: as they are
  EXPECT_EQ(counter_batch_count(4096, 3 * 1024 + 512), 3u * 1024 + 512);
}

}  // namespace
}  // namespace bigtune::tuner

namespace bigtune::tuner {
namespace {

TEST(Crossover, AWinnerThatCannotServeTheBucketYieldsToOneThatCan) {
  // H100, session 3: at the 32,768-bit point two Karatsuba levels over the
  // 8-Kbit product won, but they stop at 32,768 bits; the 65,536-bit point
  // timed three levels (to 65,536 bits) as its winner. For the bucket of
  // 48,000 bits the nearer point's winner is invalid, its best valid plan is
  // 1.65x its best: the farther point's valid winner governs.
  MeasuredPoint p32, p64;
  p32.bits = 32768;
  p32.timed = {{"k2", 32, 600.0}, {"k1.classical", 4, 990.0}};
  p32.model_first = {"k1.classical", 4, 990.0};
  p64.bits = 65536;
  p64.timed = {{"k3", 32, 1020.0}, {"ntt", 1, 1390.0}};
  p64.model_first = {"ntt", 1, 1390.0};
  const std::vector<MeasuredPoint> pts{p32, p64};
  const db::Bucket b = db::bits_bucket(44000);
  const TimedPlan decided{"k1.classical", 4, 0};
  const auto valid = [](const TimedPlan& t) { return t.variant != "k2"; };
  // Without validity the nearer point's winner comes back (and the caller
  // could not store it).
  const TimedPlan* any = measured_override(pts, b.lo, b.hi, 0.02, 1.0, &decided);
  ASSERT_NE(any, nullptr);
  EXPECT_EQ(any->variant, "k2");
  const TimedPlan* w = measured_override(pts, b.lo, b.hi, 0.02, 1.0, &decided, valid);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->variant, "k3");
  // Where the nearer point's valid winner is its overall winner, it governs.
  const auto all_valid = [](const TimedPlan&) { return true; };
  const TimedPlan* n = measured_override(pts, b.lo, b.hi, 0.02, 1.0, &decided, all_valid);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->variant, "k2");
  // Nothing valid anywhere: no override.
  EXPECT_EQ(measured_override(pts, b.lo, b.hi, 0.02, 1.0, &decided, [](const TimedPlan&) { return false; }), nullptr);
}

TEST(Crossover, AnUntimedBucketPlanOfAnotherVariantYieldsToTheMeasurement) {
  // H100, session 4: at 92,672 bits the NTT (2074 us) and Karatsuba over the
  // classical product (the model's first there, 2099 us) tied; for the bucket
  // of 100,000 bits the model chose another NTT, never timed: the measured
  // winner replaces it. The same variant at another IPB stays (the model's
  // adaptation to the batch count).
  MeasuredPoint p;
  p.bits = 92672;
  p.timed = {{"ntt.m14.t1024", 1, 2074.0}, {"kara.k1.classical", 1, 2099.0}};
  p.model_first = {"kara.k1.classical", 1, 2099.0};
  const std::vector<MeasuredPoint> pts{p};
  const db::Bucket b = db::bits_bucket(100000);
  const TimedPlan other{"ntt.m13.t512", 1, 0};
  const TimedPlan* w = measured_override(pts, b.lo, b.hi, 0.02, 1.0, &other);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->variant, "ntt.m14.t1024");
  const TimedPlan same_variant{"kara.k1.classical", 2, 0};
  EXPECT_EQ(measured_override(pts, b.lo, b.hi, 0.02, 1.0, &same_variant), nullptr);
}

}  // namespace
}  // namespace bigtune::tuner
