// Shape rules of the warp Karatsuba (kernels/variants/warp_kara.cuh): an
// instance takes L = variant.param lanes and holds 2 L Q 32-bit limbs (two
// halves of L Q); one warp per block (static shared memory, 6 Q words per
// lane), so at most 32 / L instances per block.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::warp {
extern const ShapeRules kWarpKaraShape;
}  // namespace bigtune::kernels::warp

namespace bigtune::kernels::variants {
// kernels/variants/warp_kara_instances.cu (declared here, not in
// variant_factory.hpp, which every instance file includes).
void append_warp_kara_variants(std::vector<Variant>& out);
}  // namespace bigtune::kernels::variants
