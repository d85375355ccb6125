// Explicit instances of the warp Karatsuba (kernels/variants/warp_kara.cuh:
// one Karatsuba level fused around three block-rotate half products,
// Q = 16). Named "<op>.wkara.u32.q16.l<L>.k1" (k1: one level), param = L,
// limit 2 L Q 32 bits: l4 4096, l8 8192, l16 16384 bits; mul and sqr.
#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_kara.cuh"
#include "kernels/warp/warp_kara_shapes.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int L>
void warp_kara_set(std::vector<Variant>& out) {
  constexpr int Q = 16;
  const std::string extra = "l" + std::to_string(L) + ".k1";
  out.push_back(make_variant(Op::Mul, "warp", "wkara", 32, Q, kWarpKaraMaxThreads,
                             reinterpret_cast<const void*>(&warp_kara_kernel<L, Q, false>), warp::kWarpKaraShape,
                             extra, L));
  out.push_back(make_variant(Op::Sqr, "warp", "wkara", 32, Q, kWarpKaraMaxThreads,
                             reinterpret_cast<const void*>(&warp_kara_kernel<L, Q, true>), warp::kWarpKaraShape, extra,
                             L));
}
}  // namespace

void append_warp_kara_variants(std::vector<Variant>& out) {
  warp_kara_set<4>(out);
  warp_kara_set<8>(out);
  warp_kara_set<16>(out);
}

}  // namespace bigtune::kernels::variants
