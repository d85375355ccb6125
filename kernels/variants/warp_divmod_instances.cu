// Explicit instances of the warp divmod (Knuth D on warp primitives):
// lanes L in {4, 8, 16, 32} x limbs per lane Q in {4, 8}, plus Q = 16 on 16
// and 32 lanes (8 and 16 Kbit dividends). Named "divmod.knuth.u32.q<Q>.l<L>",
// param = L; the limit is the dividend's L*Q*32 bits (the divisor is never
// longer, runtime/validate.cpp).
#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_divmod_kernels.cuh"
#include "kernels/warp/warp_shapes.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int L, int Q>
void warp_divmod_one(std::vector<Variant>& out) {
  out.push_back(make_variant(Op::DivMod, "warp", "knuth", 32, Q, kWarpMaxThreads,
                             reinterpret_cast<const void*>(&warp_divmod_kernel<L, Q>), warp::kWarpShape,
                             "l" + std::to_string(L), L));
}
}  // namespace

void append_warp_divmod_variants(std::vector<Variant>& out) {
  warp_divmod_one<4, 4>(out);
  warp_divmod_one<4, 8>(out);
  warp_divmod_one<8, 4>(out);
  warp_divmod_one<8, 8>(out);
  warp_divmod_one<16, 4>(out);
  warp_divmod_one<16, 8>(out);
  warp_divmod_one<16, 16>(out);
  warp_divmod_one<32, 4>(out);
  warp_divmod_one<32, 8>(out);
  warp_divmod_one<32, 16>(out);
}

}  // namespace bigtune::kernels::variants
