// The early-store add/sub families (early_add_sub_instances.cu): a header of
// its own rather than a line in variant_factory.hpp, which every instance file
// includes (a change there recompiles them all).
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// Family "grid": "<op>.early.u64.q<Q>.t<T>" (decoupled look-back) and
// "<op>.cluster.u64.q<Q>.t<T>" (thread block clusters, sm_90), both storing
// every chunk that does not need the tile's carry-in before fetching it.
void append_early_add_sub_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
