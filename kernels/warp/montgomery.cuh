// Warp-level Montgomery arithmetic: one instance on a segment of L lanes
// (L in {2, 4, 8, 16, 32}), Q 32-bit limbs per lane, blocked (lane j holds limbs
// [jQ, jQ + Q)), so N = L Q limbs per number. Issue 9; the modular
// counterpart of the warp "sum-rotate" product (seed 002 §3, Alg. 3,
// kernels/warp/mul_sum_rotate.cuh), as kernels/modular/montgomery.cuh is of
// the thread-per-product schoolbook (seed 002 §3.2.1).
//
// mul(r, a, b): r = a b 2^(-32S) mod m for S = blocks Q (R = 2^(32S); the
// caller picks the smallest S that holds its operands), by interleaved CIOS
// on the sum-rotate window. Step i (i = 0 .. S-1):
//   1. b_i is broadcast from its lane, and the window's limb 0 (on lane 0)
//      with it: every lane computes q_i = (t_0 + a_0 b_i) (-m^-1) mod 2^32
//      itself, so q_i costs no shuffle of its own and both shuffles are issued
//      before the multiply-adds that need them;
//   2. each lane adds a_lane b_i and m_lane q_i into its Q-limb part
//      (two addmul_1 chains, 4Q + 2 IMADs), which yields two top digits;
//   3. the window shifts down one limb as in the product: the lowest limb
//      (on lane 0) is 0 by the choice of q_i and is dropped, each lane takes
//      the lowest limb of the lane above into its freed top slot with both
//      top digits and its pending carry (0..3).
// After S steps the window holds (a b + Q m) / R < a + m < 2R (per-lane
// pending carries still to add): one ballot resolution adds them, the top
// lane's last carry is the bit above the window, and one conditional
// subtraction of m (second ballot resolution) gives r < R, and r < m when
// a < m or b < m. The thread family's rules carry over unchanged (see
// kernels/modular/montgomery.cuh): operands only need to be below R, and a
// product by R^2 mod m reduces fully, which is why operands >= m are accepted.
//
// Cost per product and lane: S steps of 4Q + 2 IMAD, 3 shuffles, ~6 integer
// ops; then 4 ballots, 3 shuffles. Against the plain sum-rotate product
// (2Q + 1 IMAD, 2 shuffles per step) a Montgomery product is ~2x: the
// textbook 2 N^2 vs N^2 limb products.
//
// Preconditions (every function): all 32 lanes of the warp call it,
// converged, with the same `blocks` (full-mask shuffles and ballots; each
// segment may hold a different instance); m odd; a, b < R; m < R;
// blocks <= L.
#pragma once
#include <cstdint>

#include "kernels/arith/addmul_1.cuh"
#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/mul_sum_rotate.cuh"  // detail::static_for

namespace bigtune::kernels::warp {

// -m0^-1 mod 2^32 for odd m0 (Newton: right to 3 bits at x = m0, each step
// doubles the correct bits).
__host__ __device__ __forceinline__ uint32_t neg_inv32(uint32_t m0) {
  uint32_t x = m0;
  for (int k = 0; k < 4; ++k) x *= 2u - m0 * x;
  return 0u - x;
}

template <int L, int Q>
struct WarpMontgomery {
  // L = 2 (task powm1k): 1 Kbit on Q = 16 blocks, 16 instances per warp, as
  // the two-lane block-rotate product (mul_block_rotate.cuh, session 6).
  static_assert(L == 2 || L == 4 || L == 8 || L == 16 || L == 32, "lanes per instance must be 2, 4, 8, 16 or 32");
  static constexpr int kLimbs = L * Q;
  struct TempStorage {};  // shuffles and ballots only

  __device__ __forceinline__ WarpMontgomery() {}
  __device__ __forceinline__ explicit WarpMontgomery(TempStorage&) {}

  __device__ __forceinline__ static uint32_t lane() { return threadIdx.x & uint32_t(L - 1); }

  // r = a b R^-1 mod m, below R (see the file comment). r may alias a or b.
  __device__ __forceinline__ void mul(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q],
                                      const uint32_t (&m)[Q], uint32_t minv, uint32_t blocks) const {
    const uint32_t j = lane();
    const bool top_lane = j == uint32_t(L - 1);
    const int above = int((j + 1) & uint32_t(L - 1));
    const uint32_t a0 = __shfl_sync(0xffffffffu, a[0], 0, L);
    uint32_t t[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) t[k] = 0;
    uint32_t c = 0;
    for (uint32_t s = 0; s < blocks; ++s) {
      detail::static_for(
          [&](auto kc) {
            constexpr int k = decltype(kc)::value;  // logical limb 0 of the window is t[k]
            const uint32_t bi = __shfl_sync(0xffffffffu, b[k], int(s), L);
            const uint32_t t0 = __shfl_sync(0xffffffffu, t[k], 0, L);
            const uint32_t q = (t0 + a0 * bi) * minv;
            const uint32_t hi_a = arith::addmul_1<Q, k>(t, a, bi);
            const uint32_t hi_m = arith::addmul_1<Q, k>(t, m, q);
            const uint32_t recv = __shfl_sync(0xffffffffu, t[k], above, L);
            const uint64_t v = uint64_t(top_lane ? 0u : recv) + hi_a + hi_m + c;
            t[k] = uint32_t(v);
            c = uint32_t(v >> 32);
          },
          std::make_integer_sequence<int, Q>{});
    }
    finish(r, t, c, m);
  }

