// powm on two-lane segments of Q = 16 limbs at 1 Kbit (issue 9, task
// powm1k): the global-table powm of warp_mod_global_instances.cu
// (powm_warp_global_kernel) with L = 2, 16 instances per warp instead of the
// 8 of q8.l4, as the session-6 product mul.blockrot.u32.q16.l2 (1.6x fewer
// SASS instructions per instance than q8.l4: half the shuffles and carry
// resolutions per limb product). Same launch, shape rules, scratch and
// even-modulus fallback (powm.fixed.u32.q32.w4) as "bgfixed". Names
// "powm.bgsqr.u32.q16.l2.w<w>", w = 5, 6 (a launch argument: one kernel):
// the squarings on the two-lane squaring and the products on its mul
// (kernels/warp/montgomery_sqr2.cuh: cross product split by halves, quotient
// digits broadcast from lane 0; 162 registers, 12 warps per SM at 64
// instances per block). H100 (bench/results/2026-11-23-h100-powm1k.md):
// 1.907e6 powm/s at 1024 bits, 1.077x bgfixed.q8.l4.w5; the default from 769
// bits (kernels/preferred_plans.cpp). Bound: bench/notes/powm1k-bound.md.
//
// Measured and dropped: "bgfixed.u32.q16.l2" (every product, squarings too,
// on the block Montgomery product at L = 2, 172 registers): 1.734e6-1.763e6,
// 0.98x bgfixed.q8.l4 and 0.91x this kernel.
#include "kernels/variants/warp_mod_l2.hpp"
#include "kernels/variants/warp_mod_variants.cuh"
#include "kernels/warp/montgomery_sqr2.cuh"

namespace bigtune::kernels::variants {

void append_warp_mod_l2_variants(std::vector<Variant>& out) {
  const ShapeRules& s = warp::kWarpModGlobalTableShape;
  const void* sqr = reinterpret_cast<const void*>(&powm_warp_global_kernel<2, 16, warp::WarpMontgomerySqr2<16>>);
  for (uint32_t w : {5u, 6u})
    out.push_back(make_variant(Op::PowM, "warp", "bgsqr", 32, 16, kWarpModMaxThreads, sqr, s,
                               "l2.w" + std::to_string(w), warp::warp_mod_param(2, w)));
}

}  // namespace bigtune::kernels::variants
