// Explicit instances of the warp low-half product by halves
// (kernels/variants/warp_kara_low.cuh: P0 = a0 b0 full plus the low halves of
// a0 b1 and a1 b0 on the block-rotate product, Q = 16). Named
// "mul_low.wlow.u32.q16.l<L>", param = L, limit 2 L Q 32 bits: l4 4096,
// l8 8192 bits.
#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_kara_low.cuh"
#include "kernels/warp/warp_kara_low_shapes.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int L>
void warp_kara_low_set(std::vector<Variant>& out) {
  constexpr int Q = 16;
  out.push_back(make_variant(Op::MulLow, "warp", "wlow", 32, Q, kWarpKaraMaxThreads,
                             reinterpret_cast<const void*>(&warp_kara_low_kernel<L, Q>), warp::kWarpKaraLowShape,
                             "l" + std::to_string(L), L));
}
}  // namespace

void append_warp_kara_low_variants(std::vector<Variant>& out) {
  warp_kara_low_set<4>(out);
  warp_kara_low_set<8>(out);
}

}  // namespace bigtune::kernels::variants