  // The end of every Montgomery product and square (this digit-serial form,
  // montgomery_block.cuh, montgomery_sqr.cuh): lane j's pending word c
  // belongs to limb 0 of lane j + 1 and the top lane's is the bit above the
  // window; one carry resolution adds them, then r = t - m if that is >= m.
  // t is clobbered; r may alias it.
  __device__ __forceinline__ void finish(uint32_t (&r)[Q], uint32_t (&t)[Q], uint32_t c, const uint32_t (&m)[Q]) const {
    const uint32_t from_below = __shfl_up_sync(0xffffffffu, c, 1, L);
    const uint32_t above_window = __shfl_sync(0xffffffffu, c, L - 1, L);
    const uint32_t carry = add_1<Q>(t, lane() == 0 ? 0u : from_below);
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(carry != 0, all_equal<Q>(t, ~0u), &out);
    add_1<Q>(t, in);
    reduce_once(r, t, above_window + out, m);
  }

  // r = t - m if (top, t) >= m, else t; (top, t) < 2m. r may alias t.
  __device__ __forceinline__ void reduce_once(uint32_t (&r)[Q], const uint32_t (&t)[Q], uint32_t top,
                                              const uint32_t (&m)[Q]) const {
    uint32_t d[Q];
    const uint32_t borrow = sub_n<Q>(d, t, m);
    uint32_t borrow_out;
    const uint32_t in = WarpCarryResolve<L>().resolve(borrow != 0, all_equal<Q>(d, 0u), &borrow_out);
    sub_1<Q>(d, in);
    const bool take_d = top != 0 || borrow_out == 0;
#pragma unroll
    for (int k = 0; k < Q; ++k) r[k] = take_d ? d[k] : t[k];
  }

  // r = 2a mod m for a < m. r may alias a.
  __device__ __forceinline__ void double_mod(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&m)[Q]) const {
    uint32_t t[Q];
    const uint32_t carry = add_n<Q>(t, a, a);
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(carry != 0, all_equal<Q>(t, ~0u), &out);
    add_1<Q>(t, in);
    reduce_once(r, t, out, m);
  }

  // Bit length of x (0 for x = 0), on every lane of the segment.
  __device__ __forceinline__ uint32_t bit_length(const uint32_t (&x)[Q]) const {
    uint32_t mine = 0;
#pragma unroll
    for (int k = 0; k < Q; ++k)
      if (x[k]) mine = (lane() * Q + k) * 32 + 32 - uint32_t(__clz(x[k]));
    // The highest nonzero lane's answer: a max over the segment by shuffles.
#pragma unroll
    for (int d = 1; d < L; d *= 2) {
      const uint32_t other = __shfl_xor_sync(0xffffffffu, mine, d, L);
      mine = other > mine ? other : mine;
    }
    return mine;
  }

  // Montgomery constants of an odd m > 1 for R = 2^(32 blocks Q):
  // one = R mod m, r2 = R^2 mod m. `start` is a bit position with
  // 2^start < m for every segment of the warp (the warp's smallest
  // bit_length - 1), so the loops have one trip count for the whole warp.
  // Cost: (32S - start) + S modular doublings and 5 products: 2^start doubled
  // up to 2^(32S) = R mod m; then S more doublings give the Montgomery form
  // of 2^S, squared five times: (2^S)^32 = R, whose form is R^2 mod m.
  __device__ __forceinline__ void setup(uint32_t (&one)[Q], uint32_t (&r2)[Q], const uint32_t (&m)[Q],
                                        uint32_t minv, uint32_t blocks, uint32_t start) const {
    const uint32_t j = lane();
    const uint32_t total = 32 * blocks * Q;
#pragma unroll
    for (int k = 0; k < Q; ++k) one[k] = (j * Q + k == start / 32) ? (1u << (start % 32)) : 0u;
    for (uint32_t b = start; b < total; ++b) double_mod(one, one, m);
#pragma unroll
    for (int k = 0; k < Q; ++k) r2[k] = one[k];
    for (uint32_t b = 0; b < blocks * Q; ++b) double_mod(r2, r2, m);
    for (int k = 0; k < 5; ++k) mul(r2, r2, r2, m, minv, blocks);
  }
};

}  // namespace bigtune::kernels::warp
