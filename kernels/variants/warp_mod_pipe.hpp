// powm on the column-pipelined warp Montgomery squaring (task powmpipe,
// kernels/variants/warp_mod_pipe_instances.cu), declared apart from
// variant_factory.hpp so that adding it does not rebuild every instance file.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// powm.bgsqr.u32.q16.l2.w5.pipe, q8.l8.w6.pipe, q16.l8.w6.pipe (1-4 Kbit)
void append_warp_mod_pipe_variants(std::vector<Variant>& out);
// powm.bgsqr.u32.q16.l16.w6.pipe, q16.l32.w6.pipe (8, 16 Kbit)
void append_warp_mod_pipe_large_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
