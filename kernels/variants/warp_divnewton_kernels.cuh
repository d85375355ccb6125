// __global__ kernel of the warp Newton-reciprocal divmod
// (kernels/warp/divmod_newton.cuh): q = floor(u / v), r = u mod v for u of
// `limbs` and v of `b_limbs` 32-bit limbs, both at most 2N = 2 L Q digits.
//
// One segment of L lanes per instance. The fast path takes an instance whose
// divisor has vn <= N significant digits and whose quotient has at most
// N + 1 (un <= vn + N, un = the dividend's significant digits): that covers
// the n / (n/2) shape of the benchmark and every divisor of N digits. Scaling
// both by B^(N - vn) 2^s makes the divisor V exactly N digits with its top
// bit set and the dividend U at most 2N digits plus `ext` bits above:
//   1. one Knuth step (WarpDivModKnuth, one quotient digit) takes the top
//      digit q_N off, leaving U's upper half W < V;
//   2. I = the Newton inverse of V's top h = N / chunks digits (chunks from
//      args.shift, which divmod does not otherwise use; the launch sets it
//      from the variant's ".c<chunks>");
//   3. per chunk, top first (Barrett with an h-digit inverse): W_t = W's top
//      h digits, q_e = W_t + floor(W_t I / B^h) (a few units from the chunk
//      q_c = floor((W B^h + D) / V), D = U's next h digits), R = W B^h + D -
//      q_e V from the low N digits of q_e V and its digit N, then while
//      R < 0: R += V, q_e -= 1; while R >= V: R -= V, q_e += 1 (a warp-
//      uniform loop, capped at kMaxCorrections); W = R;
//   4. q = q_N B^N + the chunks, r = W / (B^d 2^s).
// Every other active instance (a zero divisor, vn > N, a quotient of more
// than N + 1 digits, or the correction cap reached) is marked in the scratch
// word array (one uint32 per instance) and left to a second launch of the
// warp Knuth kernel on 2N digits, which runs only the marked instances
// (warp_divmod_kernel with args.scratch set; kernels/variants/
// warp_divnewton_instances.cu launches both).
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/warp_kernels.cuh"
#include "kernels/warp/divmod_knuth.cuh"
#include "kernels/warp/divmod_newton.cuh"

