// What a Context holds; shared by the runtime's translation units only.
#pragma once
#include <cuda_runtime_api.h>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/selector.hpp"

#include <memory>

namespace bigtune {

// A validated launch: the variant, its geometry and the size fields of its
// arguments (pointers and op-specific fields are the caller's).
struct PreparedLaunch {
  const kernels::Variant* variant;
  kernels::Geometry geometry;
  kernels::KernelArgs args;
};
PreparedLaunch prepare_launch(Op op, const Plan& plan, uint64_t operand_bits, uint64_t count, uint64_t result_bits,
                              const kernels::DeviceLimits& limits);

// Bit-sizes of the operands and results beyond (r, a), for the ops that have
// them; Impl::launch turns them into limb counts of the chosen variant.
struct ExtraBits {
  uint64_t b = 0, c = 0, r2 = 0, m = 0, e = 0;
};

struct Context::Impl {
  DeviceInfo info;
  kernels::DeviceLimits limits;
  cudaStream_t stream = nullptr;
  runtime::DeviceIdentity identity;
  std::unique_ptr<runtime::Selector> selector;  // null without a tuning database
  void* scratch = nullptr;                       // global scratch of multi-pass variants, grown on demand
  uint64_t scratch_capacity = 0;

  // Makes this context's device current on the calling thread.
  void activate() const;
  // Validates the plan (or picks the default) and launches; args carries the
  // pointers, bits and op-specific fields, the rest is filled here.
  void launch(Op op, const Plan* plan, uint64_t operand_bits, uint64_t count, uint64_t result_bits,
              kernels::KernelArgs args, const ExtraBits& extra = {});
  // At least `bytes` of scratch, reallocated (after the stream drains) when too small.
  void* scratch_of(uint64_t bytes);
};

}  // namespace bigtune
