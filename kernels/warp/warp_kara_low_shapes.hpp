// Shape rules of the warp low-half product by halves (kernels/variants/
// warp_kara_low.cuh, "mul_low.wlow.u32.q<Q>.l<L>"): as the warp Karatsuba's
// (L = variant.param lanes per instance, 2 L Q limbs, one warp per block,
// static shared memory), a ShapeRules object of its own so that the tests and
// the tuner can tell the two kernels apart (defined in warp_kara_shapes.cpp).
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::warp {
extern const ShapeRules kWarpKaraLowShape;
}  // namespace bigtune::kernels::warp

namespace bigtune::kernels::variants {
// kernels/variants/warp_kara_low_instances.cu.
void append_warp_kara_low_variants(std::vector<Variant>& out);
}  // namespace bigtune::kernels::variants
