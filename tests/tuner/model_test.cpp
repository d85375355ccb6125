// The rational program and selection on synthetic models: no GPU, the
// registry's real variants with made-up fitted nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "db/buckets.hpp"
#include "kernels/registry.hpp"
#include "tuner/select.hpp"
#include "tuner/time_model.hpp"

namespace bigtune::tuner {
namespace {

// c * limbs^e as a rational function of (limbs, warps per instance, ipb).
RationalFunction power_of_limbs(double c, int e) {
  RationalFunction f;
  f.degrees = Degrees{{e, 0, 0}, {0, 0, 0}};
  f.scale = {1, 1, 1};
  f.num.assign(e + 1, 0.0);
  f.num[e] = c;
  return f;
}

VariantModel synthetic(const std::string& name, double inst_per_limb, int regs = 32) {
  VariantModel m;
  m.variant = name;
  m.regs = regs;
  m.static_smem = 1024;
  m.metrics[kMetricInst].f = power_of_limbs(inst_per_limb, 1);
  m.metrics[kMetricBytes].f = power_of_limbs(24, 1);
  m.metrics[kMetricShared].f = power_of_limbs(1, 1);
  return m;
}

TEST(TimeModel, WavesOccupancyAndRegime) {
  const DeviceModel d = DeviceModel::h100();
  const kernels::DeviceLimits limits = kernels::DeviceLimits::h100();
  const kernels::Variant* v = kernels::find_variant("add.scan.u64.q8");
  ASSERT_NE(v, nullptr);
  VariantModel m = synthetic(v->name, 2);
  // 4096 bits = 64 limbs = 8 threads; IPB 32 -> 256-thread blocks.
  const LaunchShape one = launch_shape(*v, 4096, 32 * 132 * 8, 32, limits);
  const Prediction p = predict(d, m, one);
  EXPECT_EQ(p.blocks_per_sm, 8);
  EXPECT_EQ(p.waves, 1u);
  EXPECT_TRUE(p.memory_bound);  // 2 instructions per limb against 24 bytes
  const Prediction p2 = predict(d, m, launch_shape(*v, 4096, 32 * 132 * 8 * 2 + 32, 32, limits));
  EXPECT_EQ(p2.waves, 3u);
  EXPECT_GT(p2.time_us, 2 * p.time_us - m.t0_us);
  m.metrics[kMetricInst].f = power_of_limbs(2000, 1);
  EXPECT_FALSE(predict(d, m, one).memory_bound);
  // More registers than the SM holds for 8 blocks: fewer blocks per SM.
  m.regs = 128;
  EXPECT_EQ(predict(d, m, one).blocks_per_sm, 2);
}

TEST(Selection, RanksValidCandidatesOfTheOpOnly) {
  const DeviceModel d = DeviceModel::h100();
  const kernels::DeviceLimits limits = kernels::DeviceLimits::h100();
  std::map<std::string, VariantModel> models;
  models["add.scan.u64.q8"] = synthetic("add.scan.u64.q8", 400);
  models["add.scan.u64.q16"] = synthetic("add.scan.u64.q16", 800);
  models["mul.classical.u64.q4"] = synthetic("mul.classical.u64.q4", 1);  // another op: never a candidate
  std::vector<std::string> missing;
  const auto c = rank_candidates(kernels::Op::Add, 1 << 14, 1 << 14, d, models, limits, &missing);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front().variant->name, "add.scan.u64.q8");
  for (size_t i = 0; i < c.size(); ++i) {
    EXPECT_EQ(c[i].variant->op, kernels::Op::Add);
    EXPECT_TRUE(kernels::why_invalid(*c[i].variant, 1 << 14, 1 << 14, c[i].ipb, limits).empty());
    if (i) EXPECT_LE(c[i - 1].prediction.time_us, c[i].prediction.time_us);
  }
  EXPECT_TRUE(std::find(missing.begin(), missing.end(), "add.scan.u64.q4") != missing.end());
  // At 1.5 x 2^19 bits Q=8 needs 1536 threads: only Q=16 remains.
  const auto big = rank_candidates(kernels::Op::Add, 3 << 18, 1 << 10, d, models, limits);
  ASSERT_FALSE(big.empty());
  for (const auto& x : big) EXPECT_EQ(x.variant->name, "add.scan.u64.q16");
}

TEST(Selection, DecisionsCoverTheGridWithVariantsValidForTheirBuckets) {
  const DeviceModel d = DeviceModel::h100();
  const kernels::DeviceLimits limits = kernels::DeviceLimits::h100();
  std::map<std::string, VariantModel> models;
  for (const kernels::Variant& v : kernels::registry())
    if (v.op == kernels::Op::Add) models[v.name] = synthetic(v.name, 4.0 * v.q);
  DecisionGrid g;
  g.min_bits = 1024;
  g.max_bits = 1 << 16;
  g.min_count = 64;
  g.max_count = 4096;
  const auto ds = precompute_decisions(kernels::Op::Add, g, d, models, limits, "GPU-test");
  EXPECT_EQ(ds.size(), (6u * 4 + 1) * 7);  // 6 octaves x 4 quarter buckets + the bucket of 2^16; 7 counts
  for (const auto& x : ds) {
    const kernels::Variant* v = kernels::find_variant(x.variant);
    ASSERT_NE(v, nullptr);
    EXPECT_TRUE(kernels::why_invalid(*v, x.bits.hi - 1, x.count.hi - 1, x.ipb, limits).empty()) << x.variant;
    EXPECT_EQ(x.source, "tuner");
    EXPECT_TRUE(x.predicted_us.has_value());
  }
}

TEST(TimeModel, CalibrationRecoversConstantsFromTimesAndCounters) {
  const DeviceModel d = DeviceModel::h100();
  const kernels::DeviceLimits limits = kernels::DeviceLimits::h100();
  const kernels::Variant* v = kernels::find_variant("mul.classical.u64.q4");
  ASSERT_NE(v, nullptr);
  VariantModel truth = synthetic(v->name, 1, 64);
  // Per-thread work grows with the limbs (a product): 3 instructions per limb
  // per warp, so per instance 3 x limbs x warps per instance, quadratic.
  truth.metrics.erase(kMetricInst);
  truth.metrics[kMetricInstWarp].f = power_of_limbs(3.0, 1);
  truth.alpha = 1.7, truth.beta = 1.3, truth.latency = 12, truth.t0_us = 2.5;
  std::vector<Observation> obs;
  for (const SamplePoint& p : sampling_plan(*v, limits)) {
    Observation o;
    o.shape = launch_shape(*v, p.bits, p.count, p.ipb, limits);
    const Metrics x = eval_metrics(truth, o.shape);
    o.time_us = predict_with(d, truth, o.shape, x).time_us;
    o.counters["smsp__inst_executed.sum"] = x.inst * p.count;
    o.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = x.bytes * p.count / 32 / 2;
    o.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = x.bytes * p.count / 32 / 2;
    o.counters["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"] = x.shared * p.count;
    obs.push_back(o);
  }
  ASSERT_GE(obs.size(), 15u);
  VariantModel m;
  m.variant = v->name;
  m.regs = 64;
  m.static_smem = 1024;
  fit_variant(d, obs, m);
  EXPECT_LT(m.time_error, 0.03);
  // Held out: 4x the largest sampled size.
  for (uint64_t bits : {24576u, 65536u}) {
    const LaunchShape s = launch_shape(*v, bits, 1024, 1, limits);
    // Within 8 %: five constants from ~30 times by grid search are close, not exact.
    EXPECT_NEAR(predict(d, m, s).time_us / predict(d, truth, s).time_us, 1.0, 0.08) << bits;
  }
  // Stored and read back, the model predicts the same.
  const auto back = from_records(to_records(m, "GPU-x", "b1"), "GPU-x");
  ASSERT_EQ(back.count(v->name), 1u);
  const LaunchShape s = launch_shape(*v, 8192, 4096, 2, limits);
  EXPECT_DOUBLE_EQ(predict(d, back.at(v->name), s).time_us, predict(d, m, s).time_us);
}

TEST(Sampling, SmallValidNotOnlyPowersOfTwo) {
  const kernels::DeviceLimits limits = kernels::DeviceLimits::h100();
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != kernels::Op::Add && v.op != kernels::Op::Mul) continue;
    const auto plan = sampling_plan(v, limits);
    ASSERT_GE(plan.size(), 8u) << v.name;
    bool odd = false;
    for (const auto& p : plan) {
      EXPECT_LE(p.bits, 16384u);
      EXPECT_TRUE(kernels::why_invalid(v, p.bits, p.count, p.ipb, limits).empty()) << v.name;
      odd |= (p.bits & (p.bits - 1)) != 0;
    }
    EXPECT_TRUE(odd) << v.name;
  }
}

