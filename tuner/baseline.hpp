// The "no tuner" baseline of `bigtune validate` (issue 6, seed 004 §4.7).
//
// KLARAPTOR is compared against what a CUDA programmer does without a
// tuner: ask the occupancy API for a launch configuration
// (cudaOccupancyMaxPotentialBlockSize: the largest block size that reaches
// the highest occupancy) and use it. For a batch of big integers the
// programmer also has to choose among the library's kernels, and occupancy
// is the only criterion the API offers; so the baseline plan for an op and
// size is, among ALL valid plans (every variant of the op, every IPB), the
// one with the most active warps per SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor
// x warps per block), ties broken as the API does, by the largest block.
// Plans still tied (different kernels, same occupancy and block size: the
// API cannot tell them apart) all count: the baseline's time is the
// geometric mean of their measured times, the expected log time of picking
// one of them at random, so that no tie-break is chosen to flatter (or
// handicap) the tuner.
//
// validate also keeps the earlier, weaker-for-the-tuner baseline: the
// built-in default plan's variant (runtime/default_plan.cpp, itself this
// project's hand measurements on the H100) with the API's block size.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace bigtune::tuner {

struct OccupancyCandidate {
  std::string plan;          // "variant/ipb"
  int active_warps = 0;      // per SM, from the occupancy API
  uint32_t block_threads = 0;
};

// The plans the occupancy API's rule cannot separate: most active warps,
// then largest block. Empty when `all` is empty or no plan has a warp resident.
std::vector<std::string> occupancy_choice(const std::vector<OccupancyCandidate>& all);

// Geometric mean of positive finite times (NaN when there is none).
double geomean_time(const std::vector<double>& times);

}  // namespace bigtune::tuner
