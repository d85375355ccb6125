// The cluster add/sub family (cluster_add_sub_instances.cu): a header of its
// own rather than a line in variant_factory.hpp, which every instance file
// includes (a change there recompiles them all).
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// Family "grid": "<op>.cluster.u64.q<Q>.t<T>", one thread block cluster per
// instance, the carry between its tiles through distributed shared memory (sm_90).
void append_cluster_add_sub_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
