// The integer core of the warp carry resolution (carry_resolve.cuh), host
// and device: given the generate and propagate bits of L lanes (bit j = lane
// j), the carries into every lane and out of the top one. Plain integer code
// so the CPU unit tests can check it against a lane-by-lane ripple.
//
// A lane's carry out is g | (p & carry in), with g and p disjoint: the carry
// of a binary adder fed with A = g | p and B = g (A & B = g, A ^ B = p). The
// carry into bit j of A + B is bit j of (A + B) ^ A ^ B = (A + B) ^ p; the
// carry out of bit L - 1 is bit L of A + B.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define BIGTUNE_WARP_HD __host__ __device__ __forceinline__
#else
#define BIGTUNE_WARP_HD inline
#endif

namespace bigtune::kernels::warp {

struct CarryVote {
  uint64_t carry_in;   // bit j: carry into lane j (bit 0 always 0)
  uint32_t carry_out;  // out of lane L - 1
};

// Preconditions: 1 <= lanes <= 32, generate & propagate == 0, both below 2^lanes.
BIGTUNE_WARP_HD CarryVote carry_vote(uint64_t generate, uint64_t propagate, int lanes) {
  const uint64_t sum = (generate | propagate) + generate;
  const uint64_t mask = (uint64_t(1) << lanes) - 1;
  return {(sum ^ propagate) & mask, uint32_t(sum >> lanes) & 1u};
}

}  // namespace bigtune::kernels::warp
