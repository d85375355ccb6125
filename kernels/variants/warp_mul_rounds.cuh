// The warp block-rotate product (kernels/warp/mul_block_rotate.cuh, seed 002
// §3 Alg. 3 with one-lane shifts) in rounds: each block runs R rounds of
// `ipb` instances one after the other, and while it multiplies round r it has
// round r + 1's operands on their way into L1 (prefetch.global.L1, no
// registers held), so that the operand latency of a round is paid once per
// block instead of once per round. Why (bench/notes/warp-multiplication.md,
// "mulsmall"): at 1 Kbit the one-round kernel moves 2.07 TB/s and issues 65 %
// of the SM's instruction slots; its 512-thread blocks start together, load
// together and then multiply together, so the SM idles for a load latency per
// block. Also cheaper than warp_mul_kernel's result masks: 32-bit positions
// and a per-lane test that skips lanes wholly below bit `bits` (the 64-bit
// compares were ~7 SASS instructions per limb on every lane, ~130 per 1-Kbit
// instance, ~10 % of its instructions).
//
// Geometry (kernels/warp/warp_rounds_shapes.cpp): L lanes per instance, ipb
// instances per round, threads per block ipb * L as for the one-round kernel;
// the launch divides the grid by R. Block b, round r, segment k: instance
// (b R + r) ipb + k. Same results, layout and limits as warp_mul_kernel
// (mul_low / mul; sqr is not instantiated here).
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/mul_block_rotate.cuh"

namespace bigtune::kernels::variants {

constexpr uint32_t kWarpRoundsMaxThreads = 512;

namespace rounds_detail {
// Asks L1 for the line holding p; no register result, nothing to wait for.
__device__ __forceinline__ void prefetch_l1(const void* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

// Limbs [first, first + Q) of a number reduced modulo 2^bits, with
// top = min(bits / 32, 2^32 - 1), top_mask = 2^(bits % 32) - 1. Lanes whose
// limbs all lie below limb `top` skip the loop.
template <int Q>
__device__ __forceinline__ void mask_limbs(uint32_t (&x)[Q], uint32_t first, uint32_t top, uint32_t top_mask) {
  if (first + uint32_t(Q) <= top) return;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t pos = first + uint32_t(k);
    x[k] = pos < top ? x[k] : pos == top ? (x[k] & top_mask) : 0u;
  }
}
}  // namespace rounds_detail

// mul_low and mul: r = a * b mod 2^bits in out_limbs limbs (limbs past the
// product are 0), as warp_mul_kernel<L, Q, false, WarpMulBlockRotate>.
template <int L, int Q, int R>
__global__ void __launch_bounds__(kWarpRoundsMaxThreads) warp_mul_rounds_kernel(KernelArgs args) {
  static_assert(R >= 1, "at least one round");
  const uint32_t local = threadIdx.x / L, lane = threadIdx.x & uint32_t(L - 1);
  const uint32_t m = args.limbs, first = lane * Q, out = args.out_limbs;
  const uint32_t blocks = (m + Q - 1) / Q, steps = blocks * Q;
  const uint64_t bits = args.bits;
  const uint32_t top = bits / 32 > 0xffffffffull ? 0xffffffffu : uint32_t(bits / 32);
  const uint32_t top_mask = (uint32_t(1) << (bits % 32)) - 1u;
  const bool in_block = local < args.ipb;
  const bool want_high = out > steps;
  const uint64_t first_instance = uint64_t(blockIdx.x) * R * args.ipb + local;
  const uint32_t* const pa = static_cast<const uint32_t*>(args.a);
  const uint32_t* const pb = static_cast<const uint32_t*>(args.b);
  for (int round = 0; round < R; ++round) {
    const uint64_t instance = first_instance + uint64_t(round) * args.ipb;
    const bool active = in_block && instance < args.count;
    // Round r + 1's operand lines, requested before round r's loads: the first
    // and the last limb of this lane's span (one line, or two when the span
    // straddles a 128-byte line).
    if (round + 1 < R) {
      const uint64_t next = instance + args.ipb;
      if (in_block && next < args.count && first < m) {
        const uint64_t at = next * m + first, last = next * m + (first + Q <= m ? first + Q - 1 : m - 1);
        rounds_detail::prefetch_l1(pa + at);
        rounds_detail::prefetch_l1(pa + last);
        rounds_detail::prefetch_l1(pb + at);
        rounds_detail::prefetch_l1(pb + last);
      }
    }
    const uint64_t off = active ? instance * m : 0;
    uint32_t a[Q], b[Q];
    warp::load_blocked<Q>(a, pa + off, first, m, active);
    warp::load_blocked<Q>(b, pb + off, first, m, active);
    uint32_t* r = static_cast<uint32_t*>(args.r) + (active ? instance * out : 0);
    uint32_t hi[Q];
    warp::WarpMulBlockRotate<L, Q>().run(hi, a, b, blocks, [&](uint32_t s, uint32_t(&low)[Q], bool owner) {
      // The mask touches only the block holding limb `top` (a uniform branch).
      if (s * Q + Q > top) rounds_detail::mask_limbs<Q>(low, s * Q, top, top_mask);
      warp::store_blocked<Q>(r, low, s * Q, out, active && owner);
    }, want_high);
    if (want_high) {
      rounds_detail::mask_limbs<Q>(hi, steps + first, top, top_mask);
      warp::store_blocked<Q>(r, hi, steps + first, out, active);
      // Limbs past S + N (a result batch wider than any product) are zero.
      for (uint32_t p = steps + uint32_t(L * Q) + lane * 2; p < out; p += 2 * L)
        if (active) *reinterpret_cast<uint2*>(r + p) = make_uint2(0, 0);
    }
  }
}

}  // namespace bigtune::kernels::variants
