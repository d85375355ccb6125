// Shape rules of the block-level families (layout.hpp): one block runs IPB
// instances, each on several threads.
#pragma once
#include "kernels/registry.hpp"

namespace bigtune::kernels::block {

extern const ShapeRules kScanShape;       // add, sub, cmp, shifts: Q limbs per thread
extern const ShapeRules kClassicalShape;  // seed 000 §3 multiplication: 2Q result limbs per thread

}  // namespace bigtune::kernels::block
