// Block backend of the limb-array primitives that kernels/block/div_shinv.hpp
// and the fused kernels are written against (the contract is listed there):
// one CUDA block runs one instance, every thread calls every primitive with the
// same arguments, and every primitive ends with __syncthreads() so its result
// (in memory or returned) is visible to all threads.
//
// Operands are plain pointers: global scratch or shared memory alike, so a
// kernel keeps intermediates on chip where they fit (fused ops) and in global
// scratch where they do not (division past ~2^16 bits).
//
// - add/sub: each thread takes a contiguous run of ceil(n/T) limbs; one block
//   carry scan (carry_scan.cuh, seed 000 §2) joins the runs. Cost n/T + log T.
// - prec/cmp: a highest-index search, joined with one shared atomicMax
//   (seed 001 §3.2 finds the lowest digit the same way for subPowB).
// - mul: the classical products of seed 000 §3 (mul_classical.cuh), in square
//   tiles of at most P_cap = T·Q limbs staged in shared memory; operands longer
//   than a tile are cut in pieces whose products are added into the result.
//   mul() is the one dispatch point: seed 001 §3.4's precision-dependent choice
//   of multiplication lives there (an NTT product, kernels/block/ntt*.cuh, plugs
//   in above its crossover). Cost ≈ an·bn / T limb products per thread.
//
// TempStorage (static shared memory) holds the scan storage and two words; the
// multiplication tile is the caller's (dynamic shared memory,
// block_mul_tile_logical(P_cap, Q) logical limbs, padded as layout.hpp says).
#pragma once
#include <cstdint>

#include "kernels/arith/limb.cuh"
#include "kernels/block/carry_scan.cuh"
#include "kernels/block/layout.hpp"
#include "kernels/block/add_sub_forms.cuh"
#include "kernels/block/mul_classical.cuh"

namespace bigtune::kernels::block {

// Logical limbs of the multiplication tile for pieces of up to pcap limbs:
// A | Q zeros | B | Q zeros, then the two-limb overflow of every Q-limb chunk
// of the 2·pcap-limb product (the product itself overlays A and B).
BIGTUNE_HD constexpr uint64_t block_mul_tile_logical(uint32_t pcap, uint32_t q) {
  return 2ull * pcap + 2ull * q + 2ull * (2ull * pcap / q);
}

template <int Q>
class BlockLimbOps : public AddSubForms<BlockLimbOps<Q>, uint64_t> {
  static_assert(Q >= 2, "overflows of neighbouring chunks must not overlap (one fold pass)");

 public:
  using Limb = uint64_t;
  // add_n, sub_n, add_1, sub_1, pow_sub over add_sub below.
  using Forms = AddSubForms<BlockLimbOps<Q>, Limb>;
  using Forms::add_n;
  using Forms::sub_n;
  using Forms::add_1;
  using Forms::sub_1;
  using Forms::pow_sub;
  struct TempStorage {
    BlockCarryScan::TempStorage scan;
    uint32_t word;
    Limb limb;
  };

  // tile: dynamic shared memory of block_mul_tile_logical(blockDim.x * Q, Q)
  // logical limbs.
  __device__ BlockLimbOps(TempStorage& storage, Limb* tile)
      : s_(storage), tile_(tile), pcap_(blockDim.x * Q) {}

  __device__ void zero(Limb* r, uint32_t n) {
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) r[i] = 0;
    __syncthreads();
  }

  // r = floor(a B^e) mod B^rn; r and a must not overlap unless e = 0.
  __device__ void copy_shift(Limb* r, uint32_t rn, const Limb* a, uint32_t an, int e) {
    for (uint32_t i = threadIdx.x; i < rn; i += blockDim.x) {
      const int64_t j = int64_t(i) - e;
      r[i] = (j >= 0 && j < int64_t(an)) ? a[j] : Limb(0);
    }
    __syncthreads();
  }

  __device__ uint32_t prec(const Limb* a, uint32_t n) {
    if (threadIdx.x == 0) s_.word = 0;
    __syncthreads();
    uint32_t lo, hi;
    range(n, lo, hi);
    for (uint32_t i = hi; i-- > lo;)
      if (a[i] != 0) {
        atomicMax(&s_.word, i + 1);
        break;
      }
    __syncthreads();
    const uint32_t r = s_.word;
    __syncthreads();
    return r;
  }

