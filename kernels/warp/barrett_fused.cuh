// Fused warp Barrett mulmod / sqrmod for a modulus shared by the batch
// (issue 9, "mulmod with a shared modulus within 1.5x of mul"; task
// mulmodfast). One kernel per call, one instance per segment of L lanes with
// Q = 8 limbs each (N = L Q limbs), the block-rotate product of
// kernels/warp/mul_block_rotate.cuh (seed 002 §3, Alg. 3 with one-lane
// shifts) for all three products, the glue in shared memory.
//
// Why: the warp Montgomery mulmod (montgomery_block.cuh) is two Montgomery
// products (the second by R^2 to leave Montgomery form), each a product plus
// an interleaved reduction whose quotient digits every lane recomputes: 5.1 N^2
// limb products in lock-step against the block-rotate mul's N^2 (measured
// mulmod / mul 3.9-4.9x, bench/results/2026-11-22-h100-modfast.md). With the
// reciprocal mu of the shared modulus computed once per call on the host
// (kernels/modular/wbarrett_prep.hpp), a Barrett reduction (HAC 14.42, the
// normalised form of kernels/modular/barrett.hpp) is two more products:
// 3 N^2, and no per-instance setup. The half products the reduction needs
// (high half of q1 mu, low n + 1 limbs of q m') cost a whole block-rotate
// product each: its lanes work in lock-step, and a lane whose partial product
// lands only in the unwanted half is busy anyway (the want_high = false path
// saves only the last block's upper triangle), so 3 N^2 is the floor of this
// form (bench/notes/mulmodfast-bound.md).
//
// Width: S = ceil(limbs / Q) blocks (limbs = the batch's 32-bit limbs), n = S Q;
// the host normalises m' = m << s with s = 32 n - bitlen(m), so
// 2^(32n - 1) <= m' < 2^(32n), and mu = floor((2^(64n) - 1) / m') = 2^(32n) +
// mu_lo (barrett.hpp's bound: after q = floor(q1 mu / 2^(32n)) the remainder
// r = x - q m' lies in [0, 5 m'), at most four subtractions).
// Per instance, x = (a b) << s < m'^2 < 2^(64n):
//   t = a b                          product 1 (block-rotate), into shared memory
//   q1 = x >> 32n                    read shifted from shared memory
//   q  = q1 + high half of q1 mu_lo  product 2, one ballot carry resolution
//   r  = x - q m'  mod 2^(32(n+1))   product 3 (low n limbs by the sink, limb n
//                                    from the high half), one borrow resolution
//   r -= m' while r >= m' (<= 4)     ballot compares
//   result = r >> s                  through shared memory
// Operands >= m (reduced first, bigtune.hpp): one conditional subtraction of
// m (enough when m has the batch's bit-size, a < 2^bits <= 2m), then, only in
// warps where some operand is still >= m, the same reduction on x = a << s.
//
// Shared memory: one region of 2N + 2L + 2 words per segment, limb i at
// i + i / Q (one pad word per lane's Q limbs, so the blocked accesses of 32
// lanes at stride Q + 1 hit distinct banks).
//
// Scratch (written by the launch, kernels/variants/wbarrett_instances.cu):
// kWBarrettHeader words (s, n), then m, m' and mu_lo, N limbs each.
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/mul_block_rotate.cuh"

namespace bigtune::kernels::warp {

constexpr uint32_t kWBarrettThreads = 128;  // threads per block of the fused kernel
constexpr uint32_t kWBarrettHeader = 8;     // scratch words before m, m', mu_lo
constexpr uint32_t kWBarrettMaxCorrections = 4;  // barrett.hpp's bound

template <int L, int Q>
struct WarpBarrett {
  static constexpr uint32_t N = uint32_t(L * Q);
  static constexpr uint32_t kStride = 2 * N + 2 * uint32_t(L) + 2;  // padded words per segment
  static constexpr uint32_t kSegments = kWBarrettThreads / uint32_t(L);

  uint32_t* sm;            // this segment's shared region
  const uint32_t* consts;  // m, m', mu_lo in scratch (N limbs each; L1/L2-resident, loaded where used so
                           // that they hold no registers across the products: Q = 16 needs them)
  uint32_t lane, first, blocks, n, ws, bs;

  __device__ __forceinline__ static uint32_t pad(uint32_t i) { return i + i / uint32_t(Q); }
  // Limb i of the len-limb number in shared memory, 0 outside [0, len).
  __device__ __forceinline__ uint32_t at(int64_t i, uint32_t len) const {
    return i >= 0 && i < int64_t(len) ? sm[pad(uint32_t(i))] : 0u;
  }
  // Limb p of (t << s), t the len-limb number in shared memory.
  __device__ __forceinline__ uint32_t shl(int64_t p, uint32_t len) const {
    const uint32_t hi = at(p - ws, len);
    return bs == 0 ? hi : (hi << bs) | (at(p - ws - 1, len) >> (32 - bs));
  }
  // Limb p of (t >> s).
  __device__ __forceinline__ uint32_t shr(int64_t p, uint32_t len) const {
    const uint32_t lo = at(p + ws, len);
    return bs == 0 ? lo : (lo >> bs) | (at(p + ws + 1, len) << (32 - bs));
  }

