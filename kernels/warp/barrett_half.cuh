// Warp Barrett mulmod / sqrmod by halves for a modulus shared by the batch
// (issue 9, "mulmod with a shared modulus within 1.5x of mul"; task
// mulmodhalf): `<op>.wbarrett2.u32.q<Q>.l<L>`.
//
// Why: the fused kernel of kernels/warp/barrett_fused.cuh runs three N x N
// block-rotate products (3 N^2 digit products, measured at 89-99 % of their
// rate): the two reduction products are half products, but the block-rotate
// lanes work in lock-step, so a half costs a whole product
// (bench/notes/mulmodfast-bound.md). Here every product is split at H = N / 2
// limbs (the layout of the warp Karatsuba, kernels/variants/warp_kara.cuh, and
// of the low half by halves, warp_kara_low.cuh) and only the H x H products a
// half needs are run, each a WarpMulBlockRotate<L, Q> on H = L Q limbs
// (B = 2^32, n = 2H, x = t << s as in barrett_fused.cuh, m' = m << s,
// mu = B^n + mu_lo, HAC 14.42 / kernels/modular/barrett.hpp):
//
//   t = a b             4 products: a0 b0, a0 b1, a1 b0, a1 b1 (schoolbook)
//   q1 = x >> 32n        (n = 2H limbs)
//   q  = q1 + q1_1 mu_1 + hi(q1_0 mu_1) + hi(q1_1 mu_0)       3 products
//        (the high half of q1 mu_lo without q1_0 mu_0 and the low halves of
//        the cross products: they sum to < 3 B^2H, so q is at most 2 below
//        Barrett's floor(q1 mu / B^n))
//   r  = x - q m' mod B^(n+1): low 2H limbs of q_0 m_0 + B^H (q_0 m_1 + q_1 m_0)
//        (3 products) and limb n from limb H of the cross products plus
//        lo(q_1[0] m_1[0]) + d m_0[0] (d = bit n of q)
//   r -= m' while r >= m'  (barrett.hpp: floor(x / m') - q_exact <= 4, plus
//        the 2 above: r < 7 m' < 3.5 B^n, at most six subtractions)
//   result = r >> s
//
// Digit products: 10 H^2 = 2.5 N^2 against 3 N^2 (the reduction's two
// halves cost 1.5 N^2 instead of 2 N^2, the product N^2 as before; the
// Karatsuba product, 3 H^2, is not used yet: bench/notes/mulmodhalf-bound.md).
//
// Operands >= m: one conditional subtraction of m from a; if some segment of
// the warp still has a >= m (short moduli), first a = (a * 1) mod m by the
// same steps. b is not reduced: with a < m, x = (a b) << s < m' B^n <= B^2n,
// which is all the Barrett bound needs (barrett.hpp: any x < 2^(2N)).
//
// One warp per block (the static shared array is sized for 32 lanes), 32 / L
// instances per warp. Shared memory: 9 regions of Q words per lane (region r,
// word k, lane l at (r Q + k) 32 + l), each holding a H-limb number of each
// segment (chunk j, limbs [jQ, jQ + Q), in lane j's column), 18 KB at Q = 16.
// The ten products are one `#pragma unroll 1` loop over a phase table so
// that the Q = 16 block-rotate body is inlined once (compile time, I-cache).
//
// Scratch: kernels/modular/wbarrett_prep.hpp's layout with n = N = 2H (s, n,
// then m, m', mu_lo, N limbs each).
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/carry_vote.hpp"
#include "kernels/warp/mul_block_rotate.cuh"

