// Warp backend of the limb-array primitives of kernels/block/div_newtonc.hpp's
// passes (the div_shinv.hpp contract plus map): one warp runs one instance,
// one 64-bit limb per lane in chunks of 32 limbs, every primitive called by
// all 32 lanes with the same arguments and ending with __syncwarp() (which
// also orders the lanes' global memory accesses), so its result is visible
// to the whole warp.
//
// Why (bench/notes/div-newtonc-bound.md): the block backend (block_ops.cuh)
// runs one instance per block of 64-256 threads, and each primitive costs
// block barriers and a block carry scan. Most of the composed division's
// passes are short (Newton steps at p <= 32 limbs, 24 of 36 step passes at
// 2^15 bits), i.e. latency: here an add is one ballot pair per 32 limbs
// (the carry vote of kernels/warp/carry_vote.hpp, seed 002 §3 Alg. 3), no
// barrier beyond the warp, and 8 instances per 256-thread block.
//
// Written with the intrinsics tests/support/warp_emulation.hpp emulates
// (ballot, syncwarp) so the CPU tests run it against GMP.
#pragma once
#include <cstdint>
#include <utility>

#include "kernels/block/add_sub_forms.cuh"
#include "kernels/warp/carry_vote.hpp"

namespace bigtune::kernels::block {

// K: limbs per lane in add_sub's chunks (the other primitives take one).
template <int K>
struct NewtoncWarpOps : AddSubForms<NewtoncWarpOps<K>, uint64_t> {
  using Limb = uint64_t;
  // add_n, sub_n, add_1, sub_1, pow_sub over add_sub below.
  using Forms = AddSubForms<NewtoncWarpOps<K>, Limb>;
  using Forms::add_n;
  using Forms::sub_n;
  using Forms::add_1;
  using Forms::sub_1;
  using Forms::pow_sub;
  using Wide = unsigned __int128;

  __device__ __forceinline__ static uint32_t lane() { return threadIdx.x & 31u; }

  template <class F>
  __device__ void map(Limb* r, uint32_t n, F f) {
    for (uint32_t j = lane(); j < n; j += 32) r[j] = f(j);
    __syncwarp();
  }
  __device__ void zero(Limb* r, uint32_t n) {
    map(r, n, [](uint32_t) { return Limb(0); });
  }
  // r = floor(a B^e) mod B^rn. Overlap allowed: each chunk is read before it
  // is written, chunks in the order that never reads a written limb.
  __device__ void copy_shift(Limb* r, uint32_t rn, const Limb* a, uint32_t an, int e) {
    const uint32_t chunks = (rn + 31) / 32;
    for (uint32_t c = 0; c < chunks; ++c) {
      const uint32_t i = (e > 0 ? chunks - 1 - c : c) * 32 + lane();
      const int64_t j = int64_t(i) - e;
      const Limb v = (i < rn && j >= 0 && j < int64_t(an)) ? a[j] : Limb(0);
      __syncwarp();
      if (i < rn) r[i] = v;
    }
    __syncwarp();
  }
  __device__ uint32_t prec(const Limb* a, uint32_t n) {
    for (uint32_t base = (n + 31) / 32 * 32; base > 0;) {
      base -= 32;
      const uint32_t i = base + lane();
      const unsigned nz = __ballot_sync(0xffffffffu, i < n && a[i] != 0);
      if (nz) return base + 32 - uint32_t(__clz(nz));
    }
    return 0;
  }
  __device__ int cmp(const Limb* a, uint32_t an, const Limb* b, uint32_t bn) {
    const uint32_t n = an > bn ? an : bn;
    for (uint32_t base = (n + 31) / 32 * 32; base > 0;) {
      base -= 32;
      const uint32_t i = base + lane();
      const Limb x = i < an ? a[i] : Limb(0), y = i < bn ? b[i] : Limb(0);
      const unsigned ne = __ballot_sync(0xffffffffu, x != y);
      if (ne) {
        const unsigned lt = __ballot_sync(0xffffffffu, x < y);
        const uint32_t top = 31 - uint32_t(__clz(ne));
        return (lt >> top) & 1u ? -1 : 1;
      }
    }
    return 0;
  }
  __device__ Limb read(const Limb* a, uint32_t i) { return a[i]; }
  __device__ void write(Limb* a, uint32_t i, Limb x) {
    if (lane() == 0) a[i] = x;
    __syncwarp();
  }

  // r = a ± b ± carry_in over n limbs through a_at / b_at / emit (as the block
  // backend's add_sub; emit may write where a_at reads, same index). Chunks of
  // 32 K limbs, lane l taking limbs [l K, l K + K) of the chunk (its K loads
  // issued together: one memory latency per chunk, not per 32 limbs). Per
  // chunk: each lane's local sum over its live limbs (lane 0 with the chunk's
  // carry in) gives generate / propagate, the vote the carry into each lane,
  // a second local pass with it the result. The carry out of the chunk is the
  // carry into its first lane past n (lanes past n generate and propagate
  // nothing), or the vote's carry out when all 32 lanes are live.
  template <bool kSub, class AAt, class BAt, class Emit>
  __device__ Limb add_sub(uint32_t n, AAt a_at, BAt b_at, Emit emit, Limb carry_in) {
    Limb c = carry_in;
    for (uint32_t base = 0; base < n; base += 32 * K) {
      const uint32_t first = base + lane() * K;
      Limb x[K], y[K];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const bool in = first + k < n;
        x[k] = in ? a_at(first + k) : Limb(0);
        y[k] = in ? b_at(first + k) : Limb(0);
      }
      // Local pass: carry out of the live limbs from cin, and whether they all
      // end as the propagating value (~0 for add, 0 for sub) without one.
      auto local = [&](Limb cin, bool write) {
        Limb cy = cin;
        bool all = first < n;
#pragma unroll
        for (int k = 0; k < K; ++k) {
          if (first + k >= n) break;
          Limb r;
          if constexpr (kSub) {
            const Wide d = Wide(x[k]) - y[k] - cy;
            r = Limb(d);
            cy = Limb(d >> 64) != 0;
            all = all && r == 0;
          } else {
            const Wide t = Wide(x[k]) + y[k] + cy;
            r = Limb(t);
            cy = Limb(t >> 64);
            all = all && r == ~Limb(0);
          }
          if (write) emit(first + k, r);
        }
        return std::pair<Limb, bool>(cy, all);
      };
      const auto gp = local(lane() == 0 ? c : Limb(0), false);
      const bool g = gp.first != 0, p = !g && gp.second;
      const warp::CarryVote v =
          warp::carry_vote(__ballot_sync(0xffffffffu, g), __ballot_sync(0xffffffffu, p), 32);
      const Limb mine = lane() == 0 ? c : Limb((v.carry_in >> lane()) & 1u);
      local(mine, true);
      const uint32_t live = (n - base + K - 1) / K;
      c = live >= 32 ? Limb(v.carry_out) : Limb((v.carry_in >> live) & 1u);
    }
    __syncwarp();
    return c;
  }
};

}  // namespace bigtune::kernels::block
