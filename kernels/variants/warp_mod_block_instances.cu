// Warp-level modular variants on the block Montgomery product
// (kernels/warp/montgomery_block.cuh, task modfast): the same kernel bodies,
// launch, shape rules and even-modulus fallback as the digit-serial family
// (warp_mod_kernels.cuh), with Q = 8 limbs per lane on 4, 8, 16, 32 lanes
// (1024 - 8192 bits): the shapes that won for the digit-serial product
// (bench/results/2026-11-22-h100-modwarp.md). Named
// "<op>.bmont.u32.q8.l<L>" and "powm.bfixed.u32.q8.l<L>.w<w>", w = 4 and 3
// (5 and 6 lost there: the table caps the resident instances; 3 halves the
// table for 1/15 more products).
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

namespace {
template <int L, int Q>
void append_block_for(std::vector<Variant>& out) {
  using Mont = warp::WarpMontgomeryBlock<L, Q>;
  const ShapeRules& s = warp::kWarpModShape;
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  const std::string lanes = "l" + std::to_string(L);
  const uint32_t t = kWarpModMaxThreads;
  out.push_back(make_variant(Op::MulMod, "warp", "bmont", 32, Q, t, k(&mulmod_warp_kernel<L, Q, Mont>), s, lanes,
                             warp::warp_mod_param(L, 0)));
  out.push_back(make_variant(Op::SqrMod, "warp", "bmont", 32, Q, t, k(&mulmod_warp_kernel<L, Q, Mont>), s, lanes,
                             warp::warp_mod_param(L, 0)));
  for (uint32_t w : {4u, 3u})  // one kernel: the window is a launch argument
    out.push_back(make_variant(Op::PowM, "warp", "bfixed", 32, Q, t, k(&powm_warp_kernel<L, Q, Mont>), s,
                               lanes + ".w" + std::to_string(w), warp::warp_mod_param(L, w)));
}
}  // namespace

void append_warp_mod_block_variants(std::vector<Variant>& out) {
  append_block_for<4, 8>(out);
  append_block_for<8, 8>(out);
  append_block_for<16, 8>(out);
  append_block_for<32, 8>(out);
}

}  // namespace bigtune::kernels::variants
