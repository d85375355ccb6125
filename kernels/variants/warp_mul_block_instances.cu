// Explicit instances of the warp block-rotate product
// (kernels/warp/mul_block_rotate.cuh: the sum-rotate product of seed 002 §3
// Alg. 3 shifted one lane per block of Q steps, each block a local Q x Q
// product on even/odd IMAD.WIDE accumulators). Same kernel and geometry as
// the sum-rotate variants (warp_mul_instances.cu), named
// "<op>.blockrot.u32.q<Q>.l<L>", param = L, limit L*Q*32 bits. The set covers
// the sum-rotate winners of bench/results/2026-11-22-h100-warp.md (Q = 2..16
// on 4 lanes up to 2 Kbit, Q = 8 and 16 on 8..32 lanes up to 16 Kbit), and
// q16.l2 (smallmul): 1 Kbit on Q = 16 blocks, 16 instances per warp.
#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_kernels.cuh"
#include "kernels/warp/warp_shapes.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int L, int Q>
void warp_mul_block_set(std::vector<Variant>& out) {
  const std::string lanes = "l" + std::to_string(L);
  const void* mul = reinterpret_cast<const void*>(&warp_mul_kernel<L, Q, false, warp::WarpMulBlockRotate>);
  const void* sqr = reinterpret_cast<const void*>(&warp_mul_kernel<L, Q, true, warp::WarpMulBlockRotate>);
  out.push_back(make_variant(Op::MulLow, "warp", "blockrot", 32, Q, kWarpMaxThreads, mul, warp::kWarpShape, lanes, L));
  out.push_back(make_variant(Op::Mul, "warp", "blockrot", 32, Q, kWarpMaxThreads, mul, warp::kWarpShape, lanes, L));
  out.push_back(make_variant(Op::Sqr, "warp", "blockrot", 32, Q, kWarpMaxThreads, sqr, warp::kWarpShape, lanes, L));
}
}  // namespace

void append_warp_mul_block_variants(std::vector<Variant>& out) {
  warp_mul_block_set<2, 16>(out);
  warp_mul_block_set<4, 2>(out);
  warp_mul_block_set<4, 4>(out);
  warp_mul_block_set<4, 8>(out);
  warp_mul_block_set<4, 16>(out);
  warp_mul_block_set<8, 8>(out);
  warp_mul_block_set<8, 16>(out);
  warp_mul_block_set<16, 8>(out);
  warp_mul_block_set<16, 16>(out);
  warp_mul_block_set<32, 8>(out);
  warp_mul_block_set<32, 16>(out);
}

}  // namespace bigtune::kernels::variants
