// Thread-level modular variants for 128 and 256 limbs (4096 and 8192 bits):
// the arrays outgrow the registers and live in local memory (L1).
#include "kernels/variants/mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_mod_large_variants(std::vector<Variant>& out) {
  append_mod_for<128>(out);
  append_mod_for<256>(out);
}

}  // namespace bigtune::kernels::variants
