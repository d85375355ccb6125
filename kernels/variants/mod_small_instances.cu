// Thread-level modular variants for 8, 16 and 32 limbs (256 to 1024 bits).
#include "kernels/variants/mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_mod_small_variants(std::vector<Variant>& out) {
  append_mod_for<8>(out);
  append_mod_for<16>(out);
  append_mod_for<32>(out);
}

}  // namespace bigtune::kernels::variants
