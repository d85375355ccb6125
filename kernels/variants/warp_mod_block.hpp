// The block-Montgomery and global-table modular variants (kernels/variants/
// warp_mod_{block,global}_instances.cu, task modfast), declared apart from
// variant_factory.hpp so that adding them does not rebuild every instance file.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

void append_warp_mod_block_variants(std::vector<Variant>& out);  // warp block Montgomery, 32-256 limbs
void append_warp_mod_global_variants(std::vector<Variant>& out);  // warp powm, table in global memory
void append_warp_mod_sqr_variants(std::vector<Variant>& out);     // warp powm, squarings SOS (task powmsqr)
void append_warp_mod_sqrmod_variants(std::vector<Variant>& out);  // warp sqrmod on the squaring (task powmsqr)

}  // namespace bigtune::kernels::variants