namespace bigtune::kernels::warp {

constexpr uint32_t kWBarrett2Threads = 32;        // one warp per block
constexpr uint32_t kWBarrett2HeaderWords = 8;     // = modular::kWBarrettHeaderWords
constexpr uint32_t kWBarrett2MaxCorrections = 6;  // 4 (barrett.hpp) + 2 (the dropped low products)
constexpr uint32_t kWBarrett2Regions = 9;

// Phase table: 4 bits per phase p (bits [4p, 4p + 4)). x and y: region, or
// for y 12..15 a half of a constant in scratch (12 mu_lo low, 13 mu_lo high,
// 14 m' low, 15 m' high). lo / hi: destination regions of the product's two
// halves (region 8 as a sink for halves that are not needed).
//   p0 P00 = x0 y0 -> 4, 5    p1 P01 = x0 y1 -> 6, 7    p2 P10 = x1 y0 -> 0, 8
//   p3 P11 = x1 y1 -> 1, 2    (then t -> regions 4..7, x low -> 0, 1, q1 -> 2, 3)
//   p4 q1_1 mu_1 -> 4, 5      p5 q1_0 mu_1 -> 6, 7      p6 q1_1 mu_0 -> 6, 8
//   (then q -> 2, 3)
//   p7 q_0 m_0 -> 4, 5        p8 q_0 m_1 -> 6, (8)      p9 q_1 m_0 -> 7, (8)
namespace wb2_detail {
constexpr uint64_t nibbles(const int (&v)[10]) {
  uint64_t r = 0;
  for (int i = 0; i < 10; ++i) r |= uint64_t(v[i]) << (4 * i);
  return r;
}
constexpr int kX[10] = {0, 0, 1, 1, 3, 2, 3, 2, 2, 3};
constexpr int kY[10] = {2, 3, 2, 3, 13, 13, 12, 14, 15, 14};
constexpr int kLo[10] = {4, 6, 0, 1, 4, 6, 6, 4, 6, 7};
constexpr int kHi[10] = {5, 7, 8, 2, 5, 7, 8, 5, 8, 8};
constexpr uint64_t kXT = nibbles(kX), kYT = nibbles(kY), kLoT = nibbles(kLo), kHiT = nibbles(kHi);
__device__ __forceinline__ uint32_t field(uint64_t table, uint32_t p) { return uint32_t(table >> (4 * p)) & 15u; }

// Bits [base, base + L) of a warp ballot: one bit per lane of this segment.
template <int L>
__device__ __forceinline__ uint64_t vote(bool v, uint32_t base) {
  return (uint64_t(__ballot_sync(0xffffffffu, v)) >> base) & ((uint64_t(1) << L) - 1);
}
}  // namespace wb2_detail

template <int L, int Q>
struct WarpBarrett2 {
  static_assert(L == 2 || L == 4 || L == 8 || L == 16, "2L <= 32 chunks in one carry vote");
  static constexpr uint32_t H = uint32_t(L * Q);  // limbs of a half
  static constexpr uint32_t N = 2 * H;            // limbs of an operand (and of the Barrett width n)
  static constexpr uint32_t kSharedWords = kWBarrett2Regions * uint32_t(Q) * 32;

  uint32_t* slots;         // the block's shared regions
  const uint32_t* consts;  // m, m', mu_lo in scratch (N limbs each)
  uint32_t wl, seg, j, first, ws, bs;

  __device__ __forceinline__ uint32_t& slot(uint32_t region, uint32_t k, uint32_t lane) const {
    return slots[(region * uint32_t(Q) + k) * 32u + lane];
  }
  // Limb i of the number held in regions base, base + 1, ... (len limbs); 0 outside.
  __device__ __forceinline__ uint32_t limb(uint32_t base, int64_t i, uint32_t len) const {
    if (i < 0 || i >= int64_t(len)) return 0u;
    const uint32_t u = uint32_t(i);
    return slot(base + u / H, u % uint32_t(Q), seg + (u % H) / uint32_t(Q));
  }
  __device__ __forceinline__ void load_region(uint32_t (&x)[Q], uint32_t region) const {
#pragma unroll
    for (int k = 0; k < Q; ++k) x[k] = slot(region, uint32_t(k), wl);
  }
  __device__ __forceinline__ void store_region(uint32_t region, const uint32_t (&x)[Q]) const {
#pragma unroll
    for (int k = 0; k < Q; ++k) slot(region, uint32_t(k), wl) = x[k];
  }

