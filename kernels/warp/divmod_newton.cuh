// Warp division by a Newton reciprocal: the inverse of the divisor's top
// digits by Newton iteration at (almost) doubling precision, then Barrett
// steps that take the quotient in chunks of that many digits, every product
// on the warp block-rotate product (kernels/warp/mul_block_rotate.cuh). The
// warp counterpart of seed 001's whole shifted inverse (§3.1-3.3: an inverse
// by Newton, q = high part of u * inverse, r = u - q v, a small correction);
// like seed 001 §3.4 each Newton product is done at the precision its step
// needs (the block-rotate product costs in proportion to its shorter
// operand, so a step at precision k costs about k/N of a full one). The
// kernel (kernels/variants/warp_divnewton_kernels.cuh) runs the chunks.
//
// Layout: a segment of L lanes, Q 32-bit digits per lane (blocked: lane j
// holds digits [jQ, jQ + Q)), N = L*Q digits per "number"; a double-width
// number is a pair (lo, hi) of them. The divisor V has exactly N digits with
// its top bit set (the kernel scales v by B^d 2^s, B = 2^32, and the
// dividend by the same factor, which leaves the quotient unchanged).
//
// Inverse to t digits (GMP's convention): I = floor((B^2t - 1) / V_t) - B^t
// for V_t = V's top t digits, so that B^t + I ~ B^2t / V_t and 0 <= I < B^t.
// Newton from k digits to k' <= 2k - 1 digits (seed 001 Alg. 2 in integer
// form): with V' = floor(V / B^(N-k')),
// X = B^k + I_k,
//   T = V' X,  E = B^(k+k') - T  (signed, |E| ~ B^k'),
//   X' = X B^(k'-k) + floor(X floor(E / B^k) / B^k).
// k' = 2k - 1 instead of 2k keeps one guard digit: the squared error of the
// previous step then stays below one unit of the new last digit, so the
// truncation errors (a few units per step) never compound. Steps: 2 (from a
// 128/64-bit division), 3, 5, 9, ..., 2^i + 1, then t. The result is within
// a few units of the exact I (3 at most in tests/unit/
// warp_divnewton_emulation_test.cpp); the Barrett chunks' correction loop
// absorbs that (it accepts an estimate on either side).
//
// Cost (products in blocks of Q x Q per lane, a full N x N product = L
// blocks; bench/notes/wdiv-bound.md): an inverse to t digits ~4t/Q blocks,
// the chunks 2L in all; plus Q (2Q) shuffles per digit shift (fetch).
// Preconditions: all 32 lanes converged; N a power of two >= 8; Q >= 2.
#pragma once
#include <cstdint>

#include "kernels/warp/carry_resolve.cuh"
#include "kernels/warp/divmod_knuth.cuh"
#include "kernels/warp/mul_block_rotate.cuh"

namespace bigtune::kernels::warp {

template <int L, int Q>
struct WarpDivNewton {
  static constexpr int N = L * Q;
  static_assert((N & (N - 1)) == 0 && N >= 8, "the Newton ladder 2, 3, 5, ..., 2^i + 1, N needs N a power of two");

  __device__ __forceinline__ static uint32_t lane() { return threadIdx.x & uint32_t(L - 1); }

  // Digit p (0 <= p < N) of x, on every lane of the segment.
  __device__ __forceinline__ static uint32_t digit(const uint32_t (&x)[Q], uint32_t p) {
    // A select tree on the bits of p mod Q (log2 Q levels, Q - 1 selects).
    // The form "if (k == p % Q) mine = x[k]" was turned by ptxas (CUDA 13.0)
    // into a run-time index: the array went through a 64-byte stack frame
    // (STL.128 + Q predicated LDL per call).
    const uint32_t r = p % Q;
    uint32_t t[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) t[k] = x[k];
#pragma unroll
    for (int w = Q / 2; w >= 1; w /= 2)
#pragma unroll
      for (int i = 0; i < w; ++i) t[i] = (r & uint32_t(w)) ? t[i + w] : t[i];
    return __shfl_sync(0xffffffffu, t[0], int(p / Q), L);
  }

