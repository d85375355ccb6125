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
// validate_shapes' decision alone, without building its messages: true
// exactly when validate_shapes_reporting does not throw. validate_shapes
// takes it first, so a valid call (every launch) builds no strings.
bool shapes_valid(Op op, Shape r, Shape a, Shape b);
// validate_shapes without that fast path (the messages; the unit test
// compares the two).
void validate_shapes_reporting(Op op, Shape r, Shape a, Shape b);

// divmod: q has u's bit-size, r has v's, v no longer than u.
void validate_divmod(Shape q, Shape r, Shape u, Shape v);
// mul_add: a and b alike, c no wider than r.
void validate_mul_add(Shape r, Shape a, Shape b, Shape c);
// mulmod, sqrmod, powm (b = exponent), gcd, modinv: one bit-size for operands,
// result and modulus; the modulus (and powm's exponent) count 1 or the batch's.
// b is ignored by sqrmod and modinv; for gcd m is b.
void validate_modular(Op op, Shape r, Shape a, Shape b, Shape m);

// The registry variant a plan names, checked against the op and the device.
const kernels::Variant& validate_plan(const Plan& plan, Op op, uint64_t bits, uint64_t count,
                                      const kernels::DeviceLimits& limits);

}  // namespace bigtune::runtime
