// Warp low-half product by halves (mul_low, issue 4, task smallmul): the
// warp Karatsuba's layout (kernels/variants/warp_kara.cuh) with the three
// half products chosen for a result of N = 2H limbs only:
//   a b mod B^2H = P0 + B^H (X + Y) mod B^2H,  P0 = a0 b0 (full, 2H limbs),
//   X = a0 b1 mod B^H,  Y = a1 b0 mod B^H      (B = 2^32, a = a0 + B^H a1).
// Why: the block-rotate product (kernels/warp/mul_block_rotate.cuh) cannot
// skip the upper triangle of a low half — its lanes run in lock-step and only
// the last block's upper Q(Q-1)/2 digit products are dropped — so its mul_low
// costs nearly a full product: 3.93e8/s at 4 Kbit against the full product's
// 3.67e8 (bench/results/2026-11-22-h100-mulsmall.md). The warp Karatsuba full
// product is 4.41e8/s there; this form runs the same H-limb block-rotate
// product three times too, but two of them are low halves (the last block's
// upper triangle skipped: at L = 4, Q = 16 120 of 1024 digit products each),
// needs no signed differences (two fewer ballot resolutions per operand),
// 4 shared regions instead of 6 (8 KB per one-warp block at Q = 16), a
// one-quarter combine and half the result stores.
//
// Digit products per instance: H^2 + 2 (H^2 - L Q(Q-1)/2): at 4 Kbit (L = 4)
// 4096 + 2 x 3976 = 12048 against wkara's 3 x 4096 = 12288 and the
// schoolbook low half's N(N+1)/2 = 8256 (which the lock-step warp cannot
// realise). Bound (bench/notes/warp-multiplication.md, 7.41e12 digit
// products/s): 6.15e8/s at 4 Kbit; at wkara's 73 % of its bound, ~4.5e8.
//
// Shared memory: 4 regions of Q words per lane, lane-private columns (word
// (region Q + k) * 32 + lane, as warp_kara.cuh):
//   region 0: a0 -> P0 low     region 1: b0 -> P0 high
//   region 2: a1 -> Y          region 3: b1 -> X
// Phase order Y (reads 2, 1), X (reads 0, 3), P0 (reads 0, 1): each product
// writes only a region no later phase reads. Operands of at most H limbs:
// a1 = b1 = 0 (their regions hold zeros), X and Y are skipped.
//
// Combine: lane j's chunk of the low quarter is P0lo's chunk j; of the upper
// quarter, P0hi + X + Y chunk j (three terms: carry <= 2 into chunk j + 1,
// then 0/1 carries resolved by one ballot, seed 002 §3 Alg. 3); the carry out
// of the top chunk lies past B^2H and is dropped.
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/warp_kara.cuh"  // kWarpKaraMaxThreads
#include "kernels/variants/warp_mul_rounds.cuh"  // rounds_detail::mask_limbs
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/mul_block_rotate.cuh"

namespace bigtune::kernels::variants {

// mul_low: r = a * b mod 2^bits (args.bits = result bits), out_limbs limbs,
// limbs of the result at or above 2H zero; operands of args.limbs <= 2 L Q limbs.
template <int L, int Q>
__global__ void __launch_bounds__(kWarpKaraMaxThreads) warp_kara_low_kernel(KernelArgs args) {
  static_assert(L == 4 || L == 8 || L == 16 || L == 32, "lanes per instance");
  constexpr uint32_t H = uint32_t(L) * Q;  // limbs of a half
  __shared__ uint32_t slots[4 * Q * 32];
  const uint32_t wl = threadIdx.x & 31u, seg = wl & ~uint32_t(L - 1), j = wl & uint32_t(L - 1);
  const uint32_t local = threadIdx.x / L;
  const uint64_t instance = uint64_t(blockIdx.x) * args.ipb + local;
  const bool active = local < args.ipb && instance < args.count;
  const uint32_t m = args.limbs, out = args.out_limbs, first = j * Q;
  const auto slot = [&](uint32_t region, int k, uint32_t lane) -> uint32_t& {
    return slots[(region * Q + uint32_t(k)) * 32 + lane];
  };

  const uint64_t off = active ? instance * m : 0;
#pragma unroll 1
  for (int o = 0; o < 2; ++o) {
    const uint32_t* p = static_cast<const uint32_t*>(o == 0 ? args.a : args.b) + off;
    uint32_t x0[Q], x1[Q];
    warp::load_blocked<Q>(x0, p, first, m, active);
    warp::load_blocked<Q>(x1, p, H + first, m, active);
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      slot(0 + o, k, wl) = x0[k];
      slot(2 + o, k, wl) = x1[k];
    }
  }
  __syncwarp();