namespace bigtune::kernels::variants {

// 256 threads: ptxas (CUDA 13.0, sm_90) gives the Q = 8 kernels 122-124
// registers, no spills (two blocks per SM). Measured and dropped
// (bench/results/2026-11-22-h100-wdiv.md): Q = 16 (250 registers, one block
// per SM: 0.65-0.76x the Q = 8 kernel of the same N) and Q = 8 compiled for
// three blocks per SM (80 registers, ~180 bytes spilled: 0.94-1.0x).
constexpr uint32_t kWarpDivNewtonThreads = 256;
// Step 3's bound: the chunk estimate is a few units from the chunk (W's and
// V's truncation to h digits, D left out, the inverse's few units: |q_e -
// q_c| <= ~8); 32 is far above that, so reaching it means a bug, never a
// wrong result (the instance goes to the Knuth pass).
constexpr int kMaxCorrections = 32;
// args.shift = chunks | kSmallProducts for the ".sp" variants (div14).
constexpr uint32_t kSmallProducts = 0x100;

// Threads, MinBlocks: the block size the variant allows (its max_threads)
// and ptxas's occupancy target (__launch_bounds__); the registered variants
// use 256 / 1. Four arrays that used to sit in registers across the Newton
// steps and the chunks' products live in shared memory, 4 Q words per
// thread laid out [digit][thread] (a segment's lanes read consecutive
// banks): U's low half (read once per chunk), the quotient chunks (written
// once per chunk), V and I (loaded into registers right before the product
// or add that takes them whole; the inverse reads V's shifted copies
// straight from shared memory). ptxas (CUDA 13.0, sm_90): 124 registers and
// a 64-byte stack frame before (digit()'s run-time index), 121-128 and no
// stack now at 256 / 1; held to 6 blocks of 128 threads per SM, 80 with no
// spills (24 resident warps against 16). Measured on the H100
// (bench/results/2026-11-22-h100-wdiv2.md): the 256 / 1 kernels gained
// 2.5-4 % (4, 8, 16 Kbit); the higher-occupancy shapes (5, 6, 7 blocks of
// 128: 20-28 warps) were 0.83-0.91x of them, so occupancy is not what
// limits this kernel (most likely the issue slots: shuffles, carry
// resolutions and the product's IMADs; not profiled).
template <int L, int Q, int Threads = int(kWarpDivNewtonThreads), int MinBlocks = 1>
__global__ void __launch_bounds__(Threads, MinBlocks) warp_divnewton_kernel(KernelArgs args) {
  using D = warp::WarpDivNewton<L, Q>;
  using Knuth = warp::WarpDivModKnuth<L, Q>;
  constexpr uint32_t N = L * Q;
  const WarpIndex<L> t(args);
  const uint32_t ul = args.limbs, vl = args.b_limbs, first = t.lane * Q;
  const uint32_t* u = static_cast<const uint32_t*>(args.a) + (t.active ? t.instance * ul : 0);
  const uint32_t* vsrc = static_cast<const uint32_t*>(args.b) + (t.active ? t.instance * vl : 0);
  uint32_t* mark = static_cast<uint32_t*>(args.scratch);
  // su[k][t]: digit k of thread t's part of U's low half; sq the same for
  // the quotient chunks. A segment's digit P is at [P % Q][seg + P / Q].
  __shared__ uint32_t su[Q][Threads], sq[Q][Threads], sv[Q][Threads], si[Q][Threads];
  const uint32_t tid = threadIdx.x, seg = tid & ~uint32_t(L - 1);

  // Significant digits of v and u (each up to 2N: two Q-digit halves).
  uint32_t x0[Q], x1[Q];
  warp::load_blocked<Q>(x0, vsrc, first, vl, t.active);
  warp::load_blocked<Q>(x1, vsrc, first + N, vl, t.active);
  int hi_top = Knuth::top_digit(x1), lo_top = Knuth::top_digit(x0);
  const uint32_t vn = uint32_t((hi_top >= 0 ? int(N) + hi_top : lo_top) + 1);
  warp::load_blocked<Q>(x0, u, first, ul, t.active);
  warp::load_blocked<Q>(x1, u, first + N, ul, t.active);
  hi_top = Knuth::top_digit(x1), lo_top = Knuth::top_digit(x0);
  const uint32_t un = uint32_t((hi_top >= 0 ? int(N) + hi_top : lo_top) + 1);
  const bool fast = t.active && vn >= 1 && vn <= N && un <= vn + N;

  if (!__any_sync(0xffffffffu, fast)) {  // warp-uniform: all to the Knuth pass
    if (t.active && t.lane == 0) mark[t.instance] = 1u;
    return;
  }

  // V = v B^d 2^s: exactly N digits, top bit set (all ones on other segments,
  // a harmless divisor for the lanes that only keep the warp converged).
  const uint32_t d = fast ? N - vn : 0u;
  // V and its inverse I are staged in shared memory (sv, si) and loaded
  // into registers only where a product or an add takes them whole.
  uint32_t s;
  {
    uint32_t V[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t p = first + k;
      V[k] = fast ? (p >= d && p - d < vl ? vsrc[p - d] : 0u) : ~0u;
    }
    s = uint32_t(__clz(D::digit(V, N - 1)));
    Knuth::shl_bits(V, s);
#pragma unroll
    for (int k = 0; k < Q; ++k) sv[k][tid] = V[k];
    __syncwarp();  // the inverse reads other lanes' digits
  }

  // The chunk: h = N / chunks quotient digits per Barrett step (args.shift,
  // set from the variant by the launch; 2 when 0).
  // Bit kSmallProducts of args.shift: the ".sp" variants, small products
  // on mul_small (kernels/warp/divmod_newton.cuh; div14): the chunk's W_t x I
  // and the Newton steps' products, where they fit.
  const bool small = (args.shift & kSmallProducts) != 0;
  const uint32_t c_arg = uint32_t(args.shift) & (kSmallProducts - 1);
  const uint32_t chunks = c_arg ? c_arg : 2u, h = N / chunks, hb = (h + Q - 1) / Q;
  const bool small_chunk = small && D::small_fits(h, hb);
  {
    uint32_t I[Q];
    D::inverse_from(I, [&](uint32_t (&o)[Q], int off) { D::fetch_shared(o, sv, off); }, h, small);
#pragma unroll
    for (int k = 0; k < Q; ++k) si[k][tid] = I[k];  // other lanes read it (mul_small): ordered by the __syncwarp below
  }

  // U = u B^d 2^s: 2N digits (lo, hi) and the bits above in ext (top lane).
  uint32_t W[Q], out_lo;
  {
    uint32_t ulo[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t p = first + k, ph = p + N;
      ulo[k] = fast && p >= d && p - d < ul ? u[p - d] : 0u;
      W[k] = fast && ph - d < ul ? u[ph - d] : 0u;
    }
    out_lo = __shfl_sync(0xffffffffu, Knuth::shl_bits(ulo, s), L - 1, L);
#pragma unroll
    for (int k = 0; k < Q; ++k) su[k][tid] = ulo[k];
    __syncwarp();  // the chunks read other lanes' digits
  }
  const uint32_t ext = Knuth::shl_bits(W, s);
  if (t.lane == 0) W[0] |= out_lo;

  // 1. q_N: one Knuth step on (ext, U_h) (ext B^N + U_h < B V); W = U_h < V after.
  uint32_t q_top;
  {
    uint32_t qn[Q], V[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) V[k] = sv[k][tid];
    Knuth().run(qn, W, ext, V, fast ? 1u : 0u, 1u);
    q_top = __shfl_sync(0xffffffffu, qn[0], 0, L);
  }

  // 2. Quotient chunks, top first: q_c = floor((W B^h + D) / V) < B^h with
  //    D = the next h digits of U's low half; W becomes the remainder.
  uint32_t zero[Q];
#pragma unroll
  for (int k = 0; k < Q; ++k) zero[k] = 0;
  bool gave_up = false;
  for (uint32_t c = 0; c < chunks; ++c) {
    // q_e = W_t + floor(W_t I / B^h), W_t = W's top h digits (W_t I < B^2h <= B^N).
    uint32_t wt[Q], plo[Q], phi[Q], qe[Q];
    D::template fetch<false>(wt, W, zero, int(N - h));
    if (small_chunk) {  // I's block g read straight from shared memory
      D::mul_small(plo, wt, [&](uint32_t (&o)[Q], uint32_t g) {
#pragma unroll
        for (int k = 0; k < Q; ++k) o[k] = si[k][seg + g];
      }, hb);
    } else {
      uint32_t I[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) I[k] = si[k][tid];
      D::mul_full(plo, phi, wt, I, hb);
    }
    D::template fetch<false>(qe, plo, zero, int(h));
    D::add(qe, qe, wt);
    {  // at most B^h - 1 (the true chunk is)
      uint32_t above = 0;
#pragma unroll
      for (int k = 0; k < Q; ++k)
        if (first + k >= h) above |= qe[k];
      const uint32_t base = (threadIdx.x & 31u) & ~uint32_t(L - 1);
      const bool over = ((uint64_t(__ballot_sync(0xffffffffu, above != 0)) >> base) & ((uint64_t(1) << L) - 1)) != 0;
#pragma unroll
      for (int k = 0; k < Q; ++k) qe[k] = first + k >= h ? 0u : over ? ~0u : qe[k];
    }
    // R = W B^h + D - q_e V mod B^(N+1): N digits and a signed digit N.
    uint32_t V[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) V[k] = sv[k][tid];
    D::mul_full(plo, phi, V, qe, hb);
    uint32_t x[Q], dg[Q], R[Q];
    D::template fetch<false>(x, W, zero, -int(h));
    // D = U's digits [N - (c+1) h, N - c h) at [0, h) (h a multiple of Q:
    // lane j < h / Q takes lane N/Q - (c+1) h/Q + j's Q digits).
    const uint32_t dlane = (N - (c + 1) * h) / Q;
#pragma unroll
    for (int k = 0; k < Q; ++k) dg[k] = t.lane < h / Q ? su[k][seg + dlane + t.lane] : 0u;
#pragma unroll
    for (int k = 0; k < Q; ++k) x[k] |= dg[k];  // disjoint digits
    const uint32_t borrow = D::sub(R, x, plo);
    int32_t r_top = int32_t(D::digit(W, N - h) - D::digit(phi, 0) - borrow);
    // Corrections: R < 0: R += V, q_e -= 1; R >= V: R -= V, q_e += 1 (a warp-
    // uniform loop over the segments that need one).
    int32_t adj = 0;
    for (int it = 0;; ++it) {
      const bool neg = fast && !gave_up && r_top < 0;
      const bool any_neg = __any_sync(0xffffffffu, neg);
      if (any_neg && it < kMaxCorrections) {  // add V where negative (rare: q_e above q_c)
        uint32_t addend[Q];
#pragma unroll
        for (int k = 0; k < Q; ++k) addend[k] = neg ? V[k] : 0u;
        r_top += int32_t(D::add(R, R, addend));
        adj -= neg ? 1 : 0;
        continue;
      }
      uint32_t down[Q];
      const uint32_t b_down = D::sub(down, R, V);
      const bool ge = fast && !gave_up && !neg && int32_t(uint32_t(r_top) - b_down) >= 0;
      if (!__any_sync(0xffffffffu, neg || ge)) break;
      if (it >= kMaxCorrections) {
        gave_up = gave_up || neg || ge;
        break;
      }
#pragma unroll
      for (int k = 0; k < Q; ++k) R[k] = ge ? down[k] : R[k];
      r_top -= ge ? int32_t(b_down) : 0;
      adj += ge ? 1 : 0;
    }
    // q_c = q_e + adj: one add of adj in two's complement (q_c < B^h, so
    // the result mod B^N is exact).
    uint32_t step[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) step[k] = adj < 0 ? ~0u : 0u;
    if (t.lane == 0) step[0] = uint32_t(adj);
    D::add(qe, qe, step);
    // The chunk (digits [0, h) of qe) is the quotient's digits [N - (c+1) h, N - c h).
    if (t.lane < h / Q) {
#pragma unroll
      for (int k = 0; k < Q; ++k) sq[k][seg + dlane + t.lane] = qe[k];
    }
#pragma unroll
    for (int k = 0; k < Q; ++k) W[k] = R[k];
  }
  Knuth::shr_bits(W, s, 0u);  // the remainder
  __syncwarp();  // sq was written by other lanes of the segment
  uint32_t qacc[Q];
#pragma unroll
  for (int k = 0; k < Q; ++k) qacc[k] = sq[k][tid];

  const bool done = fast && !gave_up;
  if (t.active && t.lane == 0) mark[t.instance] = done ? 0u : 1u;
  if (!done) return;  // no shuffles below
  uint32_t* q = static_cast<uint32_t*>(args.r) + t.instance * args.out_limbs;
  warp::store_blocked<Q>(q, qacc, first, args.out_limbs, true);
  for (uint32_t p = N + t.lane; p < args.out_limbs; p += L) q[p] = p == N ? q_top : 0u;
  uint32_t* r2 = static_cast<uint32_t*>(args.r2) + t.instance * args.r2_limbs;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t p = first + k;
    if (p >= d && p - d < args.r2_limbs) r2[p - d] = W[k];
  }
  for (uint32_t i = vn + t.lane; i < args.r2_limbs; i += L) r2[i] = 0;  // the remainder is below v
  if (t.lane == 0 && args.flags) args.flags[t.instance] = 0u;
}

}  // namespace bigtune::kernels::variants
