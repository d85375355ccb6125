// Classical (quadratic) multiplication inside one block, seed 000 §3.
//
// Each thread computes two chunks of Q consecutive result limbs (the seed's
// "Q is half the sequentialization factor", Fig. 5) with the load-balanced
// partitioning of Fig. 4: for the low half (mod B^M) chunk c is paired with its
// mirror 2T-1-c; for the full product chunk c is paired with c+T, whose column
// sums have M-1-k terms against k+1, so every thread does about Q*M products.
//
// Column sums accumulate in 32-bit digit rows (arith::MadRow) from a window
// over B held in registers: one shared load of A and one of B per step feed Q
// limb products (Fig. 7, with the window replacing the Q re-loads). A chunk
// is then Q+2 limbs (Fig. 6): Q limbs in place plus a two-limb overflow that
// lands on the next chunk. The overflows are added with one
// block carry scan (add_sub.cuh), twice for Q = 1 where overflows of
// neighbouring chunks overlap.
//
// Preconditions: operands zero-padded to M_pad limbs (layout.hpp), B with Q
// zero guard limbs on each side so no step needs a bounds check.
// Cost per thread: about Q*M_pad limb products, 2*M_pad shared loads.
#pragma once
#include <cstdint>
#include "kernels/arith/limb.cuh"
#include "kernels/arith/mad_row.cuh"
#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Column sums of Q consecutive result limbs [p0, p0+Q) of A*B, where A starts
// at logical shared index a0 and B[0] at b0 (both M_pad limbs, B with Q zero
// guards each side, so no step needs a bounds check).
//
// The window of B limbs a step needs, B[p0 + q - i] for column q, lives in
// buf[(q - i) mod Q]: each step loads one new limb into the slot the oldest
// one leaves, and stepping Q at a time makes every slot index a compile-time
// constant — no register moves (Fig. 7 re-reads B instead). Sums accumulate
// in 32-bit digits through arith::mad_row (even/odd accumulators); a 64-bit
// limb step is two rows, a_lo at digit 0 and a_hi at digit 1.
template <class Limb, int Q>
class ChunkSum {
 public:
  static constexpr int D = sizeof(Limb) / 4;  // 32-bit digits per limb
  static constexpr int N = Q * D;             // digits in a row
  static constexpr int L = N + 3;             // accumulator digits: chunk, overflow, carries

  __device__ ChunkSum(const Limb* smem, uint32_t a0, uint32_t b0, uint32_t padded)
      : smem_(smem), a0_(a0), b0_(b0), padded_(padded) {}

  // Starts the chunk at p0; returns the number of steps it takes (a multiple
  // of Q). Steps start on a multiple of Q so that slot indices are static;
  // the extra step this may add (high chunks of the full product) multiplies
  // B's zero guard.
  __device__ __forceinline__ int start(uint32_t p0) {
#pragma unroll
    for (int d = 0; d < L; ++d) e_[d] = o_[d] = 0;
    p0_ = p0;
    const int i_lo = max(0, int(p0) - int(padded_ - 1));
    i_ = i_lo - i_lo % Q;
    const int i_hi = min(int(p0) + Q - 1, int(padded_) - 1);
#pragma unroll
    for (int q = 0; q < Q; ++q) buf_[q] = smem_[smem_physical<Limb>(b0_ + p0 + q - i_)];
    return i_hi + 1 - i_;
  }

  // Q steps: i_ .. i_+Q-1.
  __device__ __forceinline__ void steps() {
#pragma unroll
    for (int s = 0; s < Q; ++s) {
      const Limb a = smem_[smem_physical<Limb>(a0_ + i_ + s)];
      uint32_t w[N];
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        const Limb v = buf_[(q - s + Q) % Q];
        w[q * D] = uint32_t(v);
        if constexpr (D == 2) w[q * D + 1] = uint32_t(uint64_t(v) >> 32);
      }
      arith::mad_row<N, L, false>(e_, o_, uint32_t(a), w);
      if constexpr (D == 2) arith::mad_row<N, L, true>(e_, o_, uint32_t(uint64_t(a) >> 32), w);
      buf_[(Q - 1 - s) % Q] = smem_[smem_physical<Limb>(b0_ + p0_ - (i_ + s) - 1)];
    }
    i_ += Q;
  }

  // out = E + O * 2^32 as Q limbs in place and the two-limb overflow (the sum
  // is below B^(Q+2): fewer than 2^32 terms).
  __device__ __forceinline__ void finish(Limb (&out)[Q + 2]) const {
    uint32_t r[L + 1];
    r[0] = e_[0];
    uint32_t carry = 0;
#pragma unroll
    for (int d = 1; d < L; ++d) carry = arith::add_limb(r[d], e_[d], o_[d - 1], carry);
    r[L] = o_[L - 1] + carry;
#pragma unroll
    for (int k = 0; k < Q + 2; ++k) {
      if constexpr (D == 1) {
        out[k] = r[k];
      } else {
        out[k] = Limb(r[2 * k]) | (Limb(2 * k + 1 <= L ? r[2 * k + 1] : 0u) << 32);
      }
    }
  }

 private:
  const Limb* smem_;
  uint32_t a0_, b0_, padded_, p0_ = 0;
  int i_ = 0;
  uint32_t e_[L], o_[L];
  Limb buf_[Q];
};

// Both chunks of a thread (Fig. 4) in one loop. The pairing makes their step
// counts add up to the same total in every thread, so a single loop that
// switches chunk midway keeps all lanes of a warp busy, where two loops would
// each diverge by up to 31*Q steps between neighbouring lanes.
template <class Limb, int Q>
__device__ __forceinline__ void mul_chunk_pair(Limb (&out0)[Q + 2], Limb (&out1)[Q + 2], const Limb* smem,
                                               uint32_t a0, uint32_t b0, uint32_t padded, uint32_t p0,
                                               uint32_t p1) {
  ChunkSum<Limb, Q> sum(smem, a0, b0, padded);
  int left = sum.start(p0);
  bool second = false;
  // Counted by blocks of Q steps; p1's step count is only known after the
  // switch, so the loop runs while either chunk has steps left.
  while (true) {
    if (left == 0) {
      if (second) break;
      sum.finish(out0);
      left = sum.start(p1);
      second = true;
      continue;
    }
    sum.steps();
    left -= Q;
  }
  sum.finish(out1);
}

}  // namespace bigtune::kernels::block
