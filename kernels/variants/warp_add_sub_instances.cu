// Explicit instances of the warp-family add and sub (ballot carry
// resolution): lanes L in {4, 8, 16, 32} x limbs per lane Q in {2, 4, 8}.
// Named "<op>.ballot.u32.q<Q>.l<L>", param = L.
#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_kernels.cuh"
#include "kernels/warp/warp_shapes.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int L, int Q>
void warp_add_sub_pair(std::vector<Variant>& out) {
  const std::string lanes = "l" + std::to_string(L);
  out.push_back(make_variant(Op::Add, "warp", "ballot", 32, Q, kWarpMaxThreads,
                             reinterpret_cast<const void*>(&warp_add_sub_kernel<L, Q, false>), warp::kWarpShape,
                             lanes, L));
  out.push_back(make_variant(Op::Sub, "warp", "ballot", 32, Q, kWarpMaxThreads,
                             reinterpret_cast<const void*>(&warp_add_sub_kernel<L, Q, true>), warp::kWarpShape,
                             lanes, L));
}
template <int L>
void warp_add_sub_all_q(std::vector<Variant>& out) {
  warp_add_sub_pair<L, 2>(out);
  warp_add_sub_pair<L, 4>(out);
  warp_add_sub_pair<L, 8>(out);
}
}  // namespace

void append_warp_add_sub_variants(std::vector<Variant>& out) {
  warp_add_sub_all_q<4>(out);
  warp_add_sub_all_q<8>(out);
  warp_add_sub_all_q<16>(out);
  warp_add_sub_all_q<32>(out);
}

}  // namespace bigtune::kernels::variants
