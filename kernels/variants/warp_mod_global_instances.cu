// powm variants with the window table in global memory (task modfast,
// powm_warp_global_kernel in warp_mod_kernels.cuh): the shared-memory table
// (2^w N 4 bytes per instance, 132 KB for the 64 instances of a 256-thread
// block at 1024 bits) allowed one block of 8 warps per SM, too few to cover
// the latency of each Montgomery step's shuffles and carry chains
// (bench/results/2026-11-22-h100-modwarp.md: 58-66 % of the IMAD bound).
// In global memory (L2-resident, one entry read per window, ~1/20 of the
// multiply's time in bytes) the registers alone decide the residency.
// Names "powm.gfixed.u32.q8.l<L>.w<w>" (digit-serial Montgomery) and
// "powm.bgfixed.u32.q8.l<L>.w<w>" (block Montgomery), w = 4, 5 and 6 (the
// table no longer costs residency; the window is a launch argument, one
// kernel), and ".w5.b3" (3 blocks per SM, below).
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

namespace {
// The same kernel held to 3 resident 256-thread blocks per SM (at most 85
// registers): the block-Montgomery kernel takes ~101 registers, which allow
// only 2 blocks (16 warps); whether 24 warps hide more latency than the
// tighter registers cost is measured (variant suffix ".b3").
template <int L, int Q, class Mont>
__global__ void __launch_bounds__(kWarpModMaxThreads, 3) powm_warp_global_b3_kernel(KernelArgs args) {
  powm_warp_body<L, Q, Mont, true>(args, nullptr);
}

template <int L, int Q, class Mont, bool kB3>
void append_global_for(std::vector<Variant>& out, const char* algorithm) {
  const ShapeRules& s = warp::kWarpModGlobalTableShape;
  const void* k = reinterpret_cast<const void*>(&powm_warp_global_kernel<L, Q, Mont>);
  for (uint32_t w : {4u, 5u, 6u})
    out.push_back(make_variant(Op::PowM, "warp", algorithm, 32, Q, kWarpModMaxThreads, k, s,
                               "l" + std::to_string(L) + ".w" + std::to_string(w), warp::warp_mod_param(L, w)));
  if constexpr (kB3) {
    const void* k3 = reinterpret_cast<const void*>(&powm_warp_global_b3_kernel<L, Q, Mont>);
    out.push_back(make_variant(Op::PowM, "warp", algorithm, 32, Q, kWarpModMaxThreads, k3, s,
                               "l" + std::to_string(L) + ".w5.b3", warp::warp_mod_param(L, 5)));
  }
}
template <int L, int Q>
void append_both(std::vector<Variant>& out) {
  append_global_for<L, Q, warp::WarpMontgomery<L, Q>, false>(out, "gfixed");  // 70 registers: 3 blocks already
  append_global_for<L, Q, warp::WarpMontgomeryBlock<L, Q>, true>(out, "bgfixed");
}
}  // namespace

void append_warp_mod_global_variants(std::vector<Variant>& out) {
  append_both<4, 8>(out);
  append_both<8, 8>(out);
  append_both<16, 8>(out);
  append_both<32, 8>(out);
}

}  // namespace bigtune::kernels::variants
