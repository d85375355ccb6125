// powm on the Montgomery squaring (kernels/warp/montgomery_sqr.cuh, task
// powmsqr): the global-table powm of warp_mod_global_instances.cu
// (powm_warp_global_kernel) with WarpMontgomerySqr, whose squarings are
// formed half-size and then reduced (SOS) while the window multiplies, table
// and conversions stay the block product. Same launch, shape rules, scratch
// and even-modulus fallback as "bgfixed". Names
// "powm.bgsqr.u32.q8.l<L>.w<w>", w = 5, 6 (the window is a launch argument:
// one kernel per shape; w = 4 lost to 5 and 6 on bgfixed at every size,
// bench/results/2026-11-22-h100-modfast.md). Measured (H100, w6 against
// bgfixed w6, bench/results/2026-11-22-h100-powmsqr.md): 0.99x at 1024 bits,
// 1.04x / 1.07x / 1.08x at 2048 / 4096 / 8192: the default at S >= 15/16 L
// blocks of L >= 8 lanes (kernels/preferred_plans.cpp).
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

namespace {
template <int L, int Q>
void append_sqr_powm_for(std::vector<Variant>& out) {
  const ShapeRules& s = warp::kWarpModGlobalTableShape;
  const void* k = reinterpret_cast<const void*>(&powm_warp_global_kernel<L, Q, warp::WarpMontgomerySqr<L, Q>>);
  for (uint32_t w : {5u, 6u})
    out.push_back(make_variant(Op::PowM, "warp", "bgsqr", 32, Q, kWarpModMaxThreads, k, s,
                               "l" + std::to_string(L) + ".w" + std::to_string(w), warp::warp_mod_param(L, w)));
}
}  // namespace

void append_warp_mod_sqr_variants(std::vector<Variant>& out) {
  append_sqr_powm_for<4, 8>(out);
  append_sqr_powm_for<8, 8>(out);
  append_sqr_powm_for<16, 8>(out);
  append_sqr_powm_for<32, 8>(out);
  // Q = 16 column blocks on half the lanes at 4 and 8 Kbit (172-175
  // registers, no spills; 8 warps per SM against 16, but each lane's 16 x 16
  // block products give four times the independent multiplies per step, and
  // half the shuffles per limb): 1.07x / 1.03x the q8 form at full size
  // (bench/results/2026-11-22-h100-session6.md, run 4). At 2 Kbit (l4) it ties
  // q8.l8 and is not registered.
  append_sqr_powm_for<8, 16>(out);
  append_sqr_powm_for<16, 16>(out);
}

}  // namespace bigtune::kernels::variants
