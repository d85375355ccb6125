// Shape rules of the warp product in rounds (kernels/variants/warp_mul_rounds.cuh):
// an instance takes L = variant.param lanes and holds L * Q 32-bit limbs (as
// kWarpShape); a block runs R rounds of ipb instances, so the launch runs
// ceil(grid / R) blocks of the one-round geometry.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::warp {

// Rounds per block of the "<op>.blockrot.u32.q<Q>.l<L>.r4" variants.
constexpr uint32_t kWarpRounds = 4;
extern const ShapeRules kWarpRoundsShape;

}  // namespace bigtune::kernels::warp

namespace bigtune::kernels::variants {
// kernels/variants/warp_mul_rounds_instances.cu (declared here, not in
// variant_factory.hpp, which every instance file includes).
void append_warp_mul_rounds_variants(std::vector<Variant>& out);
}  // namespace bigtune::kernels::variants
