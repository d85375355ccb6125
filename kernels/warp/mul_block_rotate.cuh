// Warp "block-rotate" multiplication: the sum-rotate product of seed 002 §3
// (Alg. 3, kernels/warp/mul_sum_rotate.cuh) with the window shifted by a
// whole lane (Q digits) per block of Q steps instead of one digit per step,
// so that each lane's work between two shifts is a local Q x Q product,
// computed by columns (Comba, seed 002 §3.2.2) in one three-limb accumulator
// where every 32x32-bit product is one IMAD.WIDE.U32 plus at most one
// IADD3.X. The one-digit step of mul_sum_rotate.cuh carries each high half
// one register above its low half, which ptxas (sm_90, CUDA 13.0) splits
// into IMAD + IMAD.HI.U32 + ~2 IADD3.X: 408 SASS instructions per Q = 8
// block against 274 here (bench/notes/warp-multiplication.md).
//
// Tried first: the rows of the lane product on even/odd accumulators
// (arith::PairRow, as kernels/thread/mul_comba.cuh's mul_rows). ptxas
// interleaved the Q row chains into a wavefront with up to 2Q carry flags
// live, more than the 7 predicate registers: it saved them with P2R and
// LOP3 (107 LOP3 + 11 P2R per Q = 8 block, 555 + 96 at Q = 16), so that
// form was dropped before any GPU run.
//
// Segment of L lanes, lane j holds a and b limbs [jQ, jQ + Q) (blocked),
// N = L*Q. Digit groups G_g = digits [gQ, gQ + Q). Before block s, lane j
// holds w_j (the partial sum of group j + s) and a pending carry c_j (0/1,
// the digit just above). Block s:
//   1. acc = w_j + c_j B^Q + a_j * B_s (B_s = b's limbs [sQ, sQ + Q), Q
//      broadcasts from lane s, B = 2^32), column by column.
//      acc < B^(2Q): w_j + c_j B^Q <= 2 B^Q - 2 (c_j = 1 only with w_j <=
//      B^Q - 2, see step 3) and a_j B_s <= (B^Q - 1)^2, so the sum is at most
//      B^(2Q) - 1.
//   2. acc's low half is group j + s; acc's high half is group j + s + 1.
//   3. the window shifts down one lane: lane j receives the low half of lane
//      j + 1 (Q shuffles; the same group j + s + 1) and adds it to its high
//      half: w_j = high + received, c_j = the carry out. The top lane receives
//      lane 0's low half instead: group s, final (no later block adds to
//      groups <= s), handed to the sink; its own w is its high half.
// After S = blocks blocks the low S*Q product limbs have left through the top
// lane and lane j holds group j + S with c_j pending above it: the state of
// mul_sum_rotate.cuh's end, resolved the same way (carry_resolve.cuh).
//
// Cost per block and lane: Q^2 IMAD.WIDE, about Q^2/2 carry adds, 2Q
// shuffles (Q broadcasts, Q shifts), a Q-digit add; mul_sum_rotate.cuh:
// 2 Q^2 IMAD halves, ~2 Q^2 carry adds, 2Q shuffles. Registers: a, b, B_s,
// w, the low half (5Q) plus the accumulator.
// Preconditions: S = blocks <= L; all 32 lanes converged; Q in {2, 4, 8, 16}.
#pragma once
#include <cstdint>

#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/mul_sum_rotate.cuh"  // detail::static_for

#include "kernels/arith/limb.cuh"

namespace bigtune::kernels::warp {

namespace detail {
// acc (lo, hi, top) += x * y: one mad.lo.cc / madc.hi.cc / addc chain
// (arith::mad_wide), which ptxas turns into IMAD.WIDE.U32 + IADD3.X; the
// carry flag lives for one instruction. Host twin for the warp emulation test
// (tests/unit/warp_emulation_test.cpp, built by the host compiler).
__device__ __forceinline__ void mac(arith::Accumulator<uint32_t>& acc, uint32_t x, uint32_t y) {
#if defined(__CUDA_ARCH__)
  arith::mad_wide(acc, x, y);
#else
  const uint64_t t = (uint64_t(acc.hi) << 32 | acc.lo) + uint64_t(x) * y;
  acc.top += t < uint64_t(x) * y;
  acc.lo = uint32_t(t);
  acc.hi = uint32_t(t >> 32);
#endif
}

// acc.lo += v, the carry into acc.hi (acc.hi is a column carry, far from
// overflowing: at most Q + 2).
__device__ __forceinline__ void add_low(arith::Accumulator<uint32_t>& acc, uint32_t v) {
  const uint64_t t = uint64_t(acc.lo) + v;
  acc.lo = uint32_t(t);
  acc.hi += uint32_t(t >> 32);
}
}  // namespace detail

template <int L, int Q>
struct WarpMulBlockRotate {
  // L = 2 (smallmul): 1 Kbit on Q = 16 blocks, 16 instances per warp (2.8
  // SASS instructions per digit product against 4.3 for q8.l4).
  static_assert(L == 2 || L == 4 || L == 8 || L == 16 || L == 32, "lanes per instance must be 2, 4, 8, 16 or 32");
  static_assert(Q == 2 || Q == 4 || Q == 8 || Q == 16, "mad_row chains exist for Q in {2, 4, 8, 16}");
  struct TempStorage {};  // shuffles and ballots only

