// Warp divmod by schoolbook long division (Knuth, TAOCP vol. 2, 4.3.1,
// Algorithm D) built on the warp primitives: one quotient digit per step,
// estimated from the top three remainder digits and the divisor's top two,
// then a warp-wide multiply-subtract whose inter-lane borrows are resolved
// by the ballot vote (carry_resolve.cuh), and at most one add-back. The
// division counterpart of seed 002 §3's warp product (the seed has no
// division; seed 001 divides by a whole shifted inverse instead, which needs
// several full products and pays off only at block sizes).
//
// Layout: a segment of L lanes holds an N = L*Q-digit window W (lane j:
// digits [jQ, jQ + Q)) plus one digit `ext` above it (meaningful on the top
// lane). The divisor, normalised (top bit set, shift s) and top-aligned,
// sits at digits [N - vn, N); the normalised dividend at W = u * 2^s *
// B^(N - un), its overflow digit in ext. Each step subtracts qhat * V from
// digits [N - vn, N] and then shifts W up one digit, so the next dividend
// digit enters the active part without any feed. The quotient digits shift
// into a second window from the bottom. After the last step the remainder
// (times 2^s) lies at [N - vn, N).
//
// Steps: T_i = un - vn_i + 1 per instance; a warp runs the largest T of its
// instances, and instances with fewer steps idle through the rest (qhat = 0,
// no shift), so all shuffles and ballots stay warp-uniform.
// Cost per step and lane: one 64-by-32-bit division (for qhat), Q-digit
// mul_1 and sub_n chains, 3 shuffles, 2-4 ballots.
// Preconditions: un <= N digits, 1 <= vn <= un (vn = 0: zero divisor, the
// caller's flag; the results are then 0), Q >= 2, all 32 lanes converged.
#pragma once
#include <cstdint>

#include "kernels/arith/addmul_1.cuh"
#include "kernels/warp/carry_resolve.cuh"

namespace bigtune::kernels::warp {

template <int L, int Q>
struct WarpDivModKnuth {
  static_assert(Q >= 2, "qhat needs the top two divisor digits in one lane");
  struct TempStorage {};  // shuffles and ballots only

  __device__ __forceinline__ WarpDivModKnuth() {}
  __device__ __forceinline__ explicit WarpDivModKnuth(TempStorage&) {}

  // Digit index (0 .. N-1) of the highest nonzero digit of a blocked number,
  // or -1 when it is zero. Same value on every lane of the segment.
  __device__ __forceinline__ static int top_digit(const uint32_t (&x)[Q]) {
    const uint32_t j = threadIdx.x & uint32_t(L - 1), base = (threadIdx.x & 31u) & ~uint32_t(L - 1);
    int mine = -1;
#pragma unroll
    for (int k = 0; k < Q; ++k)
      if (x[k] != 0) mine = int(j) * Q + k;
    const uint64_t seg = (uint64_t(__ballot_sync(0xffffffffu, mine >= 0)) >> base) & ((uint64_t(1) << L) - 1);
    const int top_lane = seg ? 63 - __clzll(seg) : 0;
    const int found = __shfl_sync(0xffffffffu, mine, top_lane, L);
    return seg ? found : -1;
  }

  // x <<= `bits` (0..31) across the segment; returns the bits shifted out of
  // the top digit (meaningful on the top lane).
  __device__ __forceinline__ static uint32_t shl_bits(uint32_t (&x)[Q], uint32_t bits) {
    const uint32_t j = threadIdx.x & uint32_t(L - 1);
    const uint32_t below = __shfl_up_sync(0xffffffffu, x[Q - 1], 1, L);
    const uint32_t out = __funnelshift_l(x[Q - 1], 0u, bits);
#pragma unroll
    for (int k = Q - 1; k > 0; --k) x[k] = __funnelshift_l(x[k - 1], x[k], bits);
    x[0] = __funnelshift_l(j == 0 ? 0u : below, x[0], bits);
    return out;
  }

  // x >>= `bits` (0..31) across the segment; `above` enters the top digit.
  __device__ __forceinline__ static void shr_bits(uint32_t (&x)[Q], uint32_t bits, uint32_t above) {
    const uint32_t j = threadIdx.x & uint32_t(L - 1);
    const uint32_t next = __shfl_down_sync(0xffffffffu, x[0], 1, L);
#pragma unroll
    for (int k = 0; k < Q - 1; ++k) x[k] = __funnelshift_r(x[k], x[k + 1], bits);
    x[Q - 1] = __funnelshift_r(x[Q - 1], j == uint32_t(L - 1) ? above : next, bits);
  }

