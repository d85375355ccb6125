// The chained add/sub family (chained_add_sub_instances.cu): a header of its
// own rather than a line in variant_factory.hpp, which every instance file
// includes (a change there recompiles them all).
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// Family "grid": one instance over several blocks, carry by decoupled look-back.
void append_chained_add_sub_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
