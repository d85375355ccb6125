// Barrett mulmod / sqrmod / powm (kernels/variants/barrett_instances.cu, issue 9),
// declared apart from variant_factory.hpp so that adding them does not rebuild
// every instance file.
#pragma once
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// Any modulus, 1 - 2^19 bits, over registered products; also mulmod.rem /
// sqrmod.rem (the product, then its remainder by the registered division).
void append_barrett_variants(std::vector<Variant>& out);
void append_wbarrett_variants(std::vector<Variant>& out);  // fused warp Barrett, shared modulus, 1-8 Kbit (wbarrett_instances.cu)

}  // namespace bigtune::kernels::variants
