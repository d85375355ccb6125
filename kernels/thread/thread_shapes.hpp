// Shape rules of the thread-per-instance family (thread_layout.hpp): one
// thread per instance, operands held in registers (v.q limbs of v.limb_bits).
#pragma once
#include "kernels/registry.hpp"

namespace bigtune::kernels::thread {

// mul_low, mul, sqr, divmod: register arrays of v.q limbs cap the operand at
// v.q * v.limb_bits bits.
extern const ShapeRules kRegisterShape;
// add, sub: limbs stream through shared memory one at a time, so no register
// array bounds the size; the cap is the family's regime (v.q * v.limb_bits,
// 8 Kbit), past which block-level addition needs less shared memory per
// instance (issue 4: thread level covers 64 bits .. 8 Kbit).
extern const ShapeRules kStreamShape;
// add, sub on one or two 64-bit words: each thread reads its own words
// straight from global memory (consecutive threads, consecutive words: already
// coalesced at that size), no shared memory; cap v.q * v.limb_bits.
extern const ShapeRules kDirectShape;

}  // namespace bigtune::kernels::thread
