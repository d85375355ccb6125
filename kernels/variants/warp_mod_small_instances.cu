// Warp-level modular variants for 32 and 64 limbs per instance (1024 and
// 2048 bits): (L, Q) = (4, 8), (8, 4), (8, 8), (4, 16).
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_warp_mod_small_variants(std::vector<Variant>& out) {
  append_warp_mod_for<4, 8>(out, {4, 5});
  append_warp_mod_for<8, 4>(out, {4, 5});
  append_warp_mod_for<8, 8>(out, {4, 5});
  append_warp_mod_for<4, 16>(out, {4, 5});
}

}  // namespace bigtune::kernels::variants
