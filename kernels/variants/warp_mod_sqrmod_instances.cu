// sqrmod on the Montgomery squaring (kernels/warp/montgomery_sqr.cuh, task
// powmsqr): mulmod_warp_kernel with WarpMontgomerySqr, whose first product
// (a^2 R^-1) is the squaring and the second (x R^2 R^-1, back out of
// Montgomery form) the block product. Same launch, shape rules and
// even-modulus fallback as "sqrmod.bmont". Names "sqrmod.bsqr.u32.q8.l<L>".
// Not timed yet (`bigtune profile` gives modular ops no modulus batch; see
// bench/results/2026-11-22-h100-powmsqr.md): from powm, where sqr runs
// ~1.05-1.09x the product at L >= 8, ~1.02-1.05x sqrmod.bmont there; left
// to the tuner, not a default.
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

namespace {
template <int L, int Q>
void append_sqrmod_for(std::vector<Variant>& out) {
  const void* k = reinterpret_cast<const void*>(&mulmod_warp_kernel<L, Q, warp::WarpMontgomerySqr<L, Q>>);
  out.push_back(make_variant(Op::SqrMod, "warp", "bsqr", 32, Q, kWarpModMaxThreads, k, warp::kWarpModShape,
                             "l" + std::to_string(L), warp::warp_mod_param(L, 0)));
}
}  // namespace

void append_warp_mod_sqrmod_variants(std::vector<Variant>& out) {
  append_sqrmod_for<4, 8>(out);
  append_sqrmod_for<8, 8>(out);
  append_sqrmod_for<16, 8>(out);
  append_sqrmod_for<32, 8>(out);
}

}  // namespace bigtune::kernels::variants
