#include "cli/tune_measure.hpp"

#include <algorithm>
#include <cmath>

#include "bigtune/error.hpp"
#include "runtime/default_plan.hpp"

namespace bigtune::cli {
namespace {

// The largest IPB <= ipb (halving) valid for (bits, count); 0 when none.
uint32_t valid_ipb(const kernels::Variant& v, uint64_t bits, uint64_t count, uint32_t ipb,
                   const kernels::DeviceLimits& limits) {
  while (ipb > 1 && !kernels::why_invalid(v, bits, count, ipb, limits).empty()) ipb /= 2;
  return kernels::why_invalid(v, bits, count, ipb, limits).empty() ? ipb : 0;
}

}  // namespace

uint64_t measured_count(kernels::Op op, uint64_t bits, int sm_count) {
  // Heavy (modular) ops: 2^24 bits, or one measured point takes seconds.
  const int lb = tuner::heavy_op(op) ? 24 : tuner::superlinear_op(op) ? 27 : 30;
  const uint64_t count = std::max<uint64_t>(1, (uint64_t(1) << lb) / std::max<uint64_t>(bits, 1));
  return std::max<uint64_t>(count, 2 * uint64_t(std::max(sm_count, 1)));
}

std::optional<tuner::MeasuredPoint> measure_point(OpBench& bench, kernels::Op op, uint64_t bits, int sm_count,
                                                  const tuner::DeviceModel& device,
                                                  const std::map<std::string, tuner::VariantModel>& models,
                                                  const kernels::DeviceLimits& limits,
                                                  const std::vector<tuner::TimedPlan>& also, int top) {
  const Op pop = static_cast<Op>(static_cast<int>(op));
  const uint64_t count = measured_count(op, bits, sm_count);
  const auto ranked = tuner::rank_candidates(op, bits, count, device, models, limits);
  std::vector<Plan> plans;
  auto add = [&](const std::string& variant, uint32_t ipb) {
    const kernels::Variant* v = kernels::find_variant(variant);
    if (!v) return;
    ipb = valid_ipb(*v, bits, count, ipb, limits);
    if (ipb == 0) return;
    for (const Plan& p : plans)
      if (p.variant == variant && p.ipb == ipb) return;
    plans.push_back(Plan{variant, ipb, "tuner", 0});
  };
  for (size_t i = 0; i < ranked.size() && int(i) < top; ++i) add(ranked[i].variant->name, ranked[i].ipb);
  if (const auto d = runtime::default_plan(pop, bits, count, limits)) add(d->variant, d->ipb);
  for (const tuner::TimedPlan& t : also) add(t.variant, t.ipb);
  if (plans.empty()) return std::nullopt;
  try {
    bench.prepare(pop, bits, count);
  } catch (const Error&) {
    return std::nullopt;  // batches that do not fit in device memory: no point here
  }
  tuner::MeasuredPoint p;
  p.bits = bits, p.count = count;
  if (!ranked.empty()) p.model_first = {ranked[0].variant->name, ranked[0].ipb, 0};
  size_t timed_upto = 0;
  const auto time_new_plans = [&] {
    for (; timed_upto < plans.size(); ++timed_upto) {
      const Plan& plan = plans[timed_upto];
      double us = 0;
      try {
        us = bench.time_us(plan, 1, 3);
      } catch (const Error& e) {
        if (e.code() != ErrorCode::Unsupported && e.code() != ErrorCode::InvalidArgument) throw;
        continue;  // a plan the device refuses is no winner
      }
      p.timed.push_back({plan.variant, plan.ipb, us});
      if (plan.variant == p.model_first.variant && plan.ipb == p.model_first.ipb) p.model_first.us = us;
    }
  };
  time_new_plans();
  // A small local search around the measured winner (seed 004 §4.4 step 5
  // measures the model's top few; where the model is wrong about a kernel's
  // block size, its top few can all miss the best one): the winner's kernel at
  // every other block size (variants sharing its kernel differ only in
  // threads, e.g. the NTT's t256/t512/t1024: session 3's validate lost 1.15-1.18x
  // at 700k-1M bits to an untimed t512) and the winner at twice and half its IPB.
  if (const tuner::TimedPlan* w = p.winner()) {
    const tuner::TimedPlan best = *w;
    if (const kernels::Variant* wv = kernels::find_variant(best.variant)) {
      for (const kernels::Variant& v : kernels::registry())
        if (kernels::same_kernel_other_threads(v, *wv)) add(v.name, best.ipb);
      add(best.variant, best.ipb * 2);
      if (best.ipb > 1) add(best.variant, best.ipb / 2);
    }
    time_new_plans();
  }
  if (!p.winner()) return std::nullopt;
  return p;
}

std::vector<tuner::MeasuredPoint> measure_op(OpBench& bench, kernels::Op op, uint64_t max_bits, int sm_count,
                                             const tuner::DeviceModel& device,
                                             const std::map<std::string, tuner::VariantModel>& models,
                                             const kernels::DeviceLimits& limits,
                                             const tuner::CrossoverOptions& crossover,
                                             const std::function<bool()>& keep_going) {
  // Anchors only up to the op's largest size (no valid plan above it).
  uint64_t op_max = 0;
  for (const kernels::Variant& v : kernels::registry())
    if (v.op == op) op_max = std::max(op_max, kernels::max_operand_bits(v, limits));
  std::vector<tuner::MeasuredPoint> points;
  for (uint64_t bits = 64; bits <= std::min(max_bits, op_max); bits *= 4) {
    if (keep_going && !keep_going()) break;
    std::vector<tuner::TimedPlan> also;
    if (!points.empty())
      if (const tuner::TimedPlan* w = points.back().winner()) also.push_back(*w);
    if (auto p = measure_point(bench, op, bits, sm_count, device, models, limits, also)) points.push_back(std::move(*p));
  }
  return tuner::refine_crossovers(
      std::move(points),
      [&](uint64_t bits, const std::vector<tuner::TimedPlan>& also) {
        return measure_point(bench, op, bits, sm_count, device, models, limits, also);
      },
      crossover, keep_going);
}

size_t correct_decisions(std::vector<db::DecisionRecord>& decisions, const std::vector<tuner::MeasuredPoint>& points,
                         const kernels::DeviceLimits& limits, double tolerance, const WarpsPerSm& warps_per_sm) {
  size_t changed = 0;
  for (db::DecisionRecord& d : decisions) {
    const tuner::TimedPlan decided{d.variant, d.ipb, 0};
    // Valid over the whole bucket: its largest size and count, and its smallest.
    const uint64_t bits = d.bits.hi - 1, count = std::max<uint64_t>(1, d.count.hi - 1);
    const auto bucket_ipb = [&](const tuner::TimedPlan& t) -> uint32_t {
      const kernels::Variant* v = kernels::find_variant(t.variant);
      if (!v) return 0;
      const uint32_t ipb = valid_ipb(*v, bits, count, t.ipb, limits);
      if (ipb == 0 || !kernels::why_invalid(*v, d.bits.lo, std::max<uint64_t>(1, d.count.lo), ipb, limits).empty())
        return 0;
      return ipb;
    };
    // Occupancy at the point against at the bucket's bottom and top (the
    // plan's IPB there): no more than 20 % fewer active warps (a block-level
    // scan's threads grow by 25 % across a bucket; the 1.41x case lost 29 %).
    const auto transfers = [&](const tuner::TimedPlan& t, const tuner::MeasuredPoint& p) {
      const kernels::Variant* v = kernels::find_variant(t.variant);
      const uint32_t ipb = bucket_ipb(t);
      if (!v || ipb == 0) return false;
      const int at_point = warps_per_sm(*v, p.bits, std::max<uint64_t>(1, p.count), t.ipb);
      return 5 * warps_per_sm(*v, bits, count, ipb) >= 4 * at_point &&
             5 * warps_per_sm(*v, d.bits.lo, std::max<uint64_t>(1, d.count.lo), ipb) >= 4 * at_point;
    };
    const tuner::TimedPlan* w = tuner::measured_override(
        points, d.bits.lo, d.bits.hi, tolerance, 1.0, &decided,
        [&](const tuner::TimedPlan& t) { return bucket_ipb(t) != 0; },
        warps_per_sm ? tuner::PlanTransfersFn(transfers) : tuner::PlanTransfersFn());
    if (!w) continue;
    const kernels::Variant* v = kernels::find_variant(w->variant);
    const uint32_t ipb = bucket_ipb(*w);
    if (!v || ipb == 0) continue;
    if (d.variant == v->name && d.ipb == ipb) continue;
    d.variant = v->name;
    d.ipb = ipb;
    d.predicted_us.reset();
    d.source = "measured";
    ++changed;
  }
  return changed;
}

}  // namespace bigtune::cli
