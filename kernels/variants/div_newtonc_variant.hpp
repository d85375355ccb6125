// The product table of divmod.newtonc (div_newtonc_instances.cu), declared for
// the registry and its CPU test (every entry must be a valid variant at the
// sizes it is used for).
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

struct NewtoncProduct {
  const char* name;  // a registered full product (op mul)
  uint32_t ipb;      // its instances per block
};
// The product divmod.newtonc runs for p-limb (64p-bit) operands.
NewtoncProduct newtonc_product(uint32_t p);
// The product of the ".pp" variants: kernels::preferred_plan's full product
// for a batch of `count` (the table above where it names none).
NewtoncProduct newtonc_product_pp(uint32_t p, uint64_t count);
void append_div_newtonc_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