  // Blocks of Q steps = chunks of the y operand in use: b0 has min(m, H)
  // limbs, b1 m - H.
  const uint32_t low_blocks = (m < H ? m + Q - 1 : H + Q - 1) / Q;
  const uint32_t high_blocks = m > H ? (m - H + Q - 1) / Q : 0;
#pragma unroll 1
  for (uint32_t phase = high_blocks ? 0 : 2; phase < 3; ++phase) {
    // phase 0: Y = a1 b0 -> region 2; 1: X = a0 b1 -> region 3; 2: P0 -> 0, 1.
    const uint32_t rx = phase == 0 ? 2 : 0, ry = phase == 1 ? 3 : 1, dest = phase == 1 ? 3 : rx;
    uint32_t x[Q], y[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) x[k] = slot(rx, k, wl), y[k] = slot(ry, k, wl);
    __syncwarp();  // every lane holds its operands before the sink overwrites them
    const uint32_t blocks = phase == 1 ? high_blocks : low_blocks;
    // A low half with all L blocks needs only the sink's chunks (the last
    // block's upper triangle is skipped); with fewer blocks, chunks blocks ..
    // L - 1 come from the lanes' high part.
    const bool full = phase == 2 || blocks < uint32_t(L);
    uint32_t hi[Q];
    warp::WarpMulBlockRotate<L, Q>().run(
        hi, x, y, blocks,
        [&](uint32_t s, uint32_t(&low)[Q], bool owner) {
          // Product limbs [sQ, sQ + Q): chunk s of the low half, lane s's column.
          if (owner) {
#pragma unroll
            for (int k = 0; k < Q; ++k) slot(dest, k, seg + s) = low[k];
          }
        },
        full);
    if (full) {
      // hi = product limbs [(blocks + j) Q, ...): chunk blocks + j.
      const uint32_t chunk = blocks + j;
      if (phase == 2) {
        // P0: chunks below L to region 0, chunks L .. 2L - 1 to region 1;
        // those at or above `blocks` + L lie above the product (zero).
        const uint32_t region = chunk < uint32_t(L) ? 0u : 1u;
        const uint32_t target = seg + (chunk < uint32_t(L) ? chunk : chunk - L);
#pragma unroll
        for (int k = 0; k < Q; ++k) slot(region, k, target) = hi[k];
        if (j >= blocks) {
#pragma unroll
          for (int k = 0; k < Q; ++k) slot(1, k, wl) = 0;
        }
      } else if (chunk < uint32_t(L)) {
#pragma unroll
        for (int k = 0; k < Q; ++k) slot(dest, k, seg + chunk) = hi[k];
      }
    }
    __syncwarp();
  }

  // Combine: lane j holds chunk j of the low quarter and of the upper one.
  uint32_t* r = static_cast<uint32_t*>(args.r) + (active ? instance * out : 0);
  const uint64_t bits = args.bits;
  const uint32_t top = bits / 32 > 0xffffffffull ? 0xffffffffu : uint32_t(bits / 32);
  const uint32_t top_mask = (uint32_t(1) << (bits % 32)) - 1u;
  uint32_t r0[Q], r1[Q];
  uint64_t c = 0;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    r0[k] = slot(0, k, wl);
    c += uint64_t(slot(1, k, wl)) + slot(2, k, wl) + slot(3, k, wl);
    r1[k] = uint32_t(c);
    c >>= 32;
  }
  rounds_detail::mask_limbs<Q>(r0, first, top, top_mask);
  warp::store_blocked<Q>(r, r0, first, out, active);
  // Each chunk's carry (<= 2) into the chunk above; then 0/1 carries (a chunk
  // that carried holds <= 1, so it does not also propagate): one resolution.
  const uint32_t up = __shfl_up_sync(0xffffffffu, uint32_t(c), 1, L);
  const bool carried = warp::add_1<Q>(r1, j ? up : 0u) != 0;
  uint32_t unused;
  const uint32_t in = warp::WarpCarryResolve<L>().resolve(carried, warp::all_equal<Q>(r1, ~0u), &unused);
  warp::add_1<Q>(r1, in);
  rounds_detail::mask_limbs<Q>(r1, H + first, top, top_mask);
  warp::store_blocked<Q>(r, r1, H + first, out, active);
  // Limbs past 2H (a result batch wider than the low half) are zero.
  for (uint32_t p = 2 * H + j * 2; p < out; p += 2 * L)
    if (active) *reinterpret_cast<uint2*>(r + p) = make_uint2(0, 0);
}

}  // namespace bigtune::kernels::variants
