#include "tuner/baseline.hpp"

#include <cmath>

namespace bigtune::tuner {

std::vector<std::string> occupancy_choice(const std::vector<OccupancyCandidate>& all) {
  int warps = 0;
  uint32_t block = 0;
  for (const OccupancyCandidate& c : all)
    if (c.active_warps > warps || (c.active_warps == warps && c.block_threads > block))
      warps = c.active_warps, block = c.block_threads;
  std::vector<std::string> out;
  if (warps <= 0) return out;
  for (const OccupancyCandidate& c : all)
    if (c.active_warps == warps && c.block_threads == block) out.push_back(c.plan);
  return out;
}

double geomean_time(const std::vector<double>& times) {
  double s = 0;
  int n = 0;
  for (double t : times)
    if (std::isfinite(t) && t > 0) s += std::log(t), ++n;
  return n ? std::exp(s / n) : NAN;
}

}  // namespace bigtune::tuner
