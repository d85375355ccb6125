// Warp-level carry resolution for numbers held blocked over a segment of L
// lanes (L in {2, 4, 8, 16, 32}; 32 / L segments per warp, lane j of a segment
// holds limbs [jQ, jQ + Q)). Seed 002 §3 (Alg. 3) resolves the carries of the
// warp product with a vote; seed 003 uses the same generate/propagate pair
// for its scan. Here the whole scan is one ballot pair and one integer add:
//
//   G = lanes whose local sum overflowed (generate), P = lanes whose local sum
//   is all ones (propagate; for subtraction: borrow out / difference zero).
//   G and P are disjoint. A lane's carry out is G | (P & carry in), which is
//   exactly the carry of a binary adder fed with A = G | P and B = G (A & B = G,
//   A ^ B = P). So the carry into lane j is bit j of (A + B) ^ A ^ B =
//   (A + B) ^ P, and the segment's carry out is bit L of A + B.
//
// Cost: 2 ballots, ~8 integer ops per lane, whatever L. No shared memory
// (TempStorage is empty). Must be called by all 32 lanes of the warp,
// converged (full-mask ballots); inactive lanes pass false, false.
#pragma once
#include <cstdint>

#include "kernels/warp/carry_vote.hpp"

namespace bigtune::kernels::warp {

template <int L>
struct WarpCarryResolve {
  static_assert(L == 2 || L == 4 || L == 8 || L == 16 || L == 32, "lanes per instance must be 2, 4, 8, 16 or 32");
  struct TempStorage {};  // ballots only

  __device__ __forceinline__ explicit WarpCarryResolve(TempStorage&) {}
  __device__ __forceinline__ WarpCarryResolve() {}

  // Carry (0 or 1) into this lane's limbs; *segment_out receives the carry
  // out of the segment's top lane (the same value on every lane of it).
  __device__ __forceinline__ uint32_t resolve(bool generate, bool propagate, uint32_t* segment_out) const {
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t base = lane & ~uint32_t(L - 1);
    const uint64_t mask = (uint64_t(1) << L) - 1;
    const uint64_t g = (uint64_t(__ballot_sync(0xffffffffu, generate)) >> base) & mask;
    const uint64_t p = (uint64_t(__ballot_sync(0xffffffffu, propagate)) >> base) & mask;
    const CarryVote v = carry_vote(g, p, L);
    *segment_out = v.carry_out;
    return uint32_t(v.carry_in >> (lane - base)) & 1u;
  }
};

// Per-lane limb loops used around the resolution (Q limbs in registers).
// r = a + b (limb-wise chain); returns the carry out of the Q limbs.
template <int Q>
__device__ __forceinline__ uint32_t add_n(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q]) {
  uint64_t c = 0;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    c += uint64_t(a[k]) + b[k];
    r[k] = uint32_t(c);
    c >>= 32;
  }
  return uint32_t(c);
}

// r = a - b; returns the borrow out of the Q limbs.
template <int Q>
__device__ __forceinline__ uint32_t sub_n(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q]) {
  uint32_t borrow = 0;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint64_t d = uint64_t(a[k]) - b[k] - borrow;
    r[k] = uint32_t(d);
    borrow = uint32_t(d >> 63);
  }
  return borrow;
}

// r += c (c small); returns the carry out.
template <int Q>
__device__ __forceinline__ uint32_t add_1(uint32_t (&r)[Q], uint32_t c) {
  uint64_t s = c;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    s += r[k];
    r[k] = uint32_t(s);
    s >>= 32;
  }
  return uint32_t(s);
}

// r -= c (c 0 or 1); returns the borrow out.
template <int Q>
__device__ __forceinline__ uint32_t sub_1(uint32_t (&r)[Q], uint32_t c) {
  uint32_t borrow = c;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t before = r[k];
    r[k] = before - borrow;
    borrow = borrow & (before == 0u);
  }
  return borrow;
}

template <int Q>
__device__ __forceinline__ bool all_equal(const uint32_t (&r)[Q], uint32_t v) {
  uint32_t acc = 0;
#pragma unroll
  for (int k = 0; k < Q; ++k) acc |= r[k] ^ v;
  return acc == 0;
}

}  // namespace bigtune::kernels::warp
