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

// mulmod / sqrmod with a modulus per instance (nullopt for other ops): the
// selector's plans for them are measured with one modulus for the batch
// (tune: OpLayout::one_modulus), and with a modulus each the kernels they
// name precompute per instance (Montgomery constants, mu), which costs more
// than dividing a·b itself. So above 64 bits the product and its remainder
// by the division (`<op>.rem.u64.q1`, kernels/variants/barrett_instances.cu),
// to 64 bits the one-word reciprocal kernel (`<op>.preinv.u64.q1`,
// kernels/modular/mod64.cuh). Source "moduli per instance".
std::optional<Plan> per_instance_modulus_plan(Op op, uint64_t bits);

// powm with one modulus for the batch (nullopt where the selector keeps
// the call): the selector's powm plans are measured with a modulus per
// instance (tune: OpLayout), and a shared one lets the composed Barrett powm
// run each step's reduction products on the tensor cores
// (`powm.tcbarrett.u64.q1.w6`, kernels/variants/barrett_instances.cu), which
// beats every powm kernel from 8 to 32 Kbit on batches of one wave of its
// 64-instance blocks (64 per SM) or more. Source "shared modulus".
std::optional<Plan> shared_modulus_powm_plan(uint64_t bits, uint64_t count, const kernels::DeviceLimits& limits);

}  // namespace bigtune::runtime
