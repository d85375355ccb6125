// `bigtune tune`, step 5 of seed 004 §4.4: the model ranks, a measurement
// decides. At anchor sizes (4^k bits from 64, batches as `bigtune validate`
// uses: 2^30 bits for linear-cost ops, 2^27 for products and the like) the
// model's three best plans, the built-in default plan and the previous
// anchor's winner are timed and the fastest is kept. Where adjacent measured
// points disagree on the winner, the interval is bisected
// (tuner/crossover.hpp) so that the crossover lands within a decision bucket
// of where it is, instead of at the midpoint between anchors. Stored
// decisions then take the measured winner of the nearest point wherever the
// model's first choice lost there. The model is fitted on sizes <= 2^14 bits,
// so this is what keeps an algorithm change far above them (the NTT product
// from 2^16 bits, say) from being missed.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bigtune/plan.hpp"
#include "cli/tune_bench.hpp"
#include "db/records.hpp"
#include "kernels/registry.hpp"
#include "tuner/crossover.hpp"
#include "tuner/select.hpp"

namespace bigtune::cli {

// The batch of a measured point: as validate measures (log2 bits per batch
// 30 for linear-cost ops, 27 for superlinear ones), at least two blocks per SM.
uint64_t measured_count(kernels::Op op, uint64_t bits, int sm_count);

// Times, at one size, the model's `top` first plans, the built-in default
// plan and the plans in `also` (reduced to a valid IPB there), then the
// winner's neighbours: its kernel at the other block sizes and its IPB
// doubled and halved. nullopt when the batch does not fit or nothing ran.
std::optional<tuner::MeasuredPoint> measure_point(OpBench& bench, kernels::Op op, uint64_t bits, int sm_count,
                                                  const tuner::DeviceModel& device,
                                                  const std::map<std::string, tuner::VariantModel>& models,
                                                  const kernels::DeviceLimits& limits,
                                                  const std::vector<tuner::TimedPlan>& also, int top = 3);

// Anchors (4^k bits from 64 to max_bits, each also timing the previous
// anchor's winner), then bisection between those whose winners differ
// while `keep_going` allows. Points sorted by bits.
std::vector<tuner::MeasuredPoint> measure_op(OpBench& bench, kernels::Op op, uint64_t max_bits, int sm_count,
                                             const tuner::DeviceModel& device,
                                             const std::map<std::string, tuner::VariantModel>& models,
                                             const kernels::DeviceLimits& limits,
                                             const tuner::CrossoverOptions& crossover,
                                             const std::function<bool()>& keep_going);

// Replaces, in the decisions of one op, the model's choice by the governing
// measured point's winner (tuner::governing_point: the nearest in log bits,
// within one octave) where the model's first choice lost there by more than
// `tolerance` and the winner can run the decision's sizes (its IPB lowered
// until valid); returns how many changed.
//
// `warps_per_sm` (the occupancy node: active warps per SM of a plan at a
// size and count; null: not checked): a plan's time at a measured point only
// stands for a bucket where its occupancy at the bucket's bottom and top is
// no more than 20 % below the point's. A block-level scan's threads grow with
// the size, and a measurement at 2^18 bits (512 threads per block) said
// nothing of the same plan at 300,000 bits (608 threads, fewer blocks per SM
// by registers), where it ran 1.41x the best (session 5, validate).
using WarpsPerSm = std::function<int(const kernels::Variant&, uint64_t bits, uint64_t count, uint32_t ipb)>;
size_t correct_decisions(std::vector<db::DecisionRecord>& decisions, const std::vector<tuner::MeasuredPoint>& points,
                         const kernels::DeviceLimits& limits, double tolerance = 0.02,
                         const WarpsPerSm& warps_per_sm = nullptr);

}  // namespace bigtune::cli