  // out = digits [jQ + off, jQ + off + Q) of hi B^N + lo (0 outside [0, 2N));
  // off is the same on every lane of the warp (a warp-uniform branch picks
  // the variant for off mod Q below). out may alias lo or hi.
  template <bool kHi>
  __device__ __forceinline__ static void fetch(uint32_t (&out)[Q], const uint32_t (&lo)[Q], const uint32_t (&hi)[Q],
                                               int off) {
    const int oq = off >= 0 ? off / Q : -((-off + Q - 1) / Q);
    fetch_from<0, kHi>(out, lo, hi, oq, off - oq * Q);
  }
  // off = oq Q + R with R a constant: each output digit is one shuffle (two
  // with hi) from one lane, no register index depends on off (a run-time
  // index would send the arrays to local memory). Tried first: a log2(Q)
  // barrel shifter over 2Q shuffled digits, ~2Q log2(Q) selects per call:
  // per Newton step that cost more than the step's products at Q = 8.
  template <int R, bool kHi>
  __device__ __forceinline__ static void fetch_from(uint32_t (&out)[Q], const uint32_t (&lo)[Q],
                                                    const uint32_t (&hi)[Q], int oq, int r) {
    if constexpr (R + 1 < Q) {
      if (r != R) {
        fetch_from<R + 1, kHi>(out, lo, hi, oq, r);
        return;
      }
    }
    const int j = int(lane());
    uint32_t c[Q];
#pragma unroll
    for (int i = 0; i < Q; ++i) {
      const int v = j + oq + (i + R) / Q;  // virtual lane of the 2L-lane number
      const int src = v & (L - 1);
      const uint32_t l = __shfl_sync(0xffffffffu, lo[(i + R) % Q], src, L);
      const uint32_t u = kHi ? __shfl_sync(0xffffffffu, hi[(i + R) % Q], src, L) : 0u;
      c[i] = (v >= 0 && v < L) ? l : (v >= L && v < 2 * L) ? u : 0u;
    }
#pragma unroll
    for (int i = 0; i < Q; ++i) out[i] = c[i];
  }

  // out = digits [jQ + off, jQ + off + Q) of a segment's N-digit number
  // staged in shared memory as st[P % Q][seg + P / Q] (seg = the segment's
  // first thread, Stride = the array's threads): 0 outside [0, N). For a
  // fixed k every lane reads the same row at consecutive columns (no bank
  // conflicts); off is warp-uniform. The source takes no registers, the
  // point of staging (kernels/variants/warp_divnewton_kernels.cuh).
  template <int Stride>
  __device__ __forceinline__ static void fetch_shared(uint32_t (&out)[Q], const uint32_t (&st)[Q][Stride], int off) {
    const int seg = int(threadIdx.x & ~uint32_t(L - 1)), base = int(lane()) * Q + off;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const int p = base + k;
      out[k] = p >= 0 && p < N ? st[p & (Q - 1)][seg + p / Q] : 0u;
    }
  }

  // x's digits at positions >= n set to 0.
  __device__ __forceinline__ static void keep_below(uint32_t (&x)[Q], uint32_t n) {
    const uint32_t first = lane() * Q;
#pragma unroll
    for (int k = 0; k < Q; ++k)
      if (first + k >= n) x[k] = 0;
  }