  // A 2H-limb number, chunk j of its low half in v0 and of its high half in
  // v1, each with a pending small carry (c0 into chunk j + 1 of the low half,
  // c1 of the high half) and cin into limb 0: resolves the carries (seed 002
  // §3 Alg. 3's generate/propagate vote over the 2L chunks, as warp_kara.cuh)
  // and returns the carry out of limb 2H - 1 (the same on the segment's lanes).
  __device__ __forceinline__ uint32_t resolve2(uint32_t (&v0)[Q], uint32_t (&v1)[Q], uint32_t c0, uint32_t c1,
                                               uint32_t cin) const {
    const uint32_t up0 = __shfl_up_sync(0xffffffffu, c0, 1, L);
    const uint32_t up1 = __shfl_up_sync(0xffffffffu, c1, 1, L);
    const uint32_t top0 = __shfl_sync(0xffffffffu, c0, L - 1, L);
    const uint32_t top1 = __shfl_sync(0xffffffffu, c1, L - 1, L);
    // Now 0/1 carries: a chunk that carried holds less than what it added,
    // so it is not all ones (generate and propagate are disjoint).
    const bool e0 = add_1<Q>(v0, j ? up0 : cin) != 0;
    const bool e1 = add_1<Q>(v1, j ? up1 : top0) != 0;
    using wb2_detail::vote;
    const uint64_t g = vote<L>(e0, seg) | vote<L>(e1, seg) << L;
    const uint64_t pr = vote<L>(all_equal<Q>(v0, ~0u), seg) | vote<L>(all_equal<Q>(v1, ~0u), seg) << L;
    const CarryVote cv = carry_vote(g, pr, 2 * L);
    add_1<Q>(v0, uint32_t(cv.carry_in >> j) & 1u);
    add_1<Q>(v1, uint32_t(cv.carry_in >> (L + j)) & 1u);
    return top1 + cv.carry_out;
  }
  // (v0, v1) >= (y0, y1) as 2H-limb numbers (the same answer on the segment).
  __device__ __forceinline__ bool ge2(const uint32_t (&v0)[Q], const uint32_t (&v1)[Q], const uint32_t (&y0)[Q],
                                      const uint32_t (&y1)[Q]) const {
    int s0 = 0, s1 = 0;
#pragma unroll
    for (int k = Q - 1; k >= 0; --k) {
      if (s0 == 0 && v0[k] != y0[k]) s0 = v0[k] > y0[k] ? 1 : -1;
      if (s1 == 0 && v1[k] != y1[k]) s1 = v1[k] > y1[k] ? 1 : -1;
    }
    using wb2_detail::vote;
    const uint64_t ne = vote<L>(s0 != 0, seg) | vote<L>(s1 != 0, seg) << L;
    const uint64_t gt = vote<L>(s0 > 0, seg) | vote<L>(s1 > 0, seg) << L;
    if (ne == 0) return true;
    return ((gt >> (63 - __clzll((long long)ne))) & 1u) != 0;
  }
  // v -= (sub ? y : 0) over 2H limbs (two's complement: v + ~y + 1); returns the borrow out.
  __device__ __forceinline__ uint32_t sub2(uint32_t (&v0)[Q], uint32_t (&v1)[Q], const uint32_t (&y0)[Q],
                                           const uint32_t (&y1)[Q], bool sub) const {
    uint64_t c0 = 0, c1 = 0;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      c0 += uint64_t(v0[k]) + (sub ? ~y0[k] : ~0u);
      v0[k] = uint32_t(c0);
      c0 >>= 32;
      c1 += uint64_t(v1[k]) + (sub ? ~y1[k] : ~0u);
      v1[k] = uint32_t(c1);
      c1 >>= 32;
    }
    return 1u - resolve2(v0, v1, uint32_t(c0), uint32_t(c1), 1u);
  }
  // One half of a scratch constant, chunk j (12 mu_lo low, 13 high, 14 m' low, 15 high).
  __device__ __forceinline__ void load_const(uint32_t (&y)[Q], uint32_t code) const {
    const uint32_t which = code >= 14 ? 1u : 2u;  // m' at N, mu_lo at 2N
    load_blocked<Q>(y, consts + which * N + (code & 1u) * H, first, H, true);
  }

