// powm at 16 Kbit on the warp Montgomery squaring (task powmregs,
// kernels/variants/warp_mod_regs_instances.cu), declared apart from
// variant_factory.hpp so that adding it does not rebuild every instance file.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

void append_warp_mod_regs_variants(std::vector<Variant>& out);  // powm.bgsqr.u32.q16.l32.w6

}  // namespace bigtune::kernels::variants
