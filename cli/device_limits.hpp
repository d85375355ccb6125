// The limits the CLI plans for: the GPU's when one is present, else a named
// model (today only the H100), so that listing works on a machine without one.
#pragma once
#include <string>

#include "kernels/registry.hpp"

namespace bigtune::cli {

struct LimitsSource {
  kernels::DeviceLimits limits;
  std::string note;  // empty when read from a GPU
};

LimitsSource current_limits(int device);

}  // namespace bigtune::cli