  // x = x * B (one digit up) when `shift`; `in` enters digit 0 of lane 0;
  // returns the digit shifted out (meaningful on the top lane).
  __device__ __forceinline__ static uint32_t shl_digit(uint32_t (&x)[Q], bool shift, uint32_t in) {
    const uint32_t j = threadIdx.x & uint32_t(L - 1);
    const uint32_t below = __shfl_up_sync(0xffffffffu, x[Q - 1], 1, L);
    const uint32_t out = x[Q - 1];
    if (shift) {
#pragma unroll
      for (int k = Q - 1; k > 0; --k) x[k] = x[k - 1];
      x[0] = j == 0 ? in : below;
    }
    return out;
  }

  // w: the normalised, placed dividend (see the file comment) with its
  // overflow digit `ext`; v: the normalised, top-aligned divisor of vn
  // digits; steps: this instance's T (0 for a zero divisor), warp_steps the
  // warp's largest. On return q holds the quotient digits [0, N) and w the
  // remainder * 2^s at digits [N - vn, N).
  __device__ __forceinline__ void run(uint32_t (&q)[Q], uint32_t (&w)[Q], uint32_t ext, const uint32_t (&v)[Q],
                                      uint32_t steps, uint32_t warp_steps) const {
    const uint32_t j = threadIdx.x & uint32_t(L - 1);
    const int top = L - 1;
    const bool top_lane = j == uint32_t(top);
    const uint32_t v1 = __shfl_sync(0xffffffffu, v[Q - 1], top, L);
    const uint32_t v2 = __shfl_sync(0xffffffffu, v[Q - 2], top, L);
#pragma unroll
    for (int k = 0; k < Q; ++k) q[k] = 0;
    for (uint32_t step = 0; step < warp_steps; ++step) {
      const bool active = step < steps;
      // 1. qhat from (ext, w[N-1], w[N-2]) / (v1, v2) on the top lane.
      uint32_t qhat = 0;
      if (top_lane && active) {
        const uint64_t num = (uint64_t(ext) << 32) | w[Q - 1];
        qhat = ext >= v1 ? 0xffffffffu : uint32_t(num / v1);
        uint64_t rhat = num - uint64_t(qhat) * v1;
#pragma unroll
        for (int t = 0; t < 2; ++t)
          if (rhat < (uint64_t(1) << 32) && uint64_t(qhat) * v2 > ((rhat << 32) | w[Q - 2])) {
            --qhat;
            rhat += v1;
          }
      }
      qhat = __shfl_sync(0xffffffffu, qhat, top, L);
      // 2. w -= qhat * v: each lane's top product digit plus its local borrow
      //    is a debt to the lane above; the 0/1 borrows that result are voted.
      uint32_t p[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) p[k] = 0;
      const uint32_t high = arith::addmul_1<Q, 0>(p, v, qhat);
      const uint32_t debt = high + sub_n<Q>(w, w, p);  // high <= B - 2: no overflow
      const uint32_t debt_in = __shfl_up_sync(0xffffffffu, debt, 1, L);
      uint32_t first[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) first[k] = k == 0 ? (j == 0 ? 0u : debt_in) : 0u;
      const uint32_t borrowed = sub_n<Q>(w, w, first);
      uint32_t segment_borrow;
      const uint32_t in = WarpCarryResolve<L>().resolve(borrowed != 0, all_equal<Q>(w, 0u), &segment_borrow);
      sub_1<Q>(w, in);
      const int64_t top_digit = int64_t(ext) - debt - segment_borrow;  // on the top lane
      // 3. Add back when qhat was one too large (rare: Knuth's D6).
      const bool negative = __shfl_sync(0xffffffffu, top_digit < 0 ? 1u : 0u, top, L) != 0;
      ext = uint32_t(top_digit);
      if (__any_sync(0xffffffffu, negative)) {
        uint32_t add[Q];
#pragma unroll
        for (int k = 0; k < Q; ++k) add[k] = negative ? v[k] : 0u;
        const uint32_t carry = add_n<Q>(w, w, add);
        uint32_t segment_carry;
        const uint32_t cin = WarpCarryResolve<L>().resolve(carry != 0, all_equal<Q>(w, ~0u), &segment_carry);
        add_1<Q>(w, cin);
        if (negative) {
          ext += segment_carry;  // back to 0
          --qhat;
        }
      }
      // 4. Quotient digit in from the bottom; the window moves up one digit
      //    unless this was the instance's last step.
      shl_digit(q, active, qhat);
      const uint32_t out = shl_digit(w, active && step + 1 < steps, 0u);
      if (active && step + 1 < steps) ext = out;
    }
  }
};

}  // namespace bigtune::kernels::warp
