// The measured fastest plan per op and size ("named preferences", H100,
// bench/results/2026-11-22-h100-*.md), in one place: the built-in default
// plan (runtime/default_plan.cpp) starts from it, and composed variants
// (Barrett's products and division, kernels/variants/barrett_instances.cu)
// pick their parts with it. The tuner's decisions replace it per device.
#pragma once
#include <cstdint>
#include <optional>

#include "kernels/registry.hpp"

namespace bigtune::kernels {

struct PreferredPlan {
  const Variant* variant = nullptr;
  uint32_t ipb = 1;
};

// The preferred variant for (op, bits) with its instances per block, halved
// until valid for (bits, count) on `limits`; nullopt where no preference
// holds (no entry for the op or size, or the variant not registered or not
// valid here).
std::optional<PreferredPlan> preferred_plan(Op op, uint64_t bits, uint64_t count, const DeviceLimits& limits);

}  // namespace bigtune::kernels
