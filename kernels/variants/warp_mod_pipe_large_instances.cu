// The 8 and 16 Kbit shapes of warp_mod_pipe_instances.cu (task powmpipe), in
// a file of their own so that the two compile in parallel.
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_pipe.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

namespace {
template <int L>
void append_large(std::vector<Variant>& out) {
  const void* k =
      reinterpret_cast<const void*>(&powm_warp_global_kernel<L, 16, warp::WarpMontgomerySqr<L, 16, 4 | 8 | 16 | 256>>);
  out.push_back(make_variant(Op::PowM, "warp", "bgsqr", 32, 16, kWarpModMaxThreads, k, warp::kWarpModGlobalTableShape,
                             "l" + std::to_string(L) + ".w6.pipe", warp::warp_mod_param(L, 6)));
}
}  // namespace

void append_warp_mod_pipe_large_variants(std::vector<Variant>& out) {
  append_large<16>(out);
  append_large<32>(out);
}

}  // namespace bigtune::kernels::variants