  // r = a + b + cin (cin enters digit 0 on lane 0); returns the segment's
  // carry out (the same on every lane of it).
  __device__ __forceinline__ static uint32_t add(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q],
                                                 uint32_t cin = 0) {
    uint64_t c = lane() == 0 ? cin : 0u;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      c += uint64_t(a[k]) + b[k];
      r[k] = uint32_t(c);
      c >>= 32;
    }
    const bool gen = c != 0;
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(gen, !gen && all_equal<Q>(r, ~0u), &out);
    add_1<Q>(r, in);
    return out;
  }

  // r = a - b - bin (bin from digit 0 on lane 0); returns the segment's borrow.
  __device__ __forceinline__ static uint32_t sub(uint32_t (&r)[Q], const uint32_t (&a)[Q], const uint32_t (&b)[Q],
                                                 uint32_t bin = 0) {
    uint32_t borrow = lane() == 0 ? bin : 0u;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint64_t d = uint64_t(a[k]) - b[k] - borrow;
      r[k] = uint32_t(d);
      borrow = uint32_t(d >> 63);
    }
    const bool gen = borrow != 0;
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(gen, !gen && all_equal<Q>(r, 0u), &out);
    sub_1<Q>(r, in);
    return out;
  }

  // lo + hi B^N = a * b, where b's digits at or above blocks*Q are ignored
  // (the caller passes enough blocks). The block-rotate product hands the
  // low blocks*Q digits to its sink on the top lane (one shuffle each to
  // their lane) and leaves digits [S, S + N) on the window (one rotation).
  __device__ __forceinline__ static void mul_full(uint32_t (&lo)[Q], uint32_t (&hi)[Q], const uint32_t (&a)[Q],
                                                  const uint32_t (&b)[Q], uint32_t blocks) {
    const uint32_t j = lane();
    uint32_t raw[Q];
    WarpMulBlockRotate<L, Q>().run(raw, a, b, blocks, [&](uint32_t s, uint32_t (&low)[Q], bool) {
#pragma unroll
      for (int k = 0; k < Q; ++k) {
        const uint32_t v = __shfl_sync(0xffffffffu, low[k], L - 1, L);
        if (j == s) lo[k] = v;
      }
    });
    const int src = int((j - blocks) & uint32_t(L - 1));
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t v = __shfl_sync(0xffffffffu, raw[k], src, L);
      if (j >= blocks) lo[k] = v;
      hi[k] = j < blocks ? v : 0u;
    }
  }

  // Small products (div14). mul_full's cost is its b operand's block count
  // times the whole segment: a product of two h-digit numbers (h = N /
  // chunks: the chunk's W_t x I, the Newton steps' V' x I and I x mh) costs
  // h/Q blocks on all L lanes although only its first h/Q lanes hold a's
  // digits (at 16 Kbit, L = 32, h = 32: 4 blocks, 1/8 of them useful work).
  // mul_small splits b instead: sub-segments of S lanes (S Q >= a's digits)
  // each take one block of b, g = lane / S, and run a one-block
  // block-rotate product a x b_g (S + 1 digit groups: the sink's group 0 on
  // the sub-segment's top lane, groups 1..S on its lanes 0..S-1); then lane
  // m of the segment gathers digit group m of sum_g b_g a B^(gQ), i.e.
  // P_(m-x).group(x) for x = 0..S (S + 1 shuffles per digit, one carry
  // chain), and one carry resolution settles the lane carries (<= S + 1).
  // Per lane: 1 block + (S + 3) Q shuffles against `blocks` blocks and
  // (2 blocks + 1) Q shuffles: at Q = 8, S = 4, 4 blocks, ~150 against ~400
  // SASS instructions (bench/notes/div14-bound.md).
  static constexpr int S = L < 4 ? L : 4;
  // Whether mul_small takes a product of an a_digits-digit a by `blocks`
  // blocks of b (warp-uniform: the same on every instance). One block is
  // cheaper on mul_full (no gather).
  __device__ __forceinline__ static bool small_fits(uint32_t a_digits, uint32_t blocks) {
    return blocks >= 2 && a_digits <= uint32_t(S * Q) && blocks * S <= uint32_t(L) && (S + blocks) * Q <= uint32_t(N);
  }
  // lo = a * b (< B^N), a < B^(S Q), b's digits [gQ, gQ + Q) from
  // bblock(out, g) (called on every lane, g = lane / S < L / S; blocks
  // g >= `blocks` are ignored). Precondition: small_fits(digits of a, blocks).
  template <class BBlock>
  __device__ __forceinline__ static void mul_small(uint32_t (&lo)[Q], const uint32_t (&a)[Q], BBlock&& bblock,
                                                   uint32_t blocks) {
    const uint32_t j = lane(), g = j / S, sj = j & uint32_t(S - 1);
    uint32_t as[Q], bs[Q], raw[Q], low[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) as[k] = __shfl_sync(0xffffffffu, a[k], int(sj), L);
    bblock(bs, g);
    WarpMulBlockRotate<S, Q>().run(raw, as, bs, 1u, [&](uint32_t, uint32_t (&l)[Q], bool) {
#pragma unroll
      for (int k = 0; k < Q; ++k) low[k] = l[k];
    });
    // Group x of P_g: x = 0 the sink's (sub-lane S - 1), else raw of sub-lane x - 1.
    uint64_t c = 0;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
#pragma unroll
      for (int x = 0; x <= S; ++x) {
        const int gg = int(j) - x;  // P_gg's group x is this lane's group
        const int src = (gg * S + (x == 0 ? S - 1 : x - 1)) & (L - 1);
        const uint32_t v = __shfl_sync(0xffffffffu, x == 0 ? low[k] : raw[k], src, L);
        c += gg >= 0 && gg < int(blocks) ? v : 0u;
      }
      lo[k] = uint32_t(c);
      c >>= 32;
    }
    // Lane carries (<= S + 1) into the lane above, then the 0/1 ripple.
    const uint32_t from_below = __shfl_up_sync(0xffffffffu, uint32_t(c), 1, L);
    const uint32_t carry = add_1<Q>(lo, j == 0 ? 0u : from_below);
    uint32_t out;
    const uint32_t in = WarpCarryResolve<L>().resolve(carry != 0, all_equal<Q>(lo, ~0u), &out);
    add_1<Q>(lo, in);
  }

  // I ~ floor((B^2t - 1) / V_t) - B^t, V_t = the top t digits of V (V with
  // its top bit set, 2 <= t <= N; file comment): t digits, on [0, t).
  __device__ __forceinline__ static void inverse(uint32_t (&I)[Q], const uint32_t (&V)[Q], uint32_t target,
                                                 bool small = false) {
    inverse_from(I, [&](uint32_t (&out)[Q], int off) {
      uint32_t none[Q];
#pragma unroll
      for (int k = 0; k < Q; ++k) none[k] = 0;
      fetch<false>(out, V, none, off);
    }, target, small);
  }
  // The same with V's digits from vfetch(out, off) (fetch's contract), e.g.
  // from shared memory by fetch_shared: V then holds no registers here.
  // small: the products that fit go to mul_small (div14; the kernel's
  // ".sp" variants), else all on mul_full as before.
  template <class VFetch>
  __device__ __forceinline__ static void inverse_from(uint32_t (&I)[Q], VFetch&& vfetch, uint32_t target,
                                                      bool small = false) {
    const uint32_t j = lane();
    uint32_t zero[Q];
#pragma unroll
    for (int k = 0; k < Q; ++k) zero[k] = 0, I[k] = 0;
    {
      // k = 2: floor((B^4 - 1) / V_2) - B^2, V_2 = the top two digits (>= 2^63),
      // so the quotient lies in [2^64, 2^65) and its low 64 bits are I_2
      // (lane 0's: the others' digits below are not V's top, unused).
      uint32_t top2[Q];
      vfetch(top2, int(N) - 2);
      const uint64_t d = (uint64_t(top2[1]) << 32) | top2[0];
      const unsigned __int128 x = ~static_cast<unsigned __int128>(0) / (d | (uint64_t(1) << 63));
      if (j == 0) I[0] = uint32_t(uint64_t(x)), I[1] = uint32_t(uint64_t(x) >> 32);
    }
    for (uint32_t k = 2; k < target;) {
      const uint32_t k2 = 2 * k - 1 < target ? 2 * k - 1 : target;
      // T = V' (B^k + I) with V' the top k2 digits of V.
      uint32_t vp[Q], tlo[Q], thi[Q], s[Q];
      vfetch(vp, int(N - k2));
      if (small && small_fits(k2, (k + Q - 1) / Q)) {
        mul_small(tlo, vp, [&](uint32_t (&o)[Q], uint32_t g) {
#pragma unroll
          for (int i = 0; i < Q; ++i) o[i] = __shfl_sync(0xffffffffu, I[i], int(g), L);
        }, (k + Q - 1) / Q);
#pragma unroll
        for (int i = 0; i < Q; ++i) thi[i] = 0;  // k2 + k <= (S + blocks) Q <= N digits
      } else {
        mul_full(tlo, thi, vp, I, (k + Q - 1) / Q);
      }
      // Only T mod B^(k2+1) matters: below k2 < N the high halves are skipped
      // (a warp-uniform branch: k2 is the same for every instance).
      const bool wide = k2 >= uint32_t(N);
      fetch<false>(s, vp, zero, -int(k));
      uint32_t c = add(tlo, tlo, s);
      uint32_t nlo[Q], nhi[Q];
      const uint32_t b = sub(nlo, zero, tlo);
      if (wide) {
        fetch<false>(s, vp, zero, int(N - k));
        add(thi, thi, s, c);
        sub(nhi, zero, thi, b);
      } else {
#pragma unroll
        for (int i = 0; i < Q; ++i) thi[i] = 0, nhi[i] = 0;
      }
      // E = -T mod B^(k2+1) as a signed number (|E| < B^(k2+1)/2); m = |E|.
      const uint32_t top = wide ? digit(nhi, 0) : digit(nlo, k2);
      const bool neg = (top >> 31) != 0;
#pragma unroll
      for (int i = 0; i < Q; ++i) {
        nlo[i] = neg ? tlo[i] : nlo[i];
        nhi[i] = neg ? thi[i] : nhi[i];
      }
      // mh = floor(m / B^k), digits [k, k2] of m.
      uint32_t mh[Q];
      if (wide) fetch<true>(mh, nlo, nhi, int(k));
      else fetch<false>(mh, nlo, zero, int(k));
      keep_below(mh, k2 - k + 1);
      // C = floor(I mh / B^k) + mh = floor(X mh / B^k).
      if (small && small_fits(k, (k2 - k + 1 + Q - 1) / Q)) {
        mul_small(tlo, I, [&](uint32_t (&o)[Q], uint32_t g) {
#pragma unroll
          for (int i = 0; i < Q; ++i) o[i] = __shfl_sync(0xffffffffu, mh[i], int(g), L);
        }, (k2 - k + 1 + Q - 1) / Q);
#pragma unroll
        for (int i = 0; i < Q; ++i) thi[i] = 0;
      } else {
        mul_full(tlo, thi, I, mh, (k2 - k + 1 + Q - 1) / Q);
      }
      uint32_t corr[Q];  // I mh < B^(k2+1): in tlo unless k2 = N
      if (wide) fetch<true>(corr, tlo, thi, int(k));
      else fetch<false>(corr, tlo, zero, int(k));
      add(corr, corr, mh);
      // I' = I B^(k2-k) -+ C, clamped to [0, B^k2 - 1] (the exact value lies there).
      uint32_t a[Q], plus[Q], minus[Q];
      fetch<false>(a, I, zero, -int(k2 - k));
      const uint32_t over = add(plus, a, corr);
      const uint32_t under = sub(minus, a, corr);
      bool high = false;
      if (k2 < uint32_t(N)) {
        uint32_t any = 0;
#pragma unroll
        for (int i = 0; i < Q; ++i)
          if (j * Q + i >= k2) any |= plus[i];
        const uint32_t base = (threadIdx.x & 31u) & ~uint32_t(L - 1);
        const uint64_t seg = (uint64_t(__ballot_sync(0xffffffffu, any != 0)) >> base) & ((uint64_t(1) << L) - 1);
        high = seg != 0;
      }
      const bool clamp_top = !neg && (over != 0 || high), clamp_zero = neg && under != 0;
#pragma unroll
      for (int i = 0; i < Q; ++i) {
        const uint32_t ones = j * Q + i < k2 ? ~0u : 0u;
        I[i] = clamp_top ? ones : clamp_zero ? 0u : neg ? minus[i] : plus[i];
      }
      k = k2;
    }
  }
};

}  // namespace bigtune::kernels::warp
