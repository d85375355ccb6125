// Warp Karatsuba: one level of Karatsuba fused inside the warp block-rotate
// product (kernels/warp/mul_block_rotate.cuh), for full products and squares
// of 4-16 Kbit (issues 2 and 4, task warpkara).
//
// Why: the block-rotate product runs at 81-85 % of the IMAD.WIDE bound at
// 4-16 Kbit (bench/results/2026-11-22-h100-mulsmall.md), so the schoolbook
// cannot reach CGBN there; Karatsuba's three half products are 3/4 of the
// digit products. The three-launch Karatsuba (kernels/block/karatsuba.hpp)
// pays two global round trips and block barriers per level and wins only
// from 32 Kbit (bench/notes/karatsuba.md); here nothing leaves the warp.
//
// Layout: an instance of N = 2H limbs (H = L*Q) on a segment of L lanes;
// lane j loads a0 limbs [jQ, jQ + Q) and a1 limbs [H + jQ, H + jQ + Q), so
// that each half is blocked over the L lanes exactly as the block-rotate
// product wants it: the half products are WarpMulBlockRotate<L, Q>, the
// existing, tuned Q = 16 loop on H-limb operands (at Q = 8 the loop costs 4.3 SASS instructions per digit product against 2.8,
// bench/notes/warp-multiplication.md, so halving Q instead of L would give
// back most of the saving).
//   P0 = a0 b0, P1 = a1 b1, Pm = |a0 - a1| |b0 - b1|, s = sign of
//   (a0 - a1)(b0 - b1); a b = P0 + B^H (P0 + P1 - s Pm) + B^2H P1 (B = 2^32).
// The subtractive form keeps every operand at H limbs (no carry limb, so the
// same H-limb product serves all three).
//
// Shared memory: 6 regions of Q words per lane, lane-private columns
// (word (region Q + k) * 32 + lane: conflict-free), 12 KB per one-warp block
// at Q = 16:
//   regions 0, 1: a0, b0 -> P0 low, P0 high (limbs [0, H), [H, 2H))
//   regions 2, 3: a1, b1 -> P1 low, P1 high
//   regions 4, 5: |a0 - a1|, |b0 - b1| -> Pm low, Pm high
// Each phase reads its two operand regions into registers, then the product
// writes its result over them: the low half leaves through the block-rotate
// sink (block s on the segment's top lane -> lane s's column), the high half
// from every lane. The three phases are one loop, so the Q = 16 product is
// inlined once (compile time, I-cache).
//
// Combine (one carry pass): with the product's four quarters in chunks of Q
// limbs, lane j's chunk of quarter g is limbs [gH + jQ, gH + jQ + Q):
//   r0 = P0lo
//   r1 = P0hi + P0lo + P1lo + (s > 0 ? ~Pmlo + 1 : Pmlo)
//   r2 = P1lo + P0hi + P1hi + (s > 0 ? ~Pmhi : Pmhi)
//   r3 = P1hi + (s > 0 ? B^H - 1 : 0)
// where ~Pm + 1 = B^2H - Pm, and the -B^2H it leaves at limb 3H is added as
// B^4H - B^3H = (B^H - 1) B^3H (everything is mod B^4H, and the true product
// is below B^4H). So all terms are non-negative: a lane's chunk carries
// c <= 3 out; the chunk above adds it (then at most 1 out), and the 0/1
// carries of the 3L chunks of r1..r3 are resolved by one generate/propagate
// vote over 3L <= 48 bits (kernels/warp/carry_vote.hpp, seed 002 §3 Alg. 3's
// vote). Hence L <= 16 (L = 32 would need a 96-bit vote).
//
// Cost per instance (digit products): 3 H^2 = 3/4 N^2; extra work per lane:
// two signed differences (2 ballot resolutions each), Q shared stores per
// product block on the top lane (the sink), the combine (~6 Q loads and ~12 Q
// integer ops), 6 ballots. Operands of any size up to 2H limbs: limbs past
// args.limbs read as zero; P1 and Pm run only the blocks their operands need.
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/warp_mul_rounds.cuh"  // rounds_detail::mask_limbs
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/carry_vote.hpp"
#include "kernels/warp/mul_block_rotate.cuh"

