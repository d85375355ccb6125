// Routes the launches of a tunable family (llvm-pass/, bigtune/tunable.h)
// through the selector: each instrumented launch asks
// selector.plan(family, sizes[0], sizes[1], device), so its parameters come
// from the tuning database's decisions, history, profile or the family's
// default, and the choice is counted in the database's history (issue 8).
// CUDA-free: the device comes in as plain data.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "bigtune/launch_hook.h"
#include "bigtune/plan.hpp"
#include "runtime/selector.hpp"

namespace bigtune::runtime {

// Turns the selector's plan into launch parameters for this request;
// returns false to keep the launch site's own. A plan's `variant` names the
// family's instantiation as "<family>.v<index>"; `ipb` is family-defined
// (for example threads per block).
using PlanToLaunch = std::function<bool(const Plan& plan, const LaunchRequest& request,
                                        bigtune_launch_params_t& params)>;

// Installs the family's launch policy. The selector must outlive every
// launch of the family (or the policy be removed with set_launch_policy).
void route_family_through_selector(const std::string& family, std::shared_ptr<Selector> selector,
                                   DeviceIdentity device, PlanToLaunch apply);

// The index in "<family>.v<index>", or -1 when the name is not of that form.
int family_variant_index(const std::string& family, const std::string& variant);

}  // namespace bigtune::runtime
