// Optional hooks for `bigtune query`, filled by main.cpp when the runtime and
// the tuner are linked in. Without them, query answers from the database and
// the shipped profiles only, and says when the built-in default would apply.
#pragma once
#include <functional>
#include <optional>

#include "runtime/selector.hpp"

namespace bigtune::cli {

struct QueryHooks {
  runtime::PlanFunction default_plan;  // the runtime's safe built-in plan
  runtime::PlanFunction model;         // the tuner's rational program
  runtime::PlanCheck check;            // can this build run a plan (registry + limits)?
  // The identity of local GPU `index` (the global --device), or nothing when
  // there is no GPU; used when `query` gets no --device NAME.
  std::function<std::optional<runtime::DeviceIdentity>(int index)> local_device;
  // The plan mulmod / sqrmod take with a modulus per instance (the selector's
  // plans are for one modulus shared by the batch); nothing for other ops.
  std::function<std::optional<Plan>(const std::string& op, uint64_t bits)> per_instance_modulus;
  // The plan powm takes with one modulus for the batch where the runtime's
  // rule overrides the selector (whose powm plans are for moduli per
  // instance); nothing elsewhere.
  std::function<std::optional<Plan>(const std::string& op, uint64_t bits, uint64_t count,
                                    const runtime::DeviceIdentity& device)>
      shared_modulus;
};
QueryHooks& query_hooks();

}  // namespace bigtune::cli
