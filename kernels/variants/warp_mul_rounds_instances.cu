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
// MaxThreads < 512: also the register cap of __launch_bounds__(MaxThreads,
// MinBlocks), named ".t<MaxThreads>" (t128: 5 blocks of 128 threads per SM,
// Q = 16 at 93 registers with a few spills outside the products' inner loop
// and 12 local loads per block of Q steps, against 128 registers uncapped).
template <int L, int Q, int MaxThreads = int(kWarpRoundsMaxThreads), int MinBlocks = 1>
void warp_mul_rounds_set(std::vector<Variant>& out) {
  constexpr int R = int(warp::kWarpRounds);
  std::string extra = "l" + std::to_string(L) + ".r" + std::to_string(R);
  if (MaxThreads != int(kWarpRoundsMaxThreads)) extra += ".t" + std::to_string(MaxThreads);
  const void* mul = reinterpret_cast<const void*>(&warp_mul_rounds_kernel<L, Q, R, MaxThreads, MinBlocks>);
  out.push_back(make_variant(Op::MulLow, "warp", "blockrot", 32, Q, MaxThreads, mul, warp::kWarpRoundsShape, extra, L));
  out.push_back(make_variant(Op::Mul, "warp", "blockrot", 32, Q, MaxThreads, mul, warp::kWarpRoundsShape, extra, L));
}
}  // namespace

void append_warp_mul_rounds_variants(std::vector<Variant>& out) {
  warp_mul_rounds_set<4, 8>(out);
  warp_mul_rounds_set<8, 8>(out);  // 2 Kbit at 64 registers (q16.l4: 128)
  warp_mul_rounds_set<4, 16>(out);
  warp_mul_rounds_set<8, 16>(out);
  warp_mul_rounds_set<16, 16>(out);
  warp_mul_rounds_set<32, 16>(out);
  // Occupancy candidates for 4 - 16 Kbit (16 -> 20 warps per SM).
  warp_mul_rounds_set<8, 16, 128, 5>(out);
  warp_mul_rounds_set<16, 16, 128, 5>(out);
  warp_mul_rounds_set<32, 16, 128, 5>(out);
}

}  // namespace bigtune::kernels::variants
