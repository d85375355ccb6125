// What the runtime gives the selector (selector.hpp): its safe built-in plan,
// a check that a stored plan can run in this build on this device, and the
// device's identity. Shared by Context and by `bigtune query`.
#pragma once
#include <optional>
#include <string>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/selector.hpp"

namespace bigtune::runtime {

std::optional<Op> op_from_name(const std::string& name);

// default_plan() (default_plan.hpp) for these limits, as a PlanFunction.
PlanFunction default_plan_function(const kernels::DeviceLimits& limits);

// True when the plan names a registry variant of the op that is valid for
// (bits, count) on a device with these limits.
PlanCheck plan_check(const kernels::DeviceLimits& limits);

// Identity of CUDA device `ordinal` (name, UUID, compute capability, SMs);
// nothing when there is no such device.
std::optional<DeviceIdentity> device_identity(int ordinal);

// Limits to check plans against for a device known only by model name
// (`bigtune query --device NAME` without that GPU): today the H100's.
kernels::DeviceLimits limits_for_model(const std::string& name);

}  // namespace bigtune::runtime