namespace bigtune::kernels::variants {

// One warp per block (the shared array is static, sized for 32 lanes).
constexpr uint32_t kWarpKaraMaxThreads = 32;

namespace wkara_detail {
// d = |x - y| over a segment of L lanes (Q limbs each, blocked); returns
// x < y (the same on every lane of the segment). Two ballot resolutions:
// the borrow of x - y, then the carry of the two's complement when negative.
// All 32 lanes, converged.
template <int L, int Q>
__device__ __forceinline__ bool abs_sub(uint32_t (&d)[Q], const uint32_t (&x)[Q], const uint32_t (&y)[Q],
                                        uint32_t lane) {
  const uint32_t borrow = warp::sub_n<Q>(d, x, y);
  uint32_t negative = 0;
  uint32_t in = warp::WarpCarryResolve<L>().resolve(borrow != 0, warp::all_equal<Q>(d, 0u), &negative);
  warp::sub_1<Q>(d, in);
  // -d mod B^H = ~d + 1 (d != 0 here); a select, not a branch: segments of
  // one warp may differ in sign and the resolution needs every lane.
  const uint32_t flip = negative ? ~0u : 0u;
#pragma unroll
  for (int k = 0; k < Q; ++k) d[k] ^= flip;
  const uint32_t carry = warp::add_1<Q>(d, negative && lane == 0 ? 1u : 0u);
  uint32_t unused;
  in = warp::WarpCarryResolve<L>().resolve(carry != 0, warp::all_equal<Q>(d, ~0u), &unused);
  warp::add_1<Q>(d, in);
  return negative != 0;
}

// Bits [base, base + L) of a warp ballot: one bit per lane of this segment.
template <int L>
__device__ __forceinline__ uint64_t segment_vote(bool v, uint32_t base) {
  return (uint64_t(__ballot_sync(0xffffffffu, v)) >> base) & ((uint64_t(1) << L) - 1);
}
}  // namespace wkara_detail

// mul (kSquare = false) and sqr: r = a * b (a * a), out_limbs limbs, limbs
// past the product zero; operands of args.limbs <= 2 L Q limbs.
template <int L, int Q, bool kSquare>
__global__ void __launch_bounds__(kWarpKaraMaxThreads) warp_kara_kernel(KernelArgs args) {
  static_assert(L == 4 || L == 8 || L == 16, "the combine's vote covers 3L <= 48 chunks");
  constexpr uint32_t H = uint32_t(L) * Q;  // limbs of a half
  __shared__ uint32_t slots[6 * Q * 32];
  const uint32_t wl = threadIdx.x & 31u, seg = wl & ~uint32_t(L - 1), j = wl & uint32_t(L - 1);
  const uint32_t local = threadIdx.x / L;
  const uint64_t instance = uint64_t(blockIdx.x) * args.ipb + local;
  const bool active = local < args.ipb && instance < args.count;
  const uint32_t m = args.limbs, out = args.out_limbs, first = j * Q;
  const auto slot = [&](uint32_t region, int k, uint32_t lane) -> uint32_t& {
    return slots[(region * Q + uint32_t(k)) * 32 + lane];
  };

  // Operands, their halves' differences and signs, into the regions.
  const uint64_t off = active ? instance * m : 0;
  bool negative_a = false, negative_b = false;
#pragma unroll 1
  for (int o = 0; o < (kSquare ? 1 : 2); ++o) {
    const uint32_t* p = static_cast<const uint32_t*>(o == 0 ? args.a : args.b) + off;
    uint32_t x0[Q], x1[Q], d[Q];
    warp::load_blocked<Q>(x0, p, first, m, active);
    warp::load_blocked<Q>(x1, p, H + first, m, active);
    const bool negative = wkara_detail::abs_sub<L, Q>(d, x0, x1, j);
    if (o == 0) negative_a = negative;
    else negative_b = negative;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      slot(0 + o, k, wl) = x0[k];
      slot(2 + o, k, wl) = x1[k];
      slot(4 + o, k, wl) = d[k];
    }
  }
  // Pm is subtracted when (a0 - a1)(b0 - b1) >= 0 (always for a square).
  const bool subtract = kSquare || negative_a == negative_b;

  // The three half products. Blocks of Q steps = b-operand chunks in use:
  // a0, |a0 - a1| and their b's have min(m, H) limbs, a1 and b1 m - H.
  const uint32_t low_blocks = (m < H ? m + Q - 1 : H + Q - 1) / Q;
  const uint32_t high_blocks = m > H ? (m - H + Q - 1) / Q : 0;
#pragma unroll 1
  for (uint32_t phase = 0; phase < 3; ++phase) {
    const uint32_t rx = 2 * phase, ry = kSquare ? rx : rx + 1;
    uint32_t x[Q], y[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) x[k] = slot(rx, k, wl), y[k] = slot(ry, k, wl);
    __syncwarp();  // every lane holds its operands before the sink overwrites them
    const uint32_t blocks = phase == 1 ? high_blocks : low_blocks;
    uint32_t hi[Q];
    warp::WarpMulBlockRotate<L, Q>().run(hi, x, y, blocks, [&](uint32_t s, uint32_t(&low)[Q], bool owner) {
      // Product limbs [sQ, sQ + Q): chunk s of the low half, lane s's column.
      if (owner) {
#pragma unroll
        for (int k = 0; k < Q; ++k) slot(rx, k, seg + s) = low[k];
      }
    });
    // hi = product limbs [(blocks + j) Q, ...): chunk blocks + j of the
    // product (low half below L, high half from L); chunks of the high half
    // at or above `blocks` lie above the product (x * y < B^(H + blocks Q)).
    const uint32_t chunk = blocks + j;
    const uint32_t region = chunk < uint32_t(L) ? rx : rx + 1;
    const uint32_t target = seg + (chunk < uint32_t(L) ? chunk : chunk - L);
#pragma unroll
    for (int k = 0; k < Q; ++k) slot(region, k, target) = hi[k];
    if (j >= blocks) {
#pragma unroll
      for (int k = 0; k < Q; ++k) slot(rx + 1, k, wl) = 0;
    }
    __syncwarp();
  }

