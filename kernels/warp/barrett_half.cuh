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
//   t = a b             3 products: Karatsuba, a0 b0, a1 b1, |a0 - a1| |b0 - b1|
//                       (warp_kara.cuh's subtractive form and combine)
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
// Digit products: 9 H^2 = 2.25 N^2 against 3 N^2 (the reduction's two
// halves cost 1.5 N^2 instead of 2 N^2, the product 0.75 N^2 instead of N^2),
// so the floor against the warp Karatsuba mul (3 H^2) is 3x, against the
// block-rotate mul 2.25x (bench/notes/mulmodhalf-bound.md). Measured 1.12x /
// 1.21x / 1.21x wbarrett at 2 / 4 / 8 Kbit, 0.93x at 1 Kbit (the nine short
// products' fixed parts; bench/results/2026-11-23-h100-mulmodhalf.md).
// The Barrett width is always n = N (the host constants with limbs = N):
// smaller operands cost the full width.
//
// Operands >= m: one conditional subtraction of m from a; if some segment of
// the warp still has a >= m (short moduli), first a = (a * 1) mod m by the
// same steps. b is not reduced: with a < m, x = (a b) << s < m' B^n <= B^2n,
// which is all the Barrett bound needs (barrett.hpp: any x < 2^(2N)).
//
// One warp per block (the static shared array is sized for 32 lanes), 32 / L
// instances per warp. Shared memory: 7 regions of Q words per lane (region r,
// word k, lane l at (r Q + k) 32 + l), each holding a H-limb number of each
// segment (chunk j, limbs [jQ, jQ + Q), in lane j's column), 7 KB at Q = 8
// (with the register cap of the b32 shapes, 63 registers: 28 warps an SM),
// 14 KB at Q = 16 (135 registers: 14 warps an SM). The nine products are one
// `#pragma unroll 1` loop over a phase table so that the Q = 16 block-rotate
// body is inlined once (compile time, I-cache).
//
// Scratch: kernels/modular/wbarrett_prep.hpp's layout with n = N = 2H (s, n,
// then m, m', mu_lo, N limbs each).
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/warp_kara.cuh"  // wkara_detail::abs_sub
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/carry_vote.hpp"
#include "kernels/warp/mul_block_rotate.cuh"

namespace bigtune::kernels::warp {

constexpr uint32_t kWBarrett2Threads = 32;        // one warp per block
constexpr uint32_t kWBarrett2HeaderWords = 8;     // = modular::kWBarrettHeaderWords
constexpr uint32_t kWBarrett2MaxCorrections = 6;  // 4 (barrett.hpp) + 2 (the dropped low products)
constexpr uint32_t kWBarrett2Regions = 7;
constexpr uint32_t kWBarrett2Phases = 9;

// Phase table: 4 bits per phase p (bits [4p, 4p + 4)). x and y: region, or
// for y 12..15 a half of a constant in scratch (12 mu_lo low, 13 mu_lo high,
// 14 m' low, 15 m' high). lo / hi: destination regions of the product's two
// halves (15: hi not stored, the glue takes it from registers).
//   p0 P0 = x0 y0 -> 0, 1     p1 P1 = x1 y1 -> 2, 3     p2 Pm = |x0-x1| |y0-y1| -> 4, 5
//   (then t -> regions 0..3, x = t << s: x low half -> 0, 1, q1 -> 2, 3)
//   p3 q1_1 mu_0 -> (4), 4    p4 q1_0 mu_1 -> (5), 5    p5 q1_1 mu_1 -> 6, regs
//   (then q -> 2, 3)
//   p6 q_0 m_0 -> 4, 5        p7 q_0 m_1 -> 6, regs     p8 q_1 m_0 -> 2, regs
// For a square (sqr mode), p0..p2 read x's region as y.
namespace wb2_detail {
constexpr uint64_t nibbles(const int (&v)[kWBarrett2Phases]) {
  uint64_t r = 0;
  for (uint32_t i = 0; i < kWBarrett2Phases; ++i) r |= uint64_t(v[i]) << (4 * i);
  return r;
}
constexpr int kX[kWBarrett2Phases] = {0, 2, 4, 3, 2, 3, 2, 2, 3};
constexpr int kY[kWBarrett2Phases] = {1, 3, 5, 12, 13, 13, 14, 15, 14};
constexpr int kLo[kWBarrett2Phases] = {0, 2, 4, 4, 5, 6, 4, 6, 2};
constexpr int kHi[kWBarrett2Phases] = {1, 3, 5, 4, 5, 15, 5, 15, 15};
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
  static_assert(L == 2 || L == 4 || L == 8 || L == 16, "3L < 64 chunks in one carry vote");
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
  // Chunk j of quarter g of (regions 0..3 as a 4H-limb number) << s.
  __device__ __forceinline__ void shifted_quarter(uint32_t (&v)[Q], uint32_t g) const {
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int64_t i = int64_t(g * H + first + uint32_t(k)) - ws;
      const uint32_t hi = limb(0, i, 4 * H);
      v[k] = bs == 0 ? hi : (hi << bs) | (limb(0, i - 1, 4 * H) >> (32 - bs));
    }
  }

