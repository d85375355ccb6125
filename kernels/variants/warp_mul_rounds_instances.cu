// Explicit instances of the warp block-rotate product in rounds
// (kernels/variants/warp_mul_rounds.cuh: R = 4 rounds of ipb instances per
// block, the next round's operands prefetched into L1). Named
// "<op>.blockrot.u32.q<Q>.l<L>.r4", param = L, limit L*Q*32 bits, mul_low and
// mul only. Shapes: the block-rotate defaults of 1 - 16 Kbit
// (runtime/default_plan.cpp: q8.l4, q16.l4, q16.l8, q16.l16, q16.l32) and
// q8.l8, the 2-Kbit shape with half the registers of q16.l4.
#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_mul_rounds.cuh"
#include "kernels/warp/warp_rounds_shapes.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int L, int Q>
void warp_mul_rounds_set(std::vector<Variant>& out) {
  constexpr int R = int(warp::kWarpRounds);
  const std::string extra = "l" + std::to_string(L) + ".r" + std::to_string(R);
  const void* mul = reinterpret_cast<const void*>(&warp_mul_rounds_kernel<L, Q, R>);
  out.push_back(make_variant(Op::MulLow, "warp", "blockrot", 32, Q, kWarpRoundsMaxThreads, mul,
                             warp::kWarpRoundsShape, extra, L));
  out.push_back(make_variant(Op::Mul, "warp", "blockrot", 32, Q, kWarpRoundsMaxThreads, mul, warp::kWarpRoundsShape,
                             extra, L));
}
}  // namespace

void append_warp_mul_rounds_variants(std::vector<Variant>& out) {
  warp_mul_rounds_set<4, 8>(out);
  warp_mul_rounds_set<2, 16>(out);  // 1 Kbit on Q = 16 blocks (smallmul)
  warp_mul_rounds_set<8, 8>(out);  // 2 Kbit at 64 registers (q16.l4: 128)
  warp_mul_rounds_set<4, 16>(out);
  warp_mul_rounds_set<8, 16>(out);
  warp_mul_rounds_set<16, 16>(out);
  warp_mul_rounds_set<32, 16>(out);
}

}  // namespace bigtune::kernels::variants
