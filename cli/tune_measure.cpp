#include "cli/tune_measure.hpp"

#include <cmath>

#include "bigtune/error.hpp"
#include "runtime/default_plan.hpp"

namespace bigtune::cli {

std::vector<AnchorResult> measure_anchors(OpBench& bench, kernels::Op op, uint64_t max_bits,
                                          const tuner::DeviceModel& device,
                                          const std::map<std::string, tuner::VariantModel>& models,
                                          const kernels::DeviceLimits& limits) {
  const Op pop = static_cast<Op>(static_cast<int>(op));
  std::vector<AnchorResult> out;
  for (uint64_t bits = 64; bits <= max_bits; bits *= 4) {
    const uint64_t count = std::max<uint64_t>(1, (uint64_t(1) << 30) / bits);
    const auto ranked = tuner::rank_candidates(op, bits, count, device, models, limits);
    if (ranked.empty()) continue;
    std::vector<Plan> plans;
    for (size_t i = 0; i < ranked.size() && i < 3; ++i) plans.push_back({ranked[i].variant->name, ranked[i].ipb, "tuner", 0});
    if (const auto d = runtime::default_plan(pop, bits, count, limits)) plans.push_back(*d);
    AnchorResult a;
    a.bits = bits, a.count = count;
    try {
      bench.prepare(pop, bits, count);
    } catch (const Error&) {
      continue;  // batches that do not fit in device memory: no anchor here
    }
    for (size_t i = 0; i < plans.size(); ++i) {
      double us = 0;
      try {
        us = bench.time_us(plans[i], 1, 3);
      } catch (const Error&) {
        continue;  // a plan the device refuses is no winner
      }
      if (i == 0) a.model_first = plans[i], a.model_first_us = us;
      if (a.winner.variant.empty() || us < a.winner_us) a.winner = plans[i], a.winner_us = us;
    }
    if (!a.winner.variant.empty()) out.push_back(a);
  }
  return out;
}

size_t correct_decisions(std::vector<db::DecisionRecord>& decisions, const std::vector<AnchorResult>& anchors,
                         const kernels::DeviceLimits& limits) {
  size_t changed = 0;
  for (db::DecisionRecord& d : decisions) {
    const AnchorResult* near = nullptr;
    double best = 0;
    for (const AnchorResult& a : anchors) {
      const double dist = std::fabs(std::log2(double(d.bits.lo)) - std::log2(double(a.bits)));
      if (!near || dist < best) near = &a, best = dist;
    }
    if (!near || best > 1.0 || near->winner.variant == near->model_first.variant) continue;
    const kernels::Variant* v = kernels::find_variant(near->winner.variant);
    if (!v) continue;
    // Valid over the whole bucket: its largest size and count.
    const uint64_t bits = d.bits.hi - 1, count = std::max<uint64_t>(1, d.count.hi - 1);
    uint32_t ipb = near->winner.ipb;
    while (ipb > 1 && !kernels::why_invalid(*v, bits, count, ipb, limits).empty()) ipb /= 2;
    if (!kernels::why_invalid(*v, bits, count, ipb, limits).empty() ||
        !kernels::why_invalid(*v, d.bits.lo, std::max<uint64_t>(1, d.count.lo), ipb, limits).empty())
      continue;
    d.variant = v->name;
    d.ipb = ipb;
    d.predicted_us.reset();
    d.source = "measured";
    ++changed;
  }
  return changed;
}

}  // namespace bigtune::cli
