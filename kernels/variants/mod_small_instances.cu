// Thread-level modular variants for 8, 16, 32 and 64 limbs (256 to 2048 bits):
// the operands, modulus and accumulator of a product fit the registers.
#include "kernels/variants/mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_mod_small_variants(std::vector<Variant>& out) {
  append_mod_for<8>(out);
  append_mod_for<16>(out);
  append_mod_for<32>(out);
  append_mod_for<64>(out);
}

}  // namespace bigtune::kernels::variants