// powm samples from two short exponents: the cost model is set-up + per
// bit, so the line through the two gives the full-size exponent's cost.
TEST(ShortExponents, ExtrapolatesTheLineToFullExponents) {
  const double setup = 40, per_bit = 0.75;
  const auto cost = [&](uint64_t e) { return setup + per_bit * double(e); };
  for (uint64_t full : {480u, 1024u, 4096u, 8192u})
    EXPECT_NEAR(extrapolate_exponent(cost(kShortExponentBits[0]), cost(kShortExponentBits[1]), full), cost(full),
                1e-9 * cost(full))
        << full;
  // Whole windows of every width 3..6 at both lengths.
  for (uint64_t w = 3; w <= 6; ++w) {
    EXPECT_EQ(kShortExponentBits[0] % w, 0u);
    EXPECT_EQ(kShortExponentBits[1] % w, 0u);
  }
  // A noisy pair (the longer run not slower) gives no negative slope.
  EXPECT_DOUBLE_EQ(extrapolate_exponent(100, 90, 8192), 100);
  // Only powm, and only from kShortExponentMinBits: smaller ones are cheap in full.
  EXPECT_TRUE(short_exponents(kernels::Op::PowM, kShortExponentMinBits));
  EXPECT_FALSE(short_exponents(kernels::Op::PowM, kShortExponentMinBits - 1));
  EXPECT_FALSE(short_exponents(kernels::Op::MulMod, 8192));
}

}  // namespace
}  // namespace bigtune::tuner