  // x >= y over the segment (blocked numbers; the same answer on its lanes).
  __device__ __forceinline__ static bool ge(const uint32_t (&x)[Q], const uint32_t (&y)[Q]) {
    int state = 0;
#pragma unroll
    for (int k = Q - 1; k >= 0; --k)
      if (state == 0 && x[k] != y[k]) state = x[k] > y[k] ? 1 : -1;
    const uint32_t base = (threadIdx.x & 31u) & ~uint32_t(L - 1);
    const uint32_t mask = uint32_t((uint64_t(1) << L) - 1);
    const uint32_t ne = (__ballot_sync(0xffffffffu, state != 0) >> base) & mask;
    const uint32_t gt = (__ballot_sync(0xffffffffu, state > 0) >> base) & mask;
    if (ne == 0) return true;
    return ((gt >> (31 - __clz(int(ne)))) & 1u) != 0;
  }
  // r = x - y over the segment; returns the borrow out of its top lane.
  __device__ __forceinline__ static uint32_t sub(uint32_t (&r)[Q], const uint32_t (&x)[Q], const uint32_t (&y)[Q]) {
    const uint32_t borrow = sub_n<Q>(r, x, y);
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(borrow != 0, all_equal<Q>(r, 0u), &out);
    sub_1<Q>(r, in);
    return out;
  }
  __device__ __forceinline__ void clear_above_n(uint32_t (&r)[Q]) const {
    if (first >= n) {
#pragma unroll
      for (int k = 0; k < Q; ++k) r[k] = 0;
    }
  }

  // r = (t << s) mod m' >> s = t mod m, t the len-limb number in shared
  // memory with (t << s) < 2^(64n). Leaves the region free (last access
  // followed by __syncwarp).
  __device__ __forceinline__ void reduce(uint32_t (&r)[Q], uint32_t len) const {
    uint32_t q1[Q], xl[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t i = first + uint32_t(k);
      q1[k] = i < n ? shl(int64_t(n) + i, len) : 0u;
      xl[k] = i < n ? shl(i, len) : 0u;
    }
    const uint32_t xn = shl(n, len);
    __syncwarp();  // every read of t is done: product 3's sink reuses the region
    // q = q1 + high half of q1 mu_lo. The product's hi is limbs [n, n + N);
    // those past 2n are 0 (q1 mu_lo < 2^(64n)), so lanes >= blocks add zeros
    // and lane `blocks` receives the carry: bit n of q.
    uint32_t q[Q];
    {
      uint32_t mu[Q];  // mu_lo, blocked (zero past n)
      load_blocked<Q>(mu, consts + 2 * N, first, N, true);
      WarpMulBlockRotate<L, Q>().run(q, q1, mu, blocks, [](uint32_t, uint32_t(&)[Q], bool) {});
    }
    {
      const uint32_t c = add_n<Q>(q, q, q1);
      uint32_t out;
      const uint32_t in = WarpCarryResolve<L>().resolve(c != 0, all_equal<Q>(q, ~0u), &out);
      add_1<Q>(q, in);
      const uint32_t above = __shfl_sync(0xffffffffu, q[0], int(blocks & uint32_t(L - 1)), L);
      const uint32_t d = blocks < uint32_t(L) ? above : out;
      // r = x - q m' mod 2^(32(n+1)): q as the broadcast operand (lanes <
      // blocks only, so lane `blocks`' carry limb is not read); the sink
      // hands limbs [sQ, sQ + Q) out on the top lane, limb n is lane 0's
      // hi[0]; d 2^(32n) m' adds d m'_0 to limb n.
      uint32_t p2[Q], mp[Q];  // m', blocked (zero past n)
      load_blocked<Q>(mp, consts + N, first, N, true);
      WarpMulBlockRotate<L, Q>().run(p2, mp, q, blocks, [&](uint32_t s, uint32_t(&low)[Q], bool owner) {
        if (owner) {
#pragma unroll
          for (int k = 0; k < Q; ++k) sm[pad(s * uint32_t(Q) + uint32_t(k))] = low[k];
        }
      });
      __syncwarp();
      const uint32_t p2n = __shfl_sync(0xffffffffu, p2[0], 0, L);
      const uint32_t m0 = __shfl_sync(0xffffffffu, mp[0], 0, L);
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t i = first + uint32_t(k);
        p2[k] = i < n ? sm[pad(i)] : 0u;
      }
      uint32_t rn = xn - p2n - d * m0 - sub(r, xl, p2);
      clear_above_n(r);
      // 0 <= r < 5 m' (barrett.hpp): at most four subtractions; the loop
      // ends when no segment of the warp needs one (ballot: warp-uniform).
      for (uint32_t pass = 0; pass < kWBarrettMaxCorrections; ++pass) {
        const bool r_ge = ge(r, mp);  // ballots: every lane, before the || below
        const bool need = rn != 0 || r_ge;
        if (__ballot_sync(0xffffffffu, need) == 0) break;
        uint32_t y[Q];
#pragma unroll
        for (int k = 0; k < Q; ++k) y[k] = need ? mp[k] : 0u;
        rn -= sub(r, r, y);
        clear_above_n(r);
      }
    }
    // r < m' < 2^(32n): result r >> s.
    __syncwarp();
#pragma unroll
    for (int k = 0; k < Q; ++k)
      if (first + uint32_t(k) < n) sm[pad(first + uint32_t(k))] = r[k];
    __syncwarp();
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t i = first + uint32_t(k);
      r[k] = i < n ? shr(i, n) : 0u;
    }
    __syncwarp();
  }

  // v = v mod m for an operand v < 2^(32 n): one conditional subtraction,
  // then, where some segment of the warp still has v >= m, the reduction.
  __device__ __forceinline__ void reduce_operand(uint32_t (&v)[Q]) const {
    uint32_t m[Q];
    load_blocked<Q>(m, consts, first, N, true);
    bool big = ge(v, m);
    if (__ballot_sync(0xffffffffu, big) == 0) return;
    uint32_t y[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) y[k] = big ? m[k] : 0u;
    sub(v, v, y);
    big = ge(v, m);
    if (__ballot_sync(0xffffffffu, big) == 0) return;
#pragma unroll
    for (int k = 0; k < Q; ++k)
      if (first + uint32_t(k) < n) sm[pad(first + uint32_t(k))] = v[k];
    __syncwarp();
    reduce(v, n);
  }
};

