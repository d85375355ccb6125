// The warp Newton-reciprocal divmod's variants (warp_divnewton_instances.cu),
// declared apart from variant_factory.hpp so that adding them does not
// rebuild every *_instances.cu.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

void append_warp_divnewton_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
