// The fused NTT Barrett powm (kernels/variants/nttbarrett_instances.cu, issue 9,
// task nttpowm), declared apart from variant_factory.hpp so that adding it does
// not rebuild every instance file.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

void append_nttbarrett_variants(std::vector<Variant>& out);  // powm.nttbarrett.u64.q1.w{4,5,6}, 1 - 2^16 bits

}  // namespace bigtune::kernels::variants
