// What a Context holds; shared by the runtime's translation units only.
#pragma once
#include <cuda_runtime_api.h>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/selector.hpp"
#include "runtime/validate.hpp"

#include <memory>
#include <string>

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

// Helpers of the Context methods (context.cpp, context_ops.cpp).
inline runtime::Shape shape_of(const Batch& b) { return {b.bits(), b.count()}; }

inline kernels::KernelArgs args_for(void* r, const void* a, const void* b, uint32_t* flags = nullptr) {
  kernels::KernelArgs k;
  k.r = r;
  k.a = a;
  k.b = b;
  k.flags = flags;
  return k;
}

// Flags passed with a call must hold one value per instance.
inline void check_flags(const char* op, const Flags* f, uint64_t count) {
  if (f && f->count() != count)
    throw Error(ErrorCode::InvalidArgument,
                std::string(op) + ": flags hold " + std::to_string(f->count()) + " values for " +
                    std::to_string(count) + " instances",
                "create the Flags with the batch's count");
}

}  // namespace bigtune
