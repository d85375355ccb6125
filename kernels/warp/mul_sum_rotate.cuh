// Warp "sum-rotate" multiplication (seed 002 §3, Alg. 3): one product on a
// segment of L lanes, each lane holding Q 32-bit limbs of a and b (blocked:
// lane j holds limbs [jQ, jQ + Q)), N = L*Q limbs per operand.
//
// The segment keeps an N-limb window of the running sum (lane j: window
// limbs [jQ, jQ + Q)) plus, per lane, a small pending carry c_j that belongs
// to the limb just above its part. Step i (i = 0 .. S-1):
//   1. b_i is broadcast from its lane (one shuffle);
//   2. each lane adds a_lane * b_i into its part (addmul_1: 2Q+1 carry-chained
//      IMADs), which yields a top digit t;
//   3. the window shifts down one limb: each lane receives the lowest limb of
//      the lane above (one rotating shuffle) and puts recv + t + c into its
//      freed top slot, keeping the carries (0..2) as the new c. The top lane
//      receives limb 0 of lane 0 instead — product limb i, final, because no
//      later step adds below the window — and keeps it (the "rotate" of
//      Alg. 3), while its own top slot starts from 0.
// After S steps the low S product limbs have passed through the top lane (in
// blocks of Q, handed to a sink), and the window holds limbs [S, S + N) with
// the carries c_j still pending; one ballot resolution (carry_resolve.cuh)
// adds them. The shift costs no register moves: the window's registers are
// renamed by a rotation index that advances with the unrolled step.
//
// Differences from Alg. 3: the thesis keeps one word per thread (Q = 1), a
// whole warp per 1024-bit product, rotates the finished low digits through a
// second register (c'), and ends with a loop of left shifts repeated while
// any() reports a carry (up to w - 1 rounds). Here a lane holds Q words
// (the window shift is a register renaming), several products share a warp
// (L < 32), the low digits leave from the top lane in blocks of Q, and the
// final carries are resolved by one ballot vote (carry_resolve.cuh). S may be
// below N (operands shorter than the segment), which skips the steps whose b
// limbs are zero padding.
// Cost per step and lane: 2Q+1 IMAD, 2 shuffles, ~4 integer ops; total
// 2 N^2 IMAD per product for S = N (the schoolbook bound). In SASS (sm_90)
// each carried high half becomes IMAD.HI.U32 + IADD3.X, ~40 instructions per
// Q = 8 step: the next speed-up is pairing the products into IMAD.WIDE as
// kernels/arith/mad_row.cuh does (bench/results/2026-11-22-h100-warp.md).
// Preconditions: S = blocks * Q with blocks <= L; all 32 lanes converged.
#pragma once
#include <cstdint>
#include <utility>

#include "kernels/arith/addmul_1.cuh"
#include "kernels/warp/carry_resolve.cuh"

namespace bigtune::kernels::warp {

namespace detail {
template <class F, int... K>
__device__ __forceinline__ void static_for(F&& f, std::integer_sequence<int, K...>) {
  (f(std::integral_constant<int, K>{}), ...);
}
}  // namespace detail

template <int L, int Q>
struct WarpMulSumRotate {
  static_assert(L == 4 || L == 8 || L == 16 || L == 32, "lanes per instance must be 4, 8, 16 or 32");
  struct TempStorage {};  // shuffles and ballots only

  __device__ __forceinline__ WarpMulSumRotate() {}
  __device__ __forceinline__ explicit WarpMulSumRotate(TempStorage&) {}

  // hi = limbs [S, S + N) of a * b for S = blocks * Q. The low limbs go to
  // sink(s, low, owner) after each block s of Q steps: on the lane where
  // `owner` is true (the segment's top lane), low[k] = product limb sQ + k.
  // Every lane calls the sink (it may store from the owner only).
  template <class Sink>
  __device__ __forceinline__ void run(uint32_t (&hi)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q],
                                      uint32_t blocks, Sink&& sink, bool /*want_high*/ = true) const {
    const uint32_t j = threadIdx.x & uint32_t(L - 1);
    const bool top_lane = j == uint32_t(L - 1);
    const int above = int((j + 1) & uint32_t(L - 1));
    uint32_t r[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) r[k] = 0;
    uint32_t c = 0;
    uint32_t low[Q];
    for (uint32_t s = 0; s < blocks; ++s) {
      detail::static_for(
          [&](auto kc) {
            constexpr int k = decltype(kc)::value;  // step within the block = window rotation
            const uint32_t bi = __shfl_sync(0xffffffffu, b[k], int(s), L);
            const uint32_t t = arith::addmul_1<Q, k>(r, a, bi);
            // Logical limb 0 is r[k]; after the shift r[k] is logical limb Q-1.
            const uint32_t recv = __shfl_sync(0xffffffffu, r[k], above, L);
            low[k] = recv;
            const uint64_t v = uint64_t(top_lane ? 0u : recv) + t + c;
            r[k] = uint32_t(v);
            c = uint32_t(v >> 32);
          },
          std::make_integer_sequence<int, Q>{});
      sink(s, low, top_lane);
    }
    // Pending carries: c_j belongs to limb 0 of lane j+1 (the top lane's is
    // beyond the product and is 0).
    const uint32_t from_below = __shfl_up_sync(0xffffffffu, c, 1, L);
    const uint32_t carry = add_1<Q>(r, j == 0 ? 0u : from_below);
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(carry != 0, all_equal<Q>(r, ~0u), &out);
    add_1<Q>(r, in);
#pragma unroll
    for (int k = 0; k < Q; ++k) hi[k] = r[k];
  }
};

}  // namespace bigtune::kernels::warp
