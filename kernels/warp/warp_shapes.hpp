// Shape rules of the warp family (kernels/variants/warp_kernels.cuh): an
// instance takes L = variant.param lanes whatever its size, holds
// L * Q 32-bit limbs in registers (the fixed size cap), and needs no shared
// memory or scratch.
#pragma once
#include "kernels/registry.hpp"

namespace bigtune::kernels::warp {

extern const ShapeRules kWarpShape;

}  // namespace bigtune::kernels::warp