  __device__ int cmp(const Limb* a, uint32_t an, const Limb* b, uint32_t bn) {
    const uint32_t n = an > bn ? an : bn;
    if (threadIdx.x == 0) s_.word = 0;
    __syncthreads();
    uint32_t lo, hi;
    range(n, lo, hi);
    for (uint32_t i = hi; i-- > lo;)
      if ((i < an ? a[i] : Limb(0)) != (i < bn ? b[i] : Limb(0))) {
        atomicMax(&s_.word, i + 1);
        break;
      }
    __syncthreads();
    const uint32_t top = s_.word;
    int r = 0;
    if (top) {
      const Limb x = top - 1 < an ? a[top - 1] : Limb(0), y = top - 1 < bn ? b[top - 1] : Limb(0);
      r = x < y ? -1 : 1;
    }
    __syncthreads();
    return r;
  }

  __device__ Limb read(const Limb* a, uint32_t i) { return a[i]; }
  __device__ void write(Limb* a, uint32_t i, Limb x) {
    if (threadIdx.x == 0) a[i] = x;
    __syncthreads();
  }

  // r = a ± b ± carry_in over n limbs, limb i read through a_at(i), b_at(i) and
  // written through emit(i, r_i); emit may write where a_at reads (same index).
  // Returns the carry (borrow) out.
  template <bool kSub, class AAt, class BAt, class Emit>
  __device__ Limb add_sub(uint32_t n, AAt a_at, BAt b_at, Emit emit, Limb carry_in) {
    uint32_t lo, hi;
    range(n, lo, hi);
    const bool first = threadIdx.x == 0;
    Limb c = first ? carry_in : Limb(0);
    bool propagate = !first;
    for (uint32_t i = lo; i < hi; ++i) {
      Limb r;
      if constexpr (kSub) {
        c = arith::sub_limb(r, a_at(i), b_at(i), c);
        propagate &= r == Limb(0);
      } else {
        c = arith::add_limb(r, a_at(i), b_at(i), c);
        propagate &= r == ~Limb(0);
      }
    }
    const uint32_t status = uint32_t(c) | (propagate ? kCarryPropagate : 0u);
    uint32_t inclusive;
    const uint32_t prefix = BlockCarryScan(s_.scan).scan(status, inclusive);
    c = first ? carry_in : Limb(prefix & kCarryGenerate);
    for (uint32_t i = lo; i < hi; ++i) {
      Limb r;
      if constexpr (kSub) c = arith::sub_limb(r, a_at(i), b_at(i), c);
      else c = arith::add_limb(r, a_at(i), b_at(i), c);
      emit(i, r);
    }
    if (threadIdx.x == blockDim.x - 1) s_.limb = Limb(inclusive & kCarryGenerate);
    __syncthreads();
    const Limb out = s_.limb;
    __syncthreads();
    return out;
  }

  // q = a / d, returns a mod d. Short division is sequential: one thread, one
  // 128/64-bit division per limb (only one-limb divisors take this path).
  __device__ Limb div_1(Limb* q, const Limb* a, uint32_t n, Limb d) {
    if (threadIdx.x == 0) {
      unsigned __int128 rem = 0;
      for (uint32_t i = n; i-- > 0;) {
        rem = (rem << 64) | a[i];
        q[i] = Limb(rem / d);
        rem %= d;
      }
      s_.limb = Limb(rem);
    }
    __syncthreads();
    const Limb r = s_.limb;
    __syncthreads();
    return r;
  }

  // r[0, an+bn) = a·b; r must not overlap a or b. The multiplication dispatch
  // point (seed 001 §3.4): the sizes are the operands' actual precisions.
  __device__ void mul(Limb* r, const Limb* a, uint32_t an, const Limb* b, uint32_t bn) {
    zero(r, an + bn);
    if (an == 0 || bn == 0) return;
    // An NTT product (kernels/block/ntt*.cuh) plugs in here above its crossover.
    mul_classical_tiled(r, a, an, b, bn);
  }

