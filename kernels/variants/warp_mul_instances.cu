// Explicit instances of the warp sum-rotate product (seed 002 §3 Alg. 3):
// lanes L in {4, 8, 16, 32} x limbs per lane Q in {2, 4, 8}, plus Q = 16 on
// every L. mul_low and mul
// share one kernel (the result size decides what is stored); sqr is the same
// product with b = a. Named "<op>.sumrotate.u32.q<Q>.l<L>", param = L.
#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_kernels.cuh"
#include "kernels/warp/warp_shapes.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int L, int Q>
void warp_mul_set(std::vector<Variant>& out) {
  const std::string lanes = "l" + std::to_string(L);
  const void* mul = reinterpret_cast<const void*>(&warp_mul_kernel<L, Q, false>);
  const void* sqr = reinterpret_cast<const void*>(&warp_mul_kernel<L, Q, true>);
  out.push_back(make_variant(Op::MulLow, "warp", "sumrotate", 32, Q, kWarpMaxThreads, mul, warp::kWarpShape, lanes, L));
  out.push_back(make_variant(Op::Mul, "warp", "sumrotate", 32, Q, kWarpMaxThreads, mul, warp::kWarpShape, lanes, L));
  out.push_back(make_variant(Op::Sqr, "warp", "sumrotate", 32, Q, kWarpMaxThreads, sqr, warp::kWarpShape, lanes, L));
}
template <int L>
void warp_mul_all_q(std::vector<Variant>& out) {
  warp_mul_set<L, 2>(out);
  warp_mul_set<L, 4>(out);
  warp_mul_set<L, 8>(out);
}
}  // namespace

void append_warp_mul_variants(std::vector<Variant>& out) {
  warp_mul_all_q<4>(out);
  warp_mul_all_q<8>(out);
  warp_mul_all_q<16>(out);
  warp_mul_all_q<32>(out);
  // Q = 16: fewer lanes (shuffles) per limb (at 8 Kbit q16.l16 beat q8.l32 on
  // the H100, bench/results/2026-11-22-h100-warp.md), and 16 Kbit on 32 lanes.
  warp_mul_set<4, 16>(out);
  warp_mul_set<8, 16>(out);
  warp_mul_set<16, 16>(out);
  warp_mul_set<32, 16>(out);
}

}  // namespace bigtune::kernels::variants
