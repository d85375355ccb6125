// powm.bgsqr2: powm.bgsqr (warp_mod_sqr_instances.cu) with the squaring's
// column products split into two independent accumulator chains
// (WarpMontgomerySqr<L, Q, true>, kernels/warp/montgomery_sqr.cuh), for the
// latency the ncu counters show (bench/results/2026-11-22-h100-powmsqr.md).
// Names "powm.bgsqr2.u32.q8.l<L>.w<w>", w = 5, 6.
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

namespace {
template <int L, int Q>
void append_sqr2_powm_for(std::vector<Variant>& out) {
  const ShapeRules& s = warp::kWarpModGlobalTableShape;
  const void* k =
      reinterpret_cast<const void*>(&powm_warp_global_kernel<L, Q, warp::WarpMontgomerySqr<L, Q, true>>);
  for (uint32_t w : {5u, 6u})
    out.push_back(make_variant(Op::PowM, "warp", "bgsqr2", 32, Q, kWarpModMaxThreads, k, s,
                               "l" + std::to_string(L) + ".w" + std::to_string(w), warp::warp_mod_param(L, w)));
}
}  // namespace

void append_warp_mod_sqr2_variants(std::vector<Variant>& out) {
  append_sqr2_powm_for<4, 8>(out);
  append_sqr2_powm_for<8, 8>(out);
  append_sqr2_powm_for<16, 8>(out);
  append_sqr2_powm_for<32, 8>(out);
}

}  // namespace bigtune::kernels::variants