  // The reduction steps from x = (regions 0..3 hold x's factors) to the
  // result r = x0 x1 mod m (2H limbs, chunk j of each half in r0, r1).
  // Regions 0, 1: the first factor; 2, 3: the second. All regions are free
  // after it returns (last access followed by __syncwarp).
  __device__ __forceinline__ void mulmod(uint32_t (&r0)[Q], uint32_t (&r1)[Q]) const {
    using namespace wb2_detail;
    uint32_t xn = 0, d = 0, ext = 0;
#pragma unroll 1
    for (uint32_t p = 0; p < 10; ++p) {
      {
        uint32_t x[Q], y[Q], hi[Q];
        load_region(x, field(kXT, p));
        const uint32_t yc = field(kYT, p);
        if (yc >= 12) load_const(y, yc);
        else load_region(y, yc);
        __syncwarp();  // every lane holds its operands before the sink overwrites them
        const uint32_t lo = field(kLoT, p);
        WarpMulBlockRotate<L, Q>().run(hi, x, y, uint32_t(L), [&](uint32_t s, uint32_t(&low)[Q], bool owner) {
          if (owner) {
#pragma unroll
            for (int k = 0; k < Q; ++k) slot(lo, uint32_t(k), seg + s) = low[k];
          }
        });
        store_region(field(kHiT, p), hi);  // all L blocks: hi is chunk L + j, lane j's own column
        if (p >= 8) ext += __shfl_sync(0xffffffffu, hi[0], 0, L);  // limb H of q_0 m_1, q_1 m_0
        __syncwarp();
      }
      if (p == 3) {
        // t = P00 + B^H (P01 + P10) + B^2H P11 -> regions 4..7 (lane-private
        // in place: each quarter reads its terms before its region is written).
        uint32_t v0[Q], v1[Q];
        uint64_t c0 = 0, c1 = 0;
#pragma unroll
        for (int k = 0; k < Q; ++k) {
          c0 += slot(4, k, wl);
          v0[k] = uint32_t(c0);
          c0 >>= 32;
          c1 += uint64_t(slot(5, k, wl)) + slot(6, k, wl) + slot(0, k, wl);
          v1[k] = uint32_t(c1);
          c1 >>= 32;
        }
        const uint32_t mid = resolve2(v0, v1, uint32_t(c0), uint32_t(c1), 0u);
        store_region(4, v0);
        store_region(5, v1);
        c0 = 0, c1 = 0;
#pragma unroll
        for (int k = 0; k < Q; ++k) {
          c0 += uint64_t(slot(1, k, wl)) + slot(7, k, wl) + slot(8, k, wl);
          v0[k] = uint32_t(c0);
          c0 >>= 32;
          c1 += slot(2, k, wl);
          v1[k] = uint32_t(c1);
          c1 >>= 32;
        }
        resolve2(v0, v1, uint32_t(c0), uint32_t(c1), mid);  // t < B^4H: nothing out
        store_region(6, v0);
        store_region(7, v1);
        __syncwarp();
        // x = t << s: low half -> regions 0, 1, q1 = high half -> 2, 3.
#pragma unroll 1
        for (uint32_t g = 0; g < 4; ++g) {
#pragma unroll
          for (int k = 0; k < Q; ++k) {
            const int64_t i = int64_t(g * H + first + uint32_t(k)) - ws;
            const uint32_t hi = limb(4, i, 4 * H);
            v0[k] = bs == 0 ? hi : (hi << bs) | (limb(4, i - 1, 4 * H) >> (32 - bs));
          }
          store_region(g, v0);
        }
        __syncwarp();
        xn = slot(2, 0, seg);  // limb n of x = limb 0 of q1
      } else if (p == 6) {
        // q = q1 + P + B^0 (hi X + hi Y): q1 (2, 3), P (4, 5), hi X (7), hi Y (8).
        uint32_t v0[Q], v1[Q];
        uint64_t c0 = 0, c1 = 0;
#pragma unroll
        for (int k = 0; k < Q; ++k) {
          c0 += uint64_t(slot(2, k, wl)) + slot(4, k, wl) + slot(7, k, wl) + slot(8, k, wl);
          v0[k] = uint32_t(c0);
          c0 >>= 32;
          c1 += uint64_t(slot(3, k, wl)) + slot(5, k, wl);
          v1[k] = uint32_t(c1);
          c1 >>= 32;
        }
        d = resolve2(v0, v1, uint32_t(c0), uint32_t(c1), 0u);  // q < 2 B^n: d is bit n of q
        store_region(2, v0);
        store_region(3, v1);
        __syncwarp();
      }
    }
    // q m' mod B^(n+1): A = q_0 m_0 (4, 5), low halves of q_0 m_1 (6), q_1 m_0 (7).
    uint32_t mp0[Q], mp1[Q];
    load_const(mp0, 14);
    load_const(mp1, 15);
    const uint32_t q1_0 = slot(3, 0, seg);
    const uint32_t m0_0 = __shfl_sync(0xffffffffu, mp0[0], 0, L), m1_0 = __shfl_sync(0xffffffffu, mp1[0], 0, L);
    uint32_t qn;
    {
      uint64_t c0 = 0, c1 = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        c0 += slot(4, k, wl);
        r0[k] = uint32_t(c0);
        c0 >>= 32;
        c1 += uint64_t(slot(5, k, wl)) + slot(6, k, wl) + slot(7, k, wl);
        r1[k] = uint32_t(c1);
        c1 >>= 32;
      }
      qn = resolve2(r0, r1, uint32_t(c0), uint32_t(c1), 0u) + ext + q1_0 * m1_0 + d * m0_0;
    }
    // r = x - q m' mod B^(n+1): x's low half in regions 0, 1, limb n = xn.
    uint32_t x0[Q], x1[Q];
    load_region(x0, 0);
    load_region(x1, 1);
    uint32_t rn = xn - qn - sub2(x0, x1, r0, r1, true);
#pragma unroll
    for (int k = 0; k < Q; ++k) r0[k] = x0[k], r1[k] = x1[k];
    // 0 <= r < 7 m': at most six subtractions; the loop ends when no segment
    // of the warp needs one (ballot: warp-uniform).
    for (uint32_t pass = 0; pass < kWBarrett2MaxCorrections; ++pass) {
      const bool r_ge = ge2(r0, r1, mp0, mp1);  // ballots: every lane, before the || below
      const bool need = rn != 0 || r_ge;
      if (__ballot_sync(0xffffffffu, need) == 0) break;
      rn -= sub2(r0, r1, mp0, mp1, need);
    }
    // result = r >> s (r < m' < B^n): through regions 4, 5.
    store_region(4, r0);
    store_region(5, r1);
    __syncwarp();
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int64_t i = int64_t(first + uint32_t(k)) + ws;
      r0[k] = bs == 0 ? limb(4, i, N) : (limb(4, i, N) >> bs) | (limb(4, i + 1, N) << (32 - bs));
      r1[k] = bs == 0 ? limb(4, i + H, N) : (limb(4, i + H, N) >> bs) | (limb(4, i + H + 1, N) << (32 - bs));
    }
    __syncwarp();
  }
};

