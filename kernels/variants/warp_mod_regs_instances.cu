// powm at 16 Kbit on the Montgomery squaring on a full warp (task powmregs,
// issue 9): the global-table powm of warp_mod_sqr_instances.cu (bgsqr,
// powm_warp_global_kernel with warp::WarpMontgomerySqr) at Q = 16 limbs a
// lane and L = 32 lanes, one instance a warp, 16384 bits. Name
// "powm.bgsqr.u32.q16.l32.w6" (w = 6, the best window from 2 Kbit on).
// Same launch, shape rules and scratch as the other bgsqr shapes; a call
// with an even modulus runs on the composed Barrett powm instead
// (warp_mod_launch.cu: a 512-limb thread kernel would take minutes an
// instance and reserve 17 GB of stack).
//
// Measured (H100, bench/results/2026-11-23-h100-powmregs.md, run 2, one
// process): 533.2 powm/s against 368.3 for the composed Barrett default
// powm.barrett.u64.q1.w6 (1.45x), 37.6x GMP-16: the default at 14849-16384
// bits (kernels/preferred_plans.cpp). 175 registers, no spills, 8 warps per
// SM (256-thread blocks), like q16.l8 / q16.l16.
//
// Measured and dropped (runs 1-2; bench/notes/powmregs-bound.md): the bgsqr
// kernels under __launch_bounds__(128, B) register caps for more resident
// warps: Q = 16 at <= 168 registers, 12 warps per SM (from 8): 0.937x at 4
// Kbit (q16.l8), 0.949x at 8 Kbit (q16.l16), 0.982x at 16 Kbit (q16.l32),
// 1.003x q8.l8 at 2 Kbit (q16.l4, within the run-to-run spread); Q = 8 at
// <= 96 registers, 20 warps per SM (from 16): 0.989x / 0.989x / 0.995x at 2 /
// 4 / 8 Kbit; at <= 80 registers (24 warps, spills in the step loops) 0.987x
// at 2 Kbit. More warps do not help: the kernels are not limited by the
// latency that more resident warps would hide.
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_regs.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_warp_mod_regs_variants(std::vector<Variant>& out) {
  const void* k = reinterpret_cast<const void*>(&powm_warp_global_kernel<32, 16, warp::WarpMontgomerySqr<32, 16>>);
  out.push_back(make_variant(Op::PowM, "warp", "bgsqr", 32, 16, kWarpModMaxThreads, k,
                             warp::kWarpModGlobalTableShape, "l32.w6", warp::warp_mod_param(32, 6)));
}

}  // namespace bigtune::kernels::variants
