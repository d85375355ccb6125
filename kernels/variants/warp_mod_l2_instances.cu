// powm on two-lane segments of Q = 16 limbs at 1 Kbit (issue 9, task
// powm1k): the global-table powm of warp_mod_global_instances.cu
// (powm_warp_global_kernel) with L = 2, 16 instances per warp instead of the
// 8 of q8.l4, as the session-6 product mul.blockrot.u32.q16.l2 (1.6x fewer
// SASS instructions per instance than q8.l4: half the shuffles and carry
// resolutions per limb product). Same launch, shape rules, scratch and
// even-modulus fallback (powm.fixed.u32.q32.w4) as "bgfixed".
//   powm.bgfixed.u32.q16.l2.w<w>: every product the block Montgomery
//     product (montgomery_block.cuh at L = 2);
//   powm.bgsqr.u32.q16.l2.w<w>: the squarings on the two-lane squaring
//     (kernels/warp/montgomery_sqr2.cuh: the cross product split by halves).
// w = 5, 6 (a launch argument: one kernel per product). Bound and measured:
// bench/notes/powm1k-bound.md.
#include "kernels/variants/warp_mod_l2.hpp"
#include "kernels/variants/warp_mod_variants.cuh"
#include "kernels/warp/montgomery_sqr2.cuh"

namespace bigtune::kernels::variants {

void append_warp_mod_l2_variants(std::vector<Variant>& out) {
  const ShapeRules& s = warp::kWarpModGlobalTableShape;
  const void* fixed = reinterpret_cast<const void*>(&powm_warp_global_kernel<2, 16, warp::WarpMontgomeryBlock<2, 16>>);
  const void* sqr = reinterpret_cast<const void*>(&powm_warp_global_kernel<2, 16, warp::WarpMontgomerySqr2<16>>);
  for (uint32_t w : {5u, 6u}) {
    const std::string suffix = "l2.w" + std::to_string(w);
    out.push_back(make_variant(Op::PowM, "warp", "bgfixed", 32, 16, kWarpModMaxThreads, fixed, s, suffix,
                               warp::warp_mod_param(2, w)));
    out.push_back(make_variant(Op::PowM, "warp", "bgsqr", 32, 16, kWarpModMaxThreads, sqr, s, suffix,
                               warp::warp_mod_param(2, w)));
  }
}

}  // namespace bigtune::kernels::variants