  // G consecutive quarters of H limbs (chunk j of quarter g in v[g]), each
  // chunk with a pending small carry c[g] into the chunk above, and cin into
  // limb 0: resolves the carries (seed 002 §3 Alg. 3's generate/propagate
  // vote over the G L chunks, as warp_kara.cuh's combine) and returns the
  // carry out of the top limb (the same on the segment's lanes).
  template <int G>
  __device__ __forceinline__ uint32_t resolve(uint32_t (&v)[G][Q], const uint32_t (&c)[G], uint32_t cin) const {
    static_assert(G * L < 64, "one 64-bit vote");
    uint64_t g = 0, pr = 0;
    uint32_t below = cin;  // carry into lane 0's chunk of quarter q: the quarter below's top chunk
#pragma unroll
    for (int q = 0; q < G; ++q) {
      const uint32_t up = __shfl_up_sync(0xffffffffu, c[q], 1, L);
      // Now 0/1 carries: a chunk that carried holds less than what it
      // added, so it is not all ones (generate and propagate are disjoint).
      const bool e = add_1<Q>(v[q], j ? up : below) != 0;
      below = __shfl_sync(0xffffffffu, c[q], L - 1, L);
      g |= wb2_detail::vote<L>(e, seg) << (q * L);
      pr |= wb2_detail::vote<L>(all_equal<Q>(v[q], ~0u), seg) << (q * L);
    }
    const CarryVote cv = carry_vote(g, pr, G * L);
#pragma unroll
    for (int q = 0; q < G; ++q) add_1<Q>(v[q], uint32_t(cv.carry_in >> (q * L + j)) & 1u);
    return below + cv.carry_out;
  }
  // v >= y as 2H-limb numbers (the same answer on the segment).
  __device__ __forceinline__ bool ge2(const uint32_t (&v)[2][Q], const uint32_t (&y)[2][Q]) const {
    int s0 = 0, s1 = 0;
#pragma unroll
    for (int k = Q - 1; k >= 0; --k) {
      if (s0 == 0 && v[0][k] != y[0][k]) s0 = v[0][k] > y[0][k] ? 1 : -1;
      if (s1 == 0 && v[1][k] != y[1][k]) s1 = v[1][k] > y[1][k] ? 1 : -1;
    }
    using wb2_detail::vote;
    const uint64_t ne = vote<L>(s0 != 0, seg) | vote<L>(s1 != 0, seg) << L;
    const uint64_t gt = vote<L>(s0 > 0, seg) | vote<L>(s1 > 0, seg) << L;
    if (ne == 0) return true;
    return ((gt >> (63 - __clzll((long long)ne))) & 1u) != 0;
  }
  // v -= (sub ? y : 0) over 2H limbs (two's complement: v + ~y + 1); returns the borrow out.
  __device__ __forceinline__ uint32_t sub2(uint32_t (&v)[2][Q], const uint32_t (&y)[2][Q], bool sub) const {
    uint32_t c[2];
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      uint64_t acc = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        acc += uint64_t(v[q][k]) + (sub ? ~y[q][k] : ~0u);
        v[q][k] = uint32_t(acc);
        acc >>= 32;
      }
      c[q] = uint32_t(acc);
    }
    return 1u - resolve<2>(v, c, 1u);
  }
  // One half of a scratch constant, chunk j (12 mu_lo low, 13 high, 14 m' low, 15 high).
  __device__ __forceinline__ void load_const(uint32_t (&y)[Q], uint32_t code) const {
    const uint32_t which = code >= 14 ? 1u : 2u;  // m' at N, mu_lo at 2N
    load_blocked<Q>(y, consts + which * N + (code & 1u) * H, first, H, true);
  }
  // A factor (chunk j of its halves in v) -> its Karatsuba regions: v0 to
  // `base`, v1 to base + 2, |v0 - v1| to base + 4; returns v0 < v1.
  __device__ __forceinline__ bool put_factor(const uint32_t (&v)[2][Q], uint32_t base) const {
    uint32_t d[Q];
    const bool negative = variants::wkara_detail::abs_sub<L, Q>(d, v[0], v[1], j);
    store_region(base, v[0]);
    store_region(base + 2, v[1]);
    store_region(base + 4, d);
    return negative;
  }

  // The whole mulmod of one instance per segment: job 0 (only when `again`)
  // x = a * 1 mod m, job 1 x y mod m with y = b (sqrmod: y = x); x in
  // regions 0 and 2 on entry (x0, x1), the result there on exit. One flat
  // `#pragma unroll 1` loop over (job, phase): a loop around the phase loop
  // made ptxas keep ~250 registers (112 without it).
  __device__ __forceinline__ void run(const KernelArgs& args, bool active, uint64_t instance, bool again) const {
    using namespace wb2_detail;
    uint32_t xn = 0, d = 0, ext = 0;
    bool sqr = false, subtract = false;
#pragma unroll 1
    for (uint32_t it = again ? 0u : kWBarrett2Phases; it < 2 * kWBarrett2Phases; ++it) {
      const uint32_t job = it >= kWBarrett2Phases ? 1u : 0u, p = it - job * kWBarrett2Phases;
      if (p == 0) {
        // Factors into their Karatsuba regions (put_factor): x from regions
        // 0, 2; y = 1 (job 0), b, or x (sqrmod: regions 1, 3, 5 unused).
        uint32_t v[2][Q];
        load_region(v[0], 0);
        load_region(v[1], 2);
        const bool negative_x = put_factor(v, 0);
        sqr = job == 1 && !args.b;
        bool negative_y = negative_x;
        if (!sqr) {
          if (job == 0) {
#pragma unroll
            for (int k = 0; k < Q; ++k) v[0][k] = (j == 0 && k == 0) ? 1u : 0u, v[1][k] = 0;
          } else {
            const uint32_t* pb = static_cast<const uint32_t*>(args.b) + (active ? instance * args.b_limbs : 0);
            load_blocked<Q>(v[0], pb, first, args.b_limbs, active);
            load_blocked<Q>(v[1], pb, H + first, args.b_limbs, active);
          }
          negative_y = put_factor(v, 1);
        }
        subtract = negative_x == negative_y;  // (x0 - x1)(y0 - y1) >= 0: Pm is subtracted
        ext = 0;
        __syncwarp();
      }
      uint32_t hi[Q];
      {
        uint32_t x[Q], y[Q];
        const uint32_t xr = field(kXT, p), yc = field(kYT, p);
        load_region(x, xr);
        if (yc >= 12) load_const(y, yc);
        else load_region(y, sqr ? xr : yc);
        __syncwarp();  // every lane holds its operands before the sink overwrites them
        const uint32_t lo = field(kLoT, p);
        WarpMulBlockRotate<L, Q>().run(hi, x, y, uint32_t(L), [&](uint32_t s, uint32_t(&low)[Q], bool owner) {
          if (owner) {
#pragma unroll
            for (int k = 0; k < Q; ++k) slot(lo, uint32_t(k), seg + s) = low[k];
          }
        });
        __syncwarp();  // the sink's stores before any read (and before hi overwrites them: p3, p4)
        const uint32_t hr = field(kHiT, p);
        if (hr != 15) {
          store_region(hr, hi);  // all L blocks: hi is chunk L + j, lane j's own column
          __syncwarp();
        }
      }
      if (p >= 7) ext += __shfl_sync(0xffffffffu, hi[0], 0, L);  // limb H of q_0 m_1, q_1 m_0
      if (p == 2) {
        // t = P0 + B^H (P0 + P1 - s Pm) + B^2H P1 (warp_kara.cuh's combine):
        // r1 = P0hi + P0lo + P1lo + (subtract ? ~Pmlo + 1 : Pmlo), r2 = P1lo +
        // P0hi + P1hi + (subtract ? ~Pmhi : Pmhi), r3 = P1hi + (subtract ?
        // B^H - 1 : 0) (the -B^2H of ~Pm + 1 at limb 3H, added mod B^4H).
        // Lane-private: every term is chunk j of a region; T -> regions 0..3
        // (region 0, P0lo, is already quarter 0).
        const uint32_t flip = subtract ? ~0u : 0u;
        uint32_t v[3][Q], c[3];
        uint64_t c1 = subtract && j == 0 ? 1u : 0u, c2 = 0, c3 = 0;
#pragma unroll
        for (int k = 0; k < Q; ++k) {
          const uint32_t p0l = slot(0, k, wl), p0h = slot(1, k, wl), p1l = slot(2, k, wl), p1h = slot(3, k, wl);
          const uint32_t pml = slot(4, k, wl) ^ flip, pmh = slot(5, k, wl) ^ flip;
          c1 += uint64_t(p0h) + p0l + p1l + pml;
          v[0][k] = uint32_t(c1);
          c1 >>= 32;
          c2 += uint64_t(p1l) + p0h + p1h + pmh;
          v[1][k] = uint32_t(c2);
          c2 >>= 32;
          c3 += uint64_t(p1h) + flip;
          v[2][k] = uint32_t(c3);
          c3 >>= 32;
        }
        c[0] = uint32_t(c1), c[1] = uint32_t(c2), c[2] = uint32_t(c3);
        resolve<3>(v, c, 0u);  // the carry out is past B^4H (the -B^3H term)
#pragma unroll
        for (int q = 0; q < 3; ++q) store_region(1 + q, v[q]);
        __syncwarp();
        // x = t << s: q1 (quarters 2, 3) first, as they may read t's low
        // quarters, then x's low half (reads quarters 0, 1 only).
        shifted_quarter(v[0], 2);
        shifted_quarter(v[1], 3);
        __syncwarp();
        store_region(2, v[0]);
        store_region(3, v[1]);
        shifted_quarter(v[0], 0);
        shifted_quarter(v[1], 1);
        __syncwarp();
        store_region(0, v[0]);
        store_region(1, v[1]);
        __syncwarp();
        xn = slot(2, 0, seg);  // limb n of x = limb 0 of q1
      } else if (p == 5) {
        // q = q1 + q1_1 mu_1 + hi(q1_1 mu_0) + hi(q1_0 mu_1): q1 (2, 3),
        // q1_1 mu_1 (6, hi), hi(q1_1 mu_0) (4), hi(q1_0 mu_1) (5).
        uint32_t v[2][Q], c[2];
        uint64_t c0 = 0, c1 = 0;
#pragma unroll
        for (int k = 0; k < Q; ++k) {
          c0 += uint64_t(slot(2, k, wl)) + slot(6, k, wl) + slot(4, k, wl) + slot(5, k, wl);
          v[0][k] = uint32_t(c0);
          c0 >>= 32;
          c1 += uint64_t(slot(3, k, wl)) + hi[k];
          v[1][k] = uint32_t(c1);
          c1 >>= 32;
        }
        c[0] = uint32_t(c0), c[1] = uint32_t(c1);
        d = resolve<2>(v, c, 0u);  // q < 2 B^n: d is bit n of q
        store_region(2, v[0]);
        store_region(3, v[1]);
        __syncwarp();
      }
      if (p + 1 < kWBarrett2Phases) continue;
      uint32_t r[2][Q];
      // q m' mod B^(n+1): A = q_0 m_0 (4, 5), low halves of q_0 m_1 (6), q_1 m_0 (2).
      uint32_t mp[2][Q];
      load_const(mp[0], 14);
      load_const(mp[1], 15);
      const uint32_t q1_0 = slot(3, 0, seg);
      const uint32_t m0_0 = __shfl_sync(0xffffffffu, mp[0][0], 0, L), m1_0 = __shfl_sync(0xffffffffu, mp[1][0], 0, L);
      uint32_t qm[2][Q];
      {
        uint32_t c[2];
        uint64_t c0 = 0, c1 = 0;
#pragma unroll
        for (int k = 0; k < Q; ++k) {
          c0 += slot(4, k, wl);
          qm[0][k] = uint32_t(c0);
          c0 >>= 32;
          c1 += uint64_t(slot(5, k, wl)) + slot(6, k, wl) + slot(2, k, wl);
          qm[1][k] = uint32_t(c1);
          c1 >>= 32;
        }
        c[0] = uint32_t(c0), c[1] = uint32_t(c1);
        d = resolve<2>(qm, c, 0u) + ext + q1_0 * m1_0 + d * m0_0;  // limb n of q m'
      }
      // r = x - q m' mod B^(n+1): x's low half in regions 0, 1, limb n = xn.
      load_region(r[0], 0);
      load_region(r[1], 1);
      uint32_t rn = xn - d - sub2(r, qm, true);
      // 0 <= r < 7 m': at most six subtractions; the loop ends when no segment
      // of the warp needs one (ballot: warp-uniform).
      for (uint32_t pass = 0; pass < kWBarrett2MaxCorrections; ++pass) {
        const bool r_ge = ge2(r, mp);  // ballots: every lane, before the || below
        const bool need = rn != 0 || r_ge;
        if (__ballot_sync(0xffffffffu, need) == 0) break;
        rn -= sub2(r, mp, need);
      }
      // result = r >> s (r < m' < B^n): through regions 4, 5.
      __syncwarp();
      store_region(4, r[0]);
      store_region(5, r[1]);
      __syncwarp();
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const int64_t i = int64_t(first + uint32_t(k)) + ws;
        r[0][k] = bs == 0 ? limb(4, i, N) : (limb(4, i, N) >> bs) | (limb(4, i + 1, N) << (32 - bs));
        r[1][k] = bs == 0 ? limb(4, i + H, N) : (limb(4, i + H, N) >> bs) | (limb(4, i + H + 1, N) << (32 - bs));
      }
      __syncwarp();
      store_region(0, r[0]);  // x of the next job, or the result (own columns, after the __syncwarp)
      store_region(2, r[1]);
    }
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
  uint32_t v[2][Q], m[2][Q];
  const uint32_t* pa = static_cast<const uint32_t*>(args.a) + (active ? instance * args.limbs : 0);
  load_blocked<Q>(v[0], pa, w.first, args.limbs, active);
  load_blocked<Q>(v[1], pa, H + w.first, args.limbs, active);
  load_blocked<Q>(m[0], w.consts, w.first, H, true);
  load_blocked<Q>(m[1], w.consts + H, w.first, H, true);
  w.sub2(v, m, w.ge2(v, m));
  // Still >= m somewhere in the warp (a short modulus): job 0 first reduces
  // a as a * 1 mod m. b is never reduced (a < m is enough, see the top).
  const bool still = w.ge2(v, m);
  const bool again = __ballot_sync(0xffffffffu, still) != 0;
  w.store_region(0, v[0]);
  w.store_region(2, v[1]);
  w.run(args, active, instance, again);
  w.load_region(v[0], 0);
  w.load_region(v[1], 2);
  uint32_t* dst = static_cast<uint32_t*>(args.r) + (active ? instance * args.out_limbs : 0);
  store_blocked<Q>(dst, v[0], w.first, args.out_limbs, active);
  store_blocked<Q>(dst, v[1], H + w.first, args.out_limbs, active);
}

#if !defined(BIGTUNE_WARP_EMULATION)
// MinBlocks > 1: a register cap (one-warp blocks an SM), tried for Q = 8
// where the shared regions (7 KB) leave room for more warps than ~96
// registers do (bench/results/2026-11-23-h100-mulmodhalf.md).
template <int L, int Q, int MinBlocks = 1>
__global__ void __launch_bounds__(kWBarrett2Threads, MinBlocks) wbarrett2_mulmod_kernel(KernelArgs args) {
  __shared__ uint32_t smem[WarpBarrett2<L, Q>::kSharedWords];
  wbarrett2_mulmod_body<L, Q>(args, smem);
}
#endif

}  // namespace bigtune::kernels::warp
