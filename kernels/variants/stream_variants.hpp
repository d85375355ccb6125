// The streaming add/sub family (stream_add_sub_instances.cu): a header of its
// own rather than a line in variant_factory.hpp, which every instance file
// includes (a change there recompiles them all).
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// Family "block": one block per instance of any size, walking it tile by tile.
void append_stream_add_sub_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
