// powm with the window table in global memory on the block Montgomery
// product (task modfast, powm_warp_global_kernel in warp_mod_kernels.cuh,
// kernels/warp/montgomery_block.cuh). The shared-memory table (2^w N 4 bytes
// per instance, 132 KB for the 64 instances of a 256-thread block at 1024
// bits) allowed one block of 8 warps per SM, too few to cover the latency of
// each Montgomery step's shuffles and carry chains
// (bench/results/2026-11-22-h100-modwarp.md: 58-66 % of the IMAD bound). In
// global memory (L2-resident, one entry read per window, loaded before the
// window's squarings) the registers alone decide the residency; the launch
// runs large batches in chunks that reuse the tables (warp_mod_layout.hpp).
// Names "powm.bgfixed.u32.q8.l<L>.w<w>", w = 4, 5, 6 (the window is a launch
// argument: one kernel per shape).
//
// Measured and dropped (H100, bench/results/2026-11-22-h100-modfast.md): the
// same kernel on the digit-serial product ("gfixed", 1.07-1.14x the session-3
// powm, 0.89-0.90x this one), this kernel held to 3 blocks per SM by
// __launch_bounds__ (80 registers, 64 bytes of spills: 0.98-1.00x), and the
// block product with the shared-memory table ("bfixed", 0.85-0.91x).
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

namespace {
template <int L, int Q>
void append_global_for(std::vector<Variant>& out) {
  const ShapeRules& s = warp::kWarpModGlobalTableShape;
  const void* k = reinterpret_cast<const void*>(&powm_warp_global_kernel<L, Q, warp::WarpMontgomeryBlock<L, Q>>);
  for (uint32_t w : {4u, 5u, 6u})
    out.push_back(make_variant(Op::PowM, "warp", "bgfixed", 32, Q, kWarpModMaxThreads, k, s,
                               "l" + std::to_string(L) + ".w" + std::to_string(w), warp::warp_mod_param(L, w)));
}
}  // namespace

void append_warp_mod_global_variants(std::vector<Variant>& out) {
  append_global_for<4, 8>(out);
  append_global_for<8, 8>(out);
  append_global_for<16, 8>(out);
  append_global_for<32, 8>(out);
}

}  // namespace bigtune::kernels::variants
