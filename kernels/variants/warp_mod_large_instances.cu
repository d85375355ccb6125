// Warp-level modular variants for 128 and 256 limbs per instance (4096 and
// 8192 bits): (L, Q) = (16, 8), (8, 16), (32, 8), (16, 16). Window 4 only
// (warp_mod_small_instances.cu says why).
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_warp_mod_large_variants(std::vector<Variant>& out) {
  append_warp_mod_for<16, 8>(out, {4});
  append_warp_mod_for<8, 16>(out, {4});
  append_warp_mod_for<32, 8>(out, {4});
  append_warp_mod_for<16, 16>(out, {4});
}

}  // namespace bigtune::kernels::variants
