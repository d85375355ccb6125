// Warp-level modular variants for 32 and 64 limbs per instance (1024 and
// 2048 bits): (L, Q) = (4, 8), (8, 4), (8, 8), (4, 16).
// powm: window 4 only. w = 5 and 6 (same kernel, larger table) lost at every
// size on the H100 (2026-11-22, bench/results/2026-11-22-h100-modwarp.md:
// 2048 bits 1.56e5 vs 1.85e5, 4096 bits 2.01e4 vs 2.36e4, 8192 bits 2527 and
// 1297 vs 2952): the table caps the instances resident per SM. A window is
// one entry here, so the tuner can get them back on a GPU with more shared
// memory.
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_warp_mod_small_variants(std::vector<Variant>& out) {
  append_warp_mod_for<4, 8>(out, {4});
  append_warp_mod_for<8, 4>(out, {4});
  append_warp_mod_for<8, 8>(out, {4});
  append_warp_mod_for<4, 16>(out, {4});
}

}  // namespace bigtune::kernels::variants