  __device__ __forceinline__ WarpMulBlockRotate() {}
  __device__ __forceinline__ explicit WarpMulBlockRotate(TempStorage&) {}

  // Same contract as WarpMulSumRotate::run: hi = limbs [S, S + N) of a * b
  // for S = blocks * Q; sink(s, low, owner) after block s, low[k] = product
  // limb sQ + k on the lane where `owner` (the top lane). want_high = false:
  // the caller needs only the sink's limbs (hi is then not the product's).
  template <class Sink>
  __device__ __forceinline__ void run(uint32_t (&hi)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q],
                                      uint32_t blocks, Sink&& sink, bool want_high = true) const {
    const uint32_t j = threadIdx.x & uint32_t(L - 1);
    const bool top_lane = j == uint32_t(L - 1);
    const int above = int((j + 1) & uint32_t(L - 1));
    uint32_t w[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) w[k] = 0;
    uint32_t c = 0;
    uint32_t low[Q];
    for (uint32_t s = 0; s < blocks; ++s) {
      // acc = w + c B^Q + a * B_s by columns (product scanning, seed 002
      // §3.2.2), one three-limb accumulator: column k is finished before
      // column k + 1 starts, so the whole block is one dependency chain per
      // lane (latency hidden by the other warps) and no carry flag outlives
      // its product.
      uint32_t bb[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) bb[k] = __shfl_sync(0xffffffffu, b[k], int(s), L);
      arith::Accumulator<uint32_t> acc{0, 0, 0};
      uint32_t acc_low[Q], acc_high[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        detail::add_low(acc, w[k]);
#pragma unroll
        for (int i = 0; i <= k; ++i) detail::mac(acc, a[i], bb[k - i]);
        acc_low[k] = acc.lo;
        acc.lo = acc.hi, acc.hi = acc.top, acc.top = 0;
      }
      if (want_high || s + 1 < blocks) {
        detail::add_low(acc, c);
#pragma unroll
        for (int k = Q; k < 2 * Q - 1; ++k) {
#pragma unroll
          for (int i = k - Q + 1; i < Q; ++i) detail::mac(acc, a[i], bb[k - i]);
          acc_high[k - Q] = acc.lo;
          acc.lo = acc.hi, acc.hi = acc.top, acc.top = 0;
        }
        acc_high[Q - 1] = acc.lo;  // acc < B^(2Q): nothing above
      } else {
        // A low half (mul_low): after the last block only the limbs that
        // left through the sink count, so the upper Q(Q-1)/2 products of
        // the block are skipped (a uniform branch: the same on every lane).
#pragma unroll
        for (int k = 0; k < Q; ++k) acc_high[k] = 0;
      }
      // Shift by one lane: w = acc_high + the lane above's acc_low, c = the
      // carry out (0/1).
      uint64_t carry = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t recv = __shfl_sync(0xffffffffu, acc_low[k], above, L);
        low[k] = recv;
        carry += uint64_t(acc_high[k]) + (top_lane ? 0u : recv);
        w[k] = uint32_t(carry);
        carry >>= 32;
      }
      c = uint32_t(carry);
      sink(s, low, top_lane);
    }
    // Pending carries: c_j belongs to limb 0 of lane j+1 (the top lane's is
    // beyond the product and is 0).
    const uint32_t from_below = __shfl_up_sync(0xffffffffu, c, 1, L);
    const uint32_t carry = add_1<Q>(w, j == 0 ? 0u : from_below);
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(carry != 0, all_equal<Q>(w, ~0u), &out);
    add_1<Q>(w, in);
#pragma unroll
    for (int k = 0; k < Q; ++k) hi[k] = w[k];
  }
};

}  // namespace bigtune::kernels::warp
