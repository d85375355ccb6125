// Warp-level mulmod and sqrmod on the block Montgomery product
// (kernels/warp/montgomery_block.cuh, task modfast): the same kernel bodies,
// launch, shape rules and even-modulus fallback as the digit-serial family
// (warp_mod_kernels.cuh), with Q = 8 limbs per lane on 4, 8, 16, 32 lanes
// (1024 - 8192 bits): the shapes that won for the digit-serial product
// (bench/results/2026-11-22-h100-modwarp.md). Named "<op>.bmont.u32.q8.l<L>";
// 1.07-1.10x the digit-serial mulmod on the H100. Its powm is in
// warp_mod_global_instances.cu (table in global memory); with the shared-
// memory table ("powm.bfixed", w = 3 and 4) it ran 1.04-1.11x the session-3
// powm but lost to the global table everywhere, and was dropped
// (bench/results/2026-11-22-h100-modfast.md).
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
}
}  // namespace

void append_warp_mod_block_variants(std::vector<Variant>& out) {
  append_block_for<4, 8>(out);
  append_block_for<8, 8>(out);
  append_block_for<16, 8>(out);
  append_block_for<32, 8>(out);
}

}  // namespace bigtune::kernels::variants