 private:
  __device__ void range(uint32_t n, uint32_t& lo, uint32_t& hi) const {
    const uint32_t per = (n + blockDim.x - 1) / blockDim.x;
    lo = min(n, threadIdx.x * per);
    hi = min(n, lo + per);
  }

  // Pieces of c limbs: the shorter operand whole when it fits a tile (the
  // longer cut to match, so tiles stay square), never below 64 limbs so a
  // short operand does not cost one tile per limb of the long one.
  // Measured alternative (bench/results/2026-11-22-h100-div.md, run 3): the
  // cut chosen by cost among an/k, bn/k (k <= 16) gained 9 % at 2^18 but lost
  // 20-50 % from 2^14 to 2^17 — the candidate search (four integer divisions
  // per candidate, on every thread, at every product) costs more than it
  // saves there. A cut precomputed per size would keep the gain only.
  __device__ void mul_classical_tiled(Limb* r, const Limb* a, uint32_t an, const Limb* b, uint32_t bn) {
    const uint32_t shorter = min(an, bn), longer = max(an, bn);
    const uint32_t c = min(pcap_, max(shorter, min(longer, 64u)));
    for (uint32_t ia = 0; ia < an; ia += c)
      for (uint32_t jb = 0; jb < bn; jb += c)
        mul_piece(r, an + bn, a + ia, min(c, an - ia), b + jb, min(c, bn - jb), ia + jb);
  }

  // r[off, rn) += a·b for pieces of at most pcap_ limbs (seed 000 §3 in one tile).
  __device__ void mul_piece(Limb* r, uint32_t rn, const Limb* a, uint32_t la, const Limb* b, uint32_t lb,
                            uint32_t off) {
    const uint32_t p = round_up(max(la, lb), Q);
    const uint32_t threads = p / Q, t = threadIdx.x;
    for (uint32_t e = t; e < 2 * p + 2 * Q; e += blockDim.x) {
      Limb v = 0;
      if (e < p) {
        if (e < la) v = a[e];
      } else if (e >= p + Q && e < 2 * p + Q) {
        const uint32_t j = e - p - Q;
        if (j < lb) v = b[j];
      }
      tile_[smem_physical<Limb>(e)] = v;
    }
    __syncthreads();
    Limb out0[Q + 2], out1[Q + 2];
    if (t < threads) mul_chunk_pair<Limb, Q>(out0, out1, tile_, 0, p + Q, p, t * Q, (t + threads) * Q);
    __syncthreads();
    const uint32_t ov = 2 * p + 2 * Q;
    if (t < threads) {
#pragma unroll
      for (int q = 0; q < Q; ++q) {
        tile_[smem_physical<Limb>(t * Q + q)] = out0[q];
        tile_[smem_physical<Limb>((t + threads) * Q + q)] = out1[q];
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        tile_[smem_physical<Limb>(ov + 2 * t + h)] = out0[Q + h];
        tile_[smem_physical<Limb>(ov + 2 * (t + threads) + h)] = out1[Q + h];
      }
    }
    __syncthreads();
    // Fold the overflows: chunk c's lands on limbs (c+1)Q and (c+1)Q + 1.
    Limb* tile = tile_;
    add_sub<false>(
        2 * p, [&](uint32_t i) { return tile[smem_physical<Limb>(i)]; },
        [&](uint32_t i) {
          const uint32_t h = i % Q;
          return (i >= Q && h < 2) ? tile[smem_physical<Limb>(ov + 2 * (i / Q - 1) + h)] : Limb(0);
        },
        [&](uint32_t i, Limb v) { tile[smem_physical<Limb>(i)] = v; }, 0);
    // Accumulate into r from limb off on (carries may run to the top).
    const uint32_t len = rn - off, prod = 2 * p;
    add_sub<false>(
        len, [&](uint32_t i) { return r[off + i]; },
        [&](uint32_t i) { return i < prod ? tile[smem_physical<Limb>(i)] : Limb(0); },
        [&](uint32_t i, Limb v) { r[off + i] = v; }, 0);
  }

  TempStorage& s_;
  Limb* tile_;
  uint32_t pcap_;
};

}  // namespace bigtune::kernels::block