// mulmod (args.b set) and sqrmod (args.b null), shared modulus, constants in
// args.scratch. `smem`: WarpBarrett2<L, Q>::kSharedWords words.
template <int L, int Q>
__device__ __forceinline__ void wbarrett2_mulmod_body(const KernelArgs& args, uint32_t* smem) {
  using WB = WarpBarrett2<L, Q>;
  constexpr uint32_t H = WB::H;
  const uint32_t local = threadIdx.x / uint32_t(L);
  const uint64_t instance = uint64_t(blockIdx.x) * args.ipb + local;
  const bool active = local < args.ipb && instance < args.count;
  const uint32_t* sc = static_cast<const uint32_t*>(args.scratch);
  WB w;
  w.slots = smem;
  w.wl = threadIdx.x & 31u;
  w.seg = w.wl & ~uint32_t(L - 1);
  w.j = w.wl & uint32_t(L - 1);
  w.first = w.j * uint32_t(Q);
  const uint32_t s = sc[0];
  w.ws = s / 32;
  w.bs = s % 32;
  w.consts = sc + kWBarrett2HeaderWords;
  // a, one conditional subtraction of m (enough when m has the batch's size).
  uint32_t a0[Q], a1[Q];
  {
    const uint32_t* pa = static_cast<const uint32_t*>(args.a) + (active ? instance * args.limbs : 0);
    load_blocked<Q>(a0, pa, w.first, args.limbs, active);
    load_blocked<Q>(a1, pa, H + w.first, args.limbs, active);
    uint32_t m0[Q], m1[Q];
    load_blocked<Q>(m0, w.consts, w.first, H, true);
    load_blocked<Q>(m1, w.consts + H, w.first, H, true);
    const bool big = w.ge2(a0, a1, m0, m1);
    w.sub2(a0, a1, m0, m1, big);
    // Still >= m somewhere in the warp (a short modulus): job 0 first reduces
    // a as a * 1 mod m.
    const bool again = __ballot_sync(0xffffffffu, w.ge2(a0, a1, m0, m1)) != 0;
    w.store_region(0, a0);
    w.store_region(1, a1);
#pragma unroll 1
    for (uint32_t job = again ? 0u : 1u; job < 2; ++job) {
      // Second factor -> regions 2, 3: 1 (job 0), a (sqrmod), b (not reduced).
      if (job == 0) {
#pragma unroll
        for (int k = 0; k < Q; ++k) a0[k] = (w.j == 0 && k == 0) ? 1u : 0u, a1[k] = 0;
      } else if (args.b) {
        const uint32_t* pb = static_cast<const uint32_t*>(args.b) + (active ? instance * args.b_limbs : 0);
        load_blocked<Q>(a0, pb, w.first, args.b_limbs, active);
        load_blocked<Q>(a1, pb, H + w.first, args.b_limbs, active);
      } else {
        w.load_region(a0, 0);
        w.load_region(a1, 1);
      }
      w.store_region(2, a0);
      w.store_region(3, a1);
      __syncwarp();
      w.mulmod(a0, a1);
      if (job == 0) {
        w.store_region(0, a0);
        w.store_region(1, a1);
      }
    }
  }
  uint32_t* dst = static_cast<uint32_t*>(args.r) + (active ? instance * args.out_limbs : 0);
  store_blocked<Q>(dst, a0, w.first, args.out_limbs, active);
  store_blocked<Q>(dst, a1, H + w.first, args.out_limbs, active);
}

#if !defined(BIGTUNE_WARP_EMULATION)
template <int L, int Q>
__global__ void __launch_bounds__(kWBarrett2Threads) wbarrett2_mulmod_kernel(KernelArgs args) {
  __shared__ uint32_t smem[WarpBarrett2<L, Q>::kSharedWords];
  wbarrett2_mulmod_body<L, Q>(args, smem);
}
#endif

}  // namespace bigtune::kernels::warp
