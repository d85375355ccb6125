// `bigtune tune`, step 5 of seed 004 §4.4: the model ranks, a measurement
// decides. At anchor sizes (4^k bits from 64, a batch of 2^30 bits) the
// model's three best plans and the built-in default plan are timed and the
// fastest is kept; stored decisions near an anchor where the model's first
// choice lost take the measured winner. The model is fitted on sizes <= 2^14
// bits, so this is what keeps an algorithm change far above them (the NTT
// product from 2^16 bits, say) from being missed.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bigtune/plan.hpp"
#include "cli/tune_bench.hpp"
#include "db/records.hpp"
#include "kernels/registry.hpp"
#include "tuner/select.hpp"

namespace bigtune::cli {

struct AnchorResult {
  uint64_t bits = 0, count = 0;
  Plan model_first, winner;
  double model_first_us = 0, winner_us = 0;
};

std::vector<AnchorResult> measure_anchors(OpBench& bench, kernels::Op op, uint64_t max_bits,
                                          const tuner::DeviceModel& device,
                                          const std::map<std::string, tuner::VariantModel>& models,
                                          const kernels::DeviceLimits& limits);

// Replaces, in the decisions of one op, the model's choice by the nearest
// anchor's measured winner where that anchor's model choice lost and the
// winner can run the decision's sizes; returns how many changed.
size_t correct_decisions(std::vector<db::DecisionRecord>& decisions, const std::vector<AnchorResult>& anchors,
                         const kernels::DeviceLimits& limits);

}  // namespace bigtune::cli