  // Combine: quarters r0..r3 of a * b, chunk j of each on lane j.
  uint32_t* r = static_cast<uint32_t*>(args.r) + (active ? instance * out : 0);
  const uint64_t bits = args.bits;
  const uint32_t top = bits / 32 > 0xffffffffull ? 0xffffffffu : uint32_t(bits / 32);
  const uint32_t top_mask = (uint32_t(1) << (bits % 32)) - 1u;
  const uint32_t flip = subtract ? ~0u : 0u;
  uint32_t r1[Q], r2[Q], r3[Q];
  {
    uint32_t r0[Q];
    uint64_t c1 = subtract && j == 0 ? 1u : 0u, c2 = 0, c3 = 0;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t p0l = slot(0, k, wl), p0h = slot(1, k, wl), p1l = slot(2, k, wl), p1h = slot(3, k, wl);
      const uint32_t pml = slot(4, k, wl) ^ flip, pmh = slot(5, k, wl) ^ flip;
      r0[k] = p0l;
      c1 += uint64_t(p0h) + p0l + p1l + pml;
      r1[k] = uint32_t(c1);
      c1 >>= 32;
      c2 += uint64_t(p1l) + p0h + p1h + pmh;
      r2[k] = uint32_t(c2);
      c2 >>= 32;
      c3 += uint64_t(p1h) + flip;
      r3[k] = uint32_t(c3);
      c3 >>= 32;
    }
    rounds_detail::mask_limbs<Q>(r0, first, top, top_mask);
    warp::store_blocked<Q>(r, r0, first, out, active);
    // Each chunk's carry (<= 3) into the chunk above: lane j - 1, or the top
    // lane of the quarter below for lane 0 (r1's lane 0: nothing, r0 is P0lo).
    const uint32_t up1 = __shfl_up_sync(0xffffffffu, uint32_t(c1), 1, L);
    const uint32_t up2 = __shfl_up_sync(0xffffffffu, uint32_t(c2), 1, L);
    const uint32_t up3 = __shfl_up_sync(0xffffffffu, uint32_t(c3), 1, L);
    const uint32_t top1 = __shfl_sync(0xffffffffu, uint32_t(c1), L - 1, L);
    const uint32_t top2 = __shfl_sync(0xffffffffu, uint32_t(c2), L - 1, L);
    const bool e1 = warp::add_1<Q>(r1, j ? up1 : 0u) != 0;
    const bool e2 = warp::add_1<Q>(r2, j ? up2 : top1) != 0;
    const bool e3 = warp::add_1<Q>(r3, j ? up3 : top2) != 0;
    // Now 0/1 carries (a chunk that carried holds <= 2, so it does not also
    // propagate): one vote over the 3L chunks in order r1, r2, r3; the carry
    // out of r3's top chunk is past B^4H (the -B^3H term above).
    using wkara_detail::segment_vote;
    const uint64_t g = segment_vote<L>(e1, seg) | segment_vote<L>(e2, seg) << L | segment_vote<L>(e3, seg) << (2 * L);
    const uint64_t pr = segment_vote<L>(warp::all_equal<Q>(r1, ~0u), seg) |
                        segment_vote<L>(warp::all_equal<Q>(r2, ~0u), seg) << L |
                        segment_vote<L>(warp::all_equal<Q>(r3, ~0u), seg) << (2 * L);
    const uint64_t in = warp::carry_vote(g, pr, 3 * L).carry_in;
    warp::add_1<Q>(r1, uint32_t(in >> j) & 1u);
    warp::add_1<Q>(r2, uint32_t(in >> (L + j)) & 1u);
    warp::add_1<Q>(r3, uint32_t(in >> (2 * L + j)) & 1u);
  }
  rounds_detail::mask_limbs<Q>(r1, H + first, top, top_mask);
  warp::store_blocked<Q>(r, r1, H + first, out, active);
  rounds_detail::mask_limbs<Q>(r2, 2 * H + first, top, top_mask);
  warp::store_blocked<Q>(r, r2, 2 * H + first, out, active);
  rounds_detail::mask_limbs<Q>(r3, 3 * H + first, top, top_mask);
  warp::store_blocked<Q>(r, r3, 3 * H + first, out, active);
  // Limbs past 4H (a result batch wider than any product) are zero.
  for (uint32_t p = 4 * H + j * 2; p < out; p += 2 * L)
    if (active) *reinterpret_cast<uint2*>(r + p) = make_uint2(0, 0);
}

}  // namespace bigtune::kernels::variants
