// Checks of a call's arguments that need no GPU: batch shapes per op and plan
// validity. Each failure throws bigtune::Error with what to do.
#pragma once
#include <cstdint>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"

namespace bigtune::runtime {

struct Shape {
  uint64_t bits = 0, count = 0;
};

kernels::Op to_kernel_op(Op op);

// r: result shape (bits ignored for cmp, where it is the flags' count);
// b: second operand, ignored for shifts.
void validate_shapes(Op op, Shape r, Shape a, Shape b);

// The registry variant a plan names, checked against the op and the device.
const kernels::Variant& validate_plan(const Plan& plan, Op op, uint64_t bits, uint64_t count,
                                      const kernels::DeviceLimits& limits);

}  // namespace bigtune::runtime
