// The two-lane powm variants (kernels/variants/warp_mod_l2_instances.cu, task
// powm1k), declared apart from variant_factory.hpp and warp_mod_block.hpp so
// that adding them rebuilds no other instance file.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

void append_warp_mod_l2_variants(std::vector<Variant>& out);  // warp powm on 2-lane segments, 1 Kbit

}  // namespace bigtune::kernels::variants
