// __global__ kernels of the warp family: L lanes per instance (32 / L
// instances per warp), Q 32-bit limbs per lane, so at most L*Q*32 bits.
// Index math, blocked load, one warp primitive (kernels/warp/), store.
// Every thread of the block runs the primitive (lanes of absent instances on
// zeros): shuffles and ballots use full warp masks.
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/mul_block_rotate.cuh"
#include "kernels/warp/mul_sum_rotate.cuh"

namespace bigtune::kernels::variants {

// __launch_bounds__ of the warp kernels. ptxas (CUDA 13.0, sm_90, 2026-11-22)
// registers per thread: add/sub 19-32; products Q=2..8: 27-51, Q=16: 64
// (sqr) / 89 (mul); divmod 30-60, Q=16: 82-88. All fit 512 threads (128 per
// thread) without spills.
constexpr uint32_t kWarpMaxThreads = 512;

template <int L>
struct WarpIndex {
  uint64_t instance;  // global instance of this thread
  uint32_t lane;      // rank within the instance's segment
  bool active;
  __device__ explicit WarpIndex(const KernelArgs& args) {
    const uint32_t local = threadIdx.x / L;
    lane = threadIdx.x & uint32_t(L - 1);
    instance = uint64_t(blockIdx.x) * args.ipb + local;
    active = local < args.ipb && instance < args.count;
  }
};

// add / sub: r = a +- b mod 2^bits; flag = bit `bits` of the sum (add) or the
// borrow a < b (sub). One carry chain per lane, one ballot resolution.
template <int L, int Q, bool kSub>
__global__ void __launch_bounds__(kWarpMaxThreads) warp_add_sub_kernel(KernelArgs args) {
  const WarpIndex<L> t(args);
  const uint32_t m = args.limbs, first = t.lane * Q;
  const uint64_t off = t.active ? t.instance * m : 0;
  uint32_t x[Q], y[Q];
  warp::load_blocked<Q>(x, static_cast<const uint32_t*>(args.a) + off, first, m, t.active);
  warp::load_blocked<Q>(y, static_cast<const uint32_t*>(args.b) + off, first, m, t.active);
  const uint32_t local = kSub ? warp::sub_n<Q>(x, x, y) : warp::add_n<Q>(x, x, y);
  const bool propagate = warp::all_equal<Q>(x, kSub ? 0u : ~0u);
  uint32_t segment_out;
  const uint32_t in = warp::WarpCarryResolve<L>().resolve(local != 0, propagate, &segment_out);
  if (kSub) warp::sub_1<Q>(x, in);
  else warp::add_1<Q>(x, in);

  // Flag: the borrow out of the segment, or bit `bits` of the sum (a limb of
  // some lane, or the segment's carry when bits fills all L*Q limbs).
  int32_t flag = -1;  // -1: not this lane's to write
  const uint64_t word = args.bits / 32;
  if (kSub || word >= uint64_t(L) * Q) {
    if (t.lane == 0) flag = int32_t(segment_out);
  } else {
#pragma unroll
    for (int k = 0; k < Q; ++k)
      if (first + k == word) flag = int32_t((x[k] >> (args.bits % 32)) & 1u);
  }
  if (args.flags && t.active && flag >= 0) args.flags[t.instance] = uint32_t(flag);
  warp::mask_to_bits<Q>(x, first, args.bits);
  warp::store_blocked<Q>(static_cast<uint32_t*>(args.r) + (t.active ? t.instance * args.out_limbs : 0), x, first,
                         args.out_limbs, t.active);
}

// mul_low, mul and (kSquare) sqr: r = a * b mod 2^bits, out_limbs limbs
// (limbs past the product are 0). Steps only over b's limbs (S = blocks*Q);
// the window's high part is resolved and stored only when the result
// reaches past limb S (full products). Product: the one-digit sum-rotate
// (warp::WarpMulSumRotate) or the one-lane block-rotate
// (warp::WarpMulBlockRotate); both have the same run() contract.
template <int L, int Q, bool kSquare, template <int, int> class Product = warp::WarpMulSumRotate>
__global__ void __launch_bounds__(kWarpMaxThreads) warp_mul_kernel(KernelArgs args) {
  const WarpIndex<L> t(args);
  const uint32_t m = args.limbs, first = t.lane * Q, out = args.out_limbs;
  const uint64_t off = t.active ? t.instance * m : 0;
  uint32_t a[Q], b[Q];
  warp::load_blocked<Q>(a, static_cast<const uint32_t*>(args.a) + off, first, m, t.active);
  if constexpr (kSquare) {
#pragma unroll
    for (int k = 0; k < Q; ++k) b[k] = a[k];
  } else {
    warp::load_blocked<Q>(b, static_cast<const uint32_t*>(args.b) + off, first, m, t.active);
  }
  uint32_t* r = static_cast<uint32_t*>(args.r) + (t.active ? t.instance * out : 0);
  const uint32_t blocks = (m + Q - 1) / Q;
  const uint64_t bits = args.bits;
  uint32_t hi[Q];
  Product<L, Q>().run(hi, a, b, blocks, [&](uint32_t s, uint32_t(&low)[Q], bool owner) {
    // Only the block holding bit `bits` needs the mask (a uniform branch):
    // the sink runs on the owner lane while the rest of the warp waits, so
    // its instructions count for every lane (SASS, sm_90: ~90 with the mask
    // on every block, bench/notes/warp-multiplication.md).
    if (uint64_t(s + 1) * (Q * 32) > bits) warp::mask_to_bits<Q>(low, s * Q, bits);
    warp::store_blocked<Q>(r, low, s * Q, out, t.active && owner);
  }, /*want_high=*/out > blocks * Q);
  const uint32_t steps = blocks * Q;
  if (out > steps) {
    warp::mask_to_bits<Q>(hi, steps + first, bits);
    warp::store_blocked<Q>(r, hi, steps + first, out, t.active);
    // Limbs past S + N (a result batch wider than any product) are zero.
    for (uint32_t p = steps + uint32_t(L * Q) + t.lane * 2; p < out; p += 2 * L)
      if (t.active) *reinterpret_cast<uint2*>(r + p) = make_uint2(0, 0);
  }
}

}  // namespace bigtune::kernels::variants
