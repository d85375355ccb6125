// Measured points between the model and the stored decisions (seed 004
// §4.4 step 5, "measure the top few and keep the winner"), and where to
// measure more of them.
//
// `bigtune tune` times, at anchor sizes (4^k bits), the model's first plans
// and the built-in default plan. The model is fitted on sizes <= 2^14 bits,
// so far above them it can miss an algorithm change (the NTT product
// overtaking the classical one between 2^15 and 2^16 bits). Copying the
// nearest anchor's winner to every size between anchors moves the crossover
// to the midpoint of the anchors in log scale: on the H100 the classical
// product still wins at 48,000 bits but the 65,536-bit anchor's NTT was
// stored there (1.26x the best). So where adjacent measured points disagree
// on the winner, the interval is bisected (geometric midpoint, timing both
// neighbours' winners there as well) until the points are closer than a
// decision bucket (a quarter octave, db/buckets.hpp) or both winners are
// within a tolerance of each other at the new point. Decisions between
// measured points then follow the nearest one (in log bits).
//
// Pure logic (no GPU): the measurement is a callback; tests/tuner/
// crossover_test.cpp drives it with synthetic cost functions.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bigtune::tuner {

struct TimedPlan {
  std::string variant;
  uint32_t ipb = 1;
  double us = 0;
  bool same_plan(const TimedPlan& o) const { return variant == o.variant && ipb == o.ipb; }
};

// One size where plans were measured (anchor or bisection point).
struct MeasuredPoint {
  uint64_t bits = 0, count = 0;
  std::vector<TimedPlan> timed;  // every plan timed here (finite times only)
  TimedPlan model_first;         // the model's first choice here (us 0 when it could not run)
  bool bisected = false;         // added by bisection, not an anchor
  // The fastest timed plan (nullptr when none).
  const TimedPlan* winner() const;
  // The time of (variant, ipb) here, when it was timed.
  std::optional<double> time_of(const std::string& variant, uint32_t ipb) const;
  // Whether the model's first choice was (within `tolerance`) the best here.
  bool model_right(double tolerance = 0.0) const;
};

struct CrossoverOptions {
  double min_ratio = 1.25;   // stop when adjacent points are closer than a bucket (25 %)
  double tolerance = 0.03;   // winners within 3 % of each other: the crossover does not matter
  int max_points = 12;       // bisection points per op (time budget)
  uint64_t granularity = 64; // sizes measured are multiples of this many bits
};

// Where to measure next: the geometric midpoint of every adjacent pair of
// points (sorted by bits) whose winners are different plans, unless they are
// closer than min_ratio, or one of the two winners is timed at both points
// and is within `tolerance` of the best at both (it serves the whole
// interval). Sizes rounded to `granularity`, strictly between the pair.
// Most urgent first: pairs whose winners are different algorithms, then
// the widest intervals. refine_crossovers measures one at a time in this
// order, recomputing the targets after each.
std::vector<uint64_t> bisection_targets(const std::vector<MeasuredPoint>& points, const CrossoverOptions& o);

// Measures one size: must time the model's first plans there and the plans
// in `also` (the neighbours' winners). Returns nullopt when the size cannot
// be measured (no memory, no valid plan).
using MeasureFn = std::function<std::optional<MeasuredPoint>(uint64_t bits, const std::vector<TimedPlan>& also)>;
// Bisects until bisection_targets is empty or max_points were added (or
// `keep_going` says stop: a time budget). Returns the points sorted by bits.
std::vector<MeasuredPoint> refine_crossovers(std::vector<MeasuredPoint> points, const MeasureFn& measure,
                                             const CrossoverOptions& o,
                                             const std::function<bool()>& keep_going = {});

// The measured point that governs a decision for bit-sizes [lo, hi): the
// nearest one to the bucket's geometric centre in log2 bits, if within
// `max_octaves` (nullptr otherwise).
const MeasuredPoint* governing_point(const std::vector<MeasuredPoint>& points, uint64_t lo, uint64_t hi,
                                     double max_octaves = 1.0);

// The decision rule for a bucket [lo, hi): the governing point's winner
// when the bucket's own plan (`decided`, the model's choice for it) was
// timed there and lost by more than `tolerance`; when it was not timed
// there, when the model's first choice at the point lost by more than that
// or is another variant than the bucket's plan (nullptr: keep the model's
// choice, or no point near enough).
//
// `valid` (optional) says whether a plan can serve the whole bucket (a
// variant whose largest size is a bucket's lower edge, e.g. two Karatsuba
// levels over an 8-Kbit product, which stops at 32768 bits, cannot serve
// [32768, 40960)). With it, a point's winner is its fastest valid plan, and
// of the points within `max_octaves` the one whose valid winner is closest to
// that point's overall best governs (the nearer on ties within `tolerance`): on
// the H100 the 32,768-bit point's winner could not serve the bucket of
// 48,000 bits, and the model's choice stayed there at 1.47x the best while
// the 65,536-bit point had timed a plan that could.
// `transfers` (when given): whether a plan's time at a point stands for the
// bucket at all (cli/tune_measure.cpp: its occupancy is the same there); a
// plan that does not is neither a candidate from that point nor, as the
// bucket's plan, confirmed by its time there.
using PlanValidFn = std::function<bool(const TimedPlan&)>;
using PlanTransfersFn = std::function<bool(const TimedPlan&, const MeasuredPoint&)>;
const TimedPlan* measured_override(const std::vector<MeasuredPoint>& points, uint64_t lo, uint64_t hi,
                                   double tolerance = 0.02, double max_octaves = 1.0,
                                   const TimedPlan* decided = nullptr, const PlanValidFn& valid = {},
                                   const PlanTransfersFn& transfers = {});

}  // namespace bigtune::tuner