// mulmod (args.b set) and sqrmod (args.b null), shared modulus, constants in
// args.scratch. `smem`: the block's WarpBarrett<L, Q>::kSegments regions.
template <int L, int Q>
__device__ __forceinline__ void wbarrett_mulmod_body(const KernelArgs& args, uint32_t* smem) {
  using WB = WarpBarrett<L, Q>;
  const uint32_t local = threadIdx.x / uint32_t(L);
  const uint64_t instance = uint64_t(blockIdx.x) * args.ipb + local;
  const bool active = local < args.ipb && instance < args.count;
  const uint32_t* sc = static_cast<const uint32_t*>(args.scratch);
  WB w;
  w.sm = smem + local * WB::kStride;
  w.lane = threadIdx.x & uint32_t(L - 1);
  w.first = w.lane * uint32_t(Q);
  const uint32_t s = sc[0];
  w.n = sc[1];
  w.blocks = w.n / uint32_t(Q);
  w.ws = s / 32;
  w.bs = s % 32;
  w.consts = sc + kWBarrettHeader;
  uint32_t a[Q], b[Q];
  const uint32_t* pa = static_cast<const uint32_t*>(args.a);
  load_blocked<Q>(a, pa + (active ? instance * args.limbs : 0), w.first, args.limbs, active);
  w.reduce_operand(a);
  if (args.b) {
    const uint32_t* pb = static_cast<const uint32_t*>(args.b);
    load_blocked<Q>(b, pb + (active ? instance * args.b_limbs : 0), w.first, args.b_limbs, active);
    w.reduce_operand(b);
  } else {
#pragma unroll
    for (int k = 0; k < Q; ++k) b[k] = a[k];
  }
  // t = a b: limbs [0, n) leave through the sink, [n, 2n) are hi on lanes < blocks.
  uint32_t hi[Q];
  WarpMulBlockRotate<L, Q>().run(hi, a, b, w.blocks, [&](uint32_t blk, uint32_t(&low)[Q], bool owner) {
    if (owner) {
#pragma unroll
      for (int k = 0; k < Q; ++k) w.sm[WB::pad(blk * uint32_t(Q) + uint32_t(k))] = low[k];
    }
  });
#pragma unroll
  for (int k = 0; k < Q; ++k)
    if (w.first < w.n) w.sm[WB::pad(w.n + w.first + uint32_t(k))] = hi[k];
  __syncwarp();
  uint32_t r[Q];
  w.reduce(r, 2 * w.n);
  uint32_t* dst = static_cast<uint32_t*>(args.r) + (active ? instance * args.out_limbs : 0);
  store_blocked<Q>(dst, r, w.first, args.out_limbs, active);
}

#if !defined(BIGTUNE_WARP_EMULATION)
template <int L, int Q>
__global__ void __launch_bounds__(kWBarrettThreads) wbarrett_mulmod_kernel(KernelArgs args) {
  __shared__ uint32_t smem[WarpBarrett<L, Q>::kSegments * WarpBarrett<L, Q>::kStride];
  wbarrett_mulmod_body<L, Q>(args, smem);
}
#endif

}  // namespace bigtune::kernels::warp
