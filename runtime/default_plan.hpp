// The safe built-in plan used before any tuning: a valid variant for every
// supported size, chosen by simple rules. The tuner's selector replaces it.
#pragma once
#include <cstdint>
#include <optional>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"

namespace bigtune::runtime {

// nullopt when no variant can run this size on this device.
std::optional<Plan> default_plan(Op op, uint64_t bits, uint64_t count, const kernels::DeviceLimits& limits);

}  // namespace bigtune::runtime
