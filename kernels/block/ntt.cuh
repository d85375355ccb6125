// Block-level NTT multiplication and squaring (seed 000 §4, exact).
//
// Computes the full product r = a·b (or r = a·a) of one instance with one
// thread block, by a number-theoretic transform over `Field`:
// kernels/arith/goldilocks.cuh (p = 2^64 - 2^32 + 1, 16-bit digits) or
// kernels/arith/crt3_field.cuh (three 31-bit primes with CRT, 32-bit digits,
// half the transform length). A field supplies Elem, kDigitBits, add/sub/mul/
// neg/pow, one(), from_digit(), to_integer() (the exact coefficient as 128
// bits), load() (read-only global), root_of_unity() and inverse_pow2(), and
// the multiplier type of the stage tables with its hooks (Twiddle,
// kTwiddleElems, twiddle_part, load_twiddle, mul_twiddle, sub_mul_twiddle;
// digit_scale returns one for from_digit_scaled).
// Unlike seed 000's prototype there is no overflow-unsafe mode: the digit
// width keeps every convolution coefficient below the modulus for any input,
// the all-ones operands included (bounds in each field's header).
//
// Algorithm (sizes and the split: ntt_layout.hpp):
//   for each of the D twisted sub-products t (D = 1 unless N > M):
//     b'_r = N^-1 Σ_q b_{r+qM} ω^{t(r+qM)} (N^-1 folded into the digits;
//       the top log2 M mod 3 stages applied on the way, ntt_load_first)
//       → forward DIF transform (natural in, bit-reversed out) in shared
//       memory → stored to the scratch slot;
//     a'   likewise (without N^-1; a square takes it in its pointwise step),
//       transformed in shared memory, multiplied pointwise by b̂' (or squared:
//       one forward transform saved) → inverse DIT transform (bit-reversed
//       in, natural out; its top stages in ntt_scale_out);
//     s_t[r] = ω^{-tr} · result (the last sub-product, the only one when
//       D = 1, kept in shared memory, the others written to the slot);
//   carry: coefficient k = r + qM is Σ_t s_t[r] ω^{-tqM} (a length-D inverse
//   DFT; just s_0[k] when D = 1); four 16-bit-spaced coefficients make one
//   64-bit limb plus a high word, and a block carry scan (BlockAddSub) adds
//   the high words into the next limbs, one segment of 2·threads limbs at a
//   time with the carry kept in shared memory between segments.
// Cost: (3 - square) · (M/2) · log2 M butterflies per sub-product, each one
// field multiplication (goldilocks.cuh) and two additions, in radix-8 passes
// (ntt_pass); bound and measured
// figures in bench/notes/ntt.md, ntt2.md and ntt3.md (2^17-2^18 bits).
//
// Device entry for other block routines (e.g. division's large products):
//   mul_ntt<Field, kSquare>(r, r_limbs, r_bits, a, a_limbs, b, b_limbs,
//                           plan, tables, x, carry_words, slot, scan_storage)
//   - called by every thread of a block of exactly plan.threads threads
//     (blockDim.x), plan = ntt_plan(a_limbs, b_limbs, log_m_max, threads);
//   - a, b: global (or shared) 64-bit limbs, little-endian, read only; b is
//     ignored when kSquare; a_limbs, b_limbs >= 1, any lengths;
//   - r: r_limbs global limbs, written with the product reduced modulo
//     2^r_bits (limbs past the product are 0); must not overlap a or b;
//   - tables: NttTables<Field>::over(table, plan.log_n) over
//     ntt_table_elems(plan) global elements filled beforehand by
//     launch_ntt_twiddles(table, plan.log_n, stream)
//     (kernels/variants/ntt_launch.hpp; entries: ntt_twiddle_entry);
//   - x: ntt_x_elems(plan) field elements of shared memory; carry_words:
//     kNttCarryLimbs·threads + 2 words of shared memory;
//   - slot: ntt_slot_elems(plan, kSquare) global elements private to the block;
//   - contains __syncthreads(); on return all of r is written and the
//     shared buffers may be reused (a final barrier is included).
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernels/arith/goldilocks.cuh"
#include "kernels/block/ntt_layout.hpp"
#if defined(__CUDACC__)
#include "kernels/block/add_sub.cuh"  // the carry phase; the phases above it also build as host C++
#endif

namespace bigtune::kernels::block {

// Powers of the root of unity ω of order N = 2^log_n: fwd[k] = ω^k and
// inv[k] = ω^-k for k < N/2 (ω^(k+N/2) = -ω^k gives the other half), for the
// twists and any exponent (root, inv_root); and per butterfly stage of
// half-span h = 2^log_h the stage's twiddles ω_2h^x = ω^(x·N/2h), x < h, in
// their own run: stage_fwd[h + x], stage_inv[h + x] (1 <= h + x < N). The
// radix-8 groups read those (ntt_group): a warp's 32 consecutive groups need
// consecutive x, i.e. 32 consecutive entries (4 cache lines per load) instead
// of fwd[x << (log_n - log_h - 1)], up to 32 lines 128+ bytes apart (32 L1
// wavefronts per load: more L1/TEX work than all the shared-memory traffic of
// a pass). The stage runs hold Field::Twiddle entries (T = kTwiddleElems
// elements each: the CRT field's Shoup pairs, crt3_field.cuh). Layout in the
// scratch (ntt_table_elems = 5N, the most any field needs): fwd [0, N/2), inv
// [N/2, N), stage_fwd [N, N + TN), stage_inv [N + TN, N + 2TN); entries:
// ntt_twiddle_entry.
template <class Field>
struct NttTables {
  using Elem = typename Field::Elem;
  using Twiddle = typename Field::Twiddle;
  const Elem* fwd;
  const Elem* inv;
  uint32_t log_n;
  const Twiddle* stage_fwd;
  const Twiddle* stage_inv;

  BIGTUNE_FIELD_HD static NttTables over(const Elem* table, uint32_t log_n) {
    const uint64_t n = uint64_t(1) << log_n, tn = n * Field::kTwiddleElems;
    return NttTables{table, table + n / 2, log_n, reinterpret_cast<const Twiddle*>(table + n),
                     reinterpret_cast<const Twiddle*>(table + n + tn)};
  }

  BIGTUNE_FIELD_HD static Elem load(const Elem* p) { return Field::load(p); }
  // ω^e and ω^-e for any e (taken modulo N).
  BIGTUNE_FIELD_HD Elem root(uint64_t e) const { return pick(fwd, e); }
  BIGTUNE_FIELD_HD Elem inv_root(uint64_t e) const { return pick(inv, e); }

 private:
  // One unconditional load and a select (ω^(e+N/2) = -ω^e): the two
  // predicated loads of `e < half ? load : neg(load)` kept the compiler from
  // issuing the load ahead of its use (ncu, session 15 run B: the twists'
  // load chains in the NTT Montgomery powm).
  BIGTUNE_FIELD_HD Elem pick(const Elem* t, uint64_t e) const {
    const uint64_t half = uint64_t(1) << (log_n - 1);
    const Elem w = load(t + (e & (half - 1)));
    return (e & half) != 0 ? Field::neg(w) : w;
  }
};

// Elements of the layout above that ntt_twiddle_entry fills: N + 2TN.
template <class Field>
BIGTUNE_FIELD_HD constexpr uint64_t ntt_table_used(uint32_t log_n) {
  return uint64_t(1 + 2 * Field::kTwiddleElems) << log_n;
}

// Element i < N + 2TN of the table layout above (the elements past it, up to
// ntt_table_elems, are unused), from ω and ω^-1 (of order N).
template <class Field>
BIGTUNE_FIELD_HD typename Field::Elem ntt_twiddle_entry(const typename Field::Elem& w,
                                                        const typename Field::Elem& w_inv, uint32_t log_n,
                                                        uint64_t i) {
  const uint64_t n = uint64_t(1) << log_n, tn = n * Field::kTwiddleElems;
  if (i < n / 2) return Field::pow(w, i);
  if (i < n) return Field::pow(w_inv, i - n / 2);
  if (i >= n + 2 * tn) return Field::one();  // unused
  const bool inverse = i >= n + tn;
  const uint64_t s = i - n - (inverse ? tn : 0);
  const uint64_t k = s / Field::kTwiddleElems;  // h + x
  const int part = int(s % Field::kTwiddleElems);
  if (k == 0) return Field::twiddle_part(Field::one(), part);  // unused slot
  uint32_t log_h = 0;
  while ((uint64_t(2) << log_h) <= k) ++log_h;
  const uint64_t x = k - (uint64_t(1) << log_h);
  return Field::twiddle_part(Field::pow(inverse ? w_inv : w, x << (log_n - log_h - 1)), part);
}

// Digits of Field::kDigitBits bits (16 Goldilocks, 32 three-prime CRT) per
// 64-bit limb.
template <class Field>
BIGTUNE_FIELD_HD constexpr uint32_t ntt_digits_per_limb() {
  return 64 / Field::kDigitBits;
}

// Digit k of a little-endian operand of 64-bit limbs.
template <class Field = arith::Goldilocks>
BIGTUNE_FIELD_HD uint64_t ntt_digit(const uint64_t* v, uint32_t k) {
  constexpr uint32_t per = ntt_digits_per_limb<Field>(), bits = Field::kDigitBits;
  return (v[k / per] >> ((k % per) * bits)) & ((uint64_t(1) << bits) - 1);
}

// The phases below are written as loops over [0, len) with stride `threads`
// from `tid`, so that the CPU unit tests can run them with tid 0, threads 1;
// the device code calls them with threadIdx.x, blockDim.x and a barrier
// between phases.

// The shared transform buffer x is padded by one element after every 8: the
// radix-8 passes read 8 elements 2^s_lo apart per thread, which for s_lo = 0
// would put 16 threads' 64-bit words on the same banks (16-way conflicts);
// with the pad consecutive threads' groups start 9 words apart.
BIGTUNE_FIELD_HD uint32_t ntt_phys(uint32_t i) { return i + (i >> 3); }

// x[r] = Σ_q digit(r+qM)·ω^{t(r+qM)} for r < M (sub-product t's input),
// computed as ω^{tr} · Σ_q digit(r+qM)·ζ^{tq} with ζ = ω^M of order D: the
// inner factors are ±1 for D = 2 (an add or a sub, no multiplication) and
// one multiplication by ω^{tr} follows, instead of one per digit.
// With kScaled every digit is also multiplied by N^-1 (`scale` =
// Field::digit_scale(N^-1)): the product's second operand carries the inverse
// transform's scaling, so ntt_scale_out has no multiplication left for t = 0.
template <class Field, bool kScaled>
BIGTUNE_FIELD_HD typename Field::Elem ntt_twisted_input(const NttPlan& p, const NttTables<Field>& tw,
                                                        const uint64_t* v, uint32_t digits, uint32_t t,
                                                        uint32_t r, const typename Field::Twiddle& scale) {
  using Elem = typename Field::Elem;
  const uint32_t m = p.m(), half = p.n() / 2;
  Elem acc{};  // zero in every field's representation
  uint32_t q = 0;
  for (uint32_t k = r; k < digits; k += m, ++q) {
    const uint64_t d = ntt_digit<Field>(v, k);
    const Elem dgt = kScaled ? Field::from_digit_scaled(d, scale) : Field::from_digit(d);
    const uint32_t e = uint32_t((uint64_t(t) * q * m) & (p.n() - 1));
    if (e == 0) acc = Field::add(acc, dgt);
    else if (e == half) acc = Field::sub(acc, dgt);
    else acc = Field::add(acc, Field::mul(dgt, tw.root(e)));
  }
  if (t != 0 && r != 0) acc = Field::mul(acc, tw.root(uint64_t(t) * r));
  return acc;
}

// Radix-2^K groups: K consecutive radix-2 stages in registers. A DIF stage of
// half-span h = 2^log_h pairs indices i, i + h with twiddle ω_2h^(i mod h) =
// stage_fwd[h + i mod h] (the root of order 2h is ω^(N/2h)); the stages
// log_h in [s_lo, s_lo + K) only mix indices that differ in bits s_lo..s_lo+K-1,
// so each group of 2^K such indices (the other bits fixed, g_low the bits
// below s_lo) is loaded once, transformed K stages deep and stored once: K
// times less shared-memory traffic and K times fewer barriers than
// stage-by-stage (seed 004 §2 blocks its big-prime FFT the same way).
//
// Twiddles without branches: the e = 0 twiddle is table[0] = ω^0 = 1, so a
// group at a runtime s_lo loads and multiplies it like any other (exact: a
// product by one is the same canonical element). The "e == 0 ? skip" test this
// replaced compiled to a predicated load and a branch around every
// multiplication (SASS, CUDA 13.0: 112 BSSY/BSYNC pairs in the m13 product
// kernel), so no twiddle load could be issued ahead of the butterfly before
// it. Only the stages-0-2 groups (kLow0: s_lo = 0, g_low = 0, the fused
// middle pass and the second operand's last pass) skip the multiplications,
// where j alone makes e zero — known at compile time, 7 of their 12.
template <class Field, int K, bool kInverse, bool kLow0 = false>
BIGTUNE_FIELD_HD void ntt_group(typename Field::Elem (&v)[1 << K], const NttPlan& p, const NttTables<Field>& tw,
                                uint32_t s_lo, uint32_t g_low) {
  using Elem = typename Field::Elem;
  const typename Field::Twiddle* table = kInverse ? tw.stage_inv : tw.stage_fwd;
  if constexpr (kLow0) s_lo = 0, g_low = 0;
#pragma unroll
  for (int step = 0; step < K; ++step) {
    const int st = kInverse ? step : K - 1 - step;  // DIF: top stage first; DIT: bottom first
    const uint32_t hb = 1u << st, h = 1u << (s_lo + uint32_t(st));
#pragma unroll
    for (uint32_t jj = 0; jj < (1u << K) / 2; ++jj) {
      const uint32_t j = ((jj >> st) << (st + 1)) | (jj & (hb - 1));  // bit st of j is 0
      const bool unit = kLow0 && (j & (hb - 1)) == 0;                 // compile-time
      const uint32_t e = h + (((j & (hb - 1)) << s_lo) | g_low);      // stage table: ω_2h^x at h + x
      if constexpr (kInverse) {
        const Elem u = v[j], t = unit ? v[j + hb] : Field::mul_twiddle(v[j + hb], Field::load_twiddle(table + e));
        v[j] = Field::add(u, t);
        v[j + hb] = Field::sub(u, t);
      } else {
        const Elem u = v[j], t = v[j + hb];
        v[j] = Field::add(u, t);
        v[j + hb] = unit ? Field::sub(u, t) : Field::sub_mul_twiddle(u, t, Field::load_twiddle(table + e));
      }
    }
  }
}

// Where group g of a pass at s_lo starts, and its bits below s_lo.
BIGTUNE_FIELD_HD uint32_t ntt_group_base(uint32_t g, uint32_t s_lo, int k) {
  return ((g >> s_lo) << (s_lo + uint32_t(k))) | (g & ((1u << s_lo) - 1));
}

// The transform's log2 M stages are done as radix-8 passes (3 stages per
// shared-memory round trip); the log2 M mod 3 stages left over are not a pass
// of their own (a whole round trip and barrier for one or two stages: m13,
// the 2^17-2^20-bit variants, had a radix-2 pass in each of its three
// transforms) but fused into the round trips that exist anyway: the forward
// transform's top stages into the operand load (ntt_load_first), the inverse
// transform's top stages into the scaling (ntt_scale_out).
BIGTUNE_FIELD_HD constexpr uint32_t ntt_lead_log(const NttPlan& p) { return p.log_m % 3; }

// ntt_twisted_input where every r has at most one digit (digits <= M: every
// D = 1 product, the D = 2 split's half-length operands), in two steps, so
// that the loads of a thread's next group go out before this group's
// arithmetic and shared-memory stores (which the compiler may not move loads
// across: the operand and x are both generic pointers). ncu, session 16 run
// E: in the NTT Montgomery powm 36 % of the long-scoreboard stalls waited on
// these two loads, one group's at a time; straight-line code alone (run F)
// did not change the rate.
// Fetch: the operand word that holds digit r and the twist ω^(t·r) (loads only).
template <class Field>
struct NttInputFetch {
  uint64_t word;
  typename Field::Elem twist;
};
template <class Field>
BIGTUNE_FIELD_HD NttInputFetch<Field> ntt_input_fetch(const NttTables<Field>& tw, const uint64_t* v, uint32_t digits,
                                                      uint32_t t, uint32_t r) {
  constexpr uint32_t per = ntt_digits_per_limb<Field>();
  NttInputFetch<Field> f;
  f.word = digits == 0 ? 0 : v[(r < digits ? r : 0) / per];  // clamped into the operand
  f.twist = t != 0 ? tw.root(uint64_t(t) * r) : Field::one();  // ω^0 = 1: an exact product by one
  return f;
}
// Finish: the element, as ntt_twisted_input computes it.
template <class Field, bool kScaled>
BIGTUNE_FIELD_HD typename Field::Elem ntt_input_finish(const NttInputFetch<Field>& f, uint32_t digits, uint32_t t,
                                                       uint32_t r, const typename Field::Twiddle& scale) {
  const uint64_t digit = r < digits ? ntt_digit<Field>(&f.word, r % ntt_digits_per_limb<Field>()) : 0;
  const auto dgt = kScaled ? Field::from_digit_scaled(digit, scale) : Field::from_digit(digit);
  return t != 0 ? Field::mul(dgt, f.twist) : dgt;
}

// Sub-product t's twisted input (ntt_twisted_input) into x, with the top K
// forward (DIF) stages applied on the way: group g < M/2^K holds the elements
// g + j·2^(log_m-K), j < 2^K (ntt_group with s_lo = log_m - K, g_low = g).
// kPrefetch: where an r has at most one digit, a thread's next group's loads
// go out before this group's arithmetic (ntt_input_fetch).
template <class Field, int K, bool kScaled, bool kPrefetch>
BIGTUNE_FIELD_HD void ntt_load_first_k(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                                       const uint64_t* v, uint32_t digits, uint32_t t, uint32_t tid,
                                       uint32_t threads) {
  const uint32_t s_lo = p.log_m - uint32_t(K);
  const auto scale = Field::digit_scale(Field::inverse_pow2(int(p.log_n)));
  const uint32_t groups = p.m() >> K;
  if (kPrefetch && digits <= p.m()) {
    NttInputFetch<Field> next[1 << K] = {};
#pragma unroll
    for (uint32_t j = 0; j < (1u << K); ++j)
      if (tid < groups) next[j] = ntt_input_fetch<Field>(tw, v, digits, t, tid + (j << s_lo));
    for (uint32_t g = tid; g < groups; g += threads) {
      NttInputFetch<Field> cur[1 << K];
#pragma unroll
      for (uint32_t j = 0; j < (1u << K); ++j) {
        cur[j] = next[j];
        if (g + threads < groups) next[j] = ntt_input_fetch<Field>(tw, v, digits, t, g + threads + (j << s_lo));
      }
      typename Field::Elem e[1 << K];
#pragma unroll
      for (uint32_t j = 0; j < (1u << K); ++j)
        e[j] = ntt_input_finish<Field, kScaled>(cur[j], digits, t, g + (j << s_lo), scale);
      if constexpr (K > 0) ntt_group<Field, K, false>(e, p, tw, s_lo, g);
#pragma unroll
      for (uint32_t j = 0; j < (1u << K); ++j) x[ntt_phys(g + (j << s_lo))] = e[j];
    }
    return;
  }
  for (uint32_t g = tid; g < groups; g += threads) {
    typename Field::Elem e[1 << K];
#pragma unroll
    for (uint32_t j = 0; j < (1u << K); ++j)
      e[j] = ntt_twisted_input<Field, kScaled>(p, tw, v, digits, t, g + (j << s_lo), scale);
    if constexpr (K > 0) ntt_group<Field, K, false>(e, p, tw, s_lo, g);
#pragma unroll
    for (uint32_t j = 0; j < (1u << K); ++j) x[ntt_phys(g + (j << s_lo))] = e[j];
  }
}

template <class Field, bool kScaled, bool kPrefetch = false>
BIGTUNE_FIELD_HD void ntt_load_first(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                                     const uint64_t* v, uint32_t digits, uint32_t t, uint32_t tid,
                                     uint32_t threads) {
  const uint32_t k = ntt_lead_log(p);
  if (k == 2) ntt_load_first_k<Field, 2, kScaled, kPrefetch>(x, p, tw, v, digits, t, tid, threads);
  else if (k == 1) ntt_load_first_k<Field, 1, kScaled, kPrefetch>(x, p, tw, v, digits, t, tid, threads);
  else ntt_load_first_k<Field, 0, kScaled, kPrefetch>(x, p, tw, v, digits, t, tid, threads);
}

template <class Field, int K, bool kInverse>
BIGTUNE_FIELD_HD void ntt_pass(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                               uint32_t s_lo, uint32_t tid, uint32_t threads) {
  for (uint32_t g = tid; g < (p.m() >> K); g += threads) {
    const uint32_t base = ntt_group_base(g, s_lo, K);
    typename Field::Elem v[1 << K];
#pragma unroll
    for (uint32_t j = 0; j < (1u << K); ++j) v[j] = x[ntt_phys(base + (j << s_lo))];
    ntt_group<Field, K, kInverse>(v, p, tw, s_lo, g & ((1u << s_lo) - 1));
#pragma unroll
    for (uint32_t j = 0; j < (1u << K); ++j) x[ntt_phys(base + (j << s_lo))] = v[j];
  }
}

// Radix-8 passes; the stages left over (log2 M mod 3): ntt_lead_log.
constexpr uint32_t kNttPassLog = 3;

// Barriers. barrier(false) is __syncthreads on the device (nothing on the
// host); barrier(true) may be a warp barrier (__syncwarp) and is used only
// between the stages-3-5 pass and the stages-0-2 pass (the fused middle pass,
// the second operand's last pass), either way round: the elements of the
// stages-3-5 pass's group g (s_lo = 3) are the 64 of sub-array g/8, those of
// the stages-0-2 pass's group g are 8g..8g+7, so the groups 8k..8k+7 of both
// passes touch exactly sub-array k; group g runs on thread g mod threads
// (threads a power of two >= 32), so a sub-array's 8 groups stay within one
// warp in both passes. In the a-transform that is 2 of its ~9 block barriers,
// 1 of the b-transform's ~5 (one block of 1024 threads per SM at m13: every
// block barrier drains the whole SM).
//
// A Barrier type may also own the radix-8 pass: with a member kOwnsPasses
// the passes below call barrier.pass<Field, kInverse>(x, p, tw, s_lo, tid,
// threads) instead of inlining ntt_pass, e.g. one out-of-line copy of each
// direction for every transform of a kernel (kernels/modular/nttmont_powm.cuh:
// seven transforms a step, each inlined copy ~10 KB of SASS, and instruction
// fetch stalls were ~17 % of its warps' samples, ncu session 15 run D).
template <class Barrier, class = void>
struct NttBarrierOwnsPasses : std::false_type {};
template <class Barrier>
struct NttBarrierOwnsPasses<Barrier, std::void_t<decltype(Barrier::kOwnsPasses)>> : std::true_type {};

// A Barrier type with a member kPrefetchesInput = true also has the input
// phase fetch a thread's next group ahead (ntt_load_first_k's kPrefetch).
// Measured (H100, bench/results/2026-11-28-h100-session16.md, run H):
// 1.013x / 1.025x the NTT Montgomery powm at 32 / 64 Kbit, but 0.97x the NTT
// Barrett powm (more spills: nb_full_product's 64-register build stored 224
// bytes instead of 152), so it is per kernel; the products were not measured
// with it.
template <class Barrier, class = void>
struct NttBarrierPrefetchesInput : std::false_type {};
template <class Barrier>
struct NttBarrierPrefetchesInput<Barrier, std::void_t<decltype(Barrier::kPrefetchesInput)>>
    : std::bool_constant<Barrier::kPrefetchesInput> {};

template <class Field, bool kInverse, class Barrier>
BIGTUNE_FIELD_HD void ntt_radix8_pass(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                                      uint32_t s_lo, uint32_t tid, uint32_t threads, const Barrier& barrier) {
  if constexpr (NttBarrierOwnsPasses<Barrier>::value)
    barrier.template pass<Field, kInverse>(x, p, tw, s_lo, tid, threads);
  else
    ntt_pass<Field, kNttPassLog, kInverse>(x, p, tw, s_lo, tid, threads);
}

// Forward (DIF: natural in, bit-reversed out) stages [stop, log_m - lead),
// highest first, radix-8 (the lead stages were done by ntt_load_first, so
// every pass is 3 deep); a barrier after every pass.
template <class Field, class Barrier>
BIGTUNE_FIELD_HD void ntt_forward_passes(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                                         uint32_t stop, uint32_t tid, uint32_t threads, Barrier barrier) {
  for (uint32_t top = p.log_m - ntt_lead_log(p); top > stop; top -= kNttPassLog) {
    ntt_radix8_pass<Field, false>(x, p, tw, top - kNttPassLog, tid, threads, barrier);
    barrier(top - kNttPassLog == kNttPassLog && stop == kNttPassLog);  // ntt_warp_local
  }
}

// Inverse (DIT: bit-reversed in, natural out, unscaled) stages
// [start, log_m - lead), lowest first (the lead stages: ntt_scale_out).
template <class Field, class Barrier>
BIGTUNE_FIELD_HD void ntt_inverse_passes(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                                         uint32_t start, uint32_t tid, uint32_t threads, Barrier barrier) {
  for (uint32_t lo = start; lo < p.log_m - ntt_lead_log(p); lo += kNttPassLog) {
    ntt_radix8_pass<Field, true>(x, p, tw, lo, tid, threads, barrier);
    barrier(false);
  }
}

// Where element j (< 8) of the stages-0-2 group g lives in b_hat (global, M
// elements): for M >= 256, in tiles of 32 groups (a warp's), j-major inside
// the tile: ((g/32)·8 + j)·32 + g%32, so that a warp's 32 groups write and
// read 32 consecutive elements per j (coalesced) instead of 32 runs of 8
// elements 8·size apart (a sector per thread and word), and the 8 addresses
// of a group are one base plus constant offsets (a stride of M/8 cost
// registers and spills). Smaller transforms keep 8g + j. Written by
// ntt_last_pass_out and read by ntt_middle_pass only, with the same group of
// the same thread (ncu, 2026-11-22: the mul kernel's L1/L2 traffic).
BIGTUNE_FIELD_HD uint32_t ntt_bhat_base(const NttPlan& p, uint32_t g) {
  return p.log_m >= 8 ? ((g >> 5) << 8) + (g & 31) : 8 * g;
}
constexpr uint32_t kNttBhatStride = 32;  // between the j of one group, M >= 256

// The last forward pass (stages 0-2) of the second operand, written straight
// to b_hat (global, ntt_bhat_base order) instead of back.
template <class Field>
BIGTUNE_FIELD_HD void ntt_last_pass_out(typename Field::Elem* b_hat, const typename Field::Elem* x,
                                        const NttPlan& p, const NttTables<Field>& tw, uint32_t tid,
                                        uint32_t threads) {
  for (uint32_t g = tid; g < (p.m() >> 3); g += threads) {
    typename Field::Elem v[8];
#pragma unroll
    for (uint32_t j = 0; j < 8; ++j) v[j] = x[ntt_phys(8 * g + j)];
    ntt_group<Field, 3, false, true>(v, p, tw, 0, 0);
    typename Field::Elem* out = b_hat + ntt_bhat_base(p, g);
    if (p.log_m >= 8) {
#pragma unroll
      for (uint32_t j = 0; j < 8; ++j) out[j * kNttBhatStride] = v[j];
    } else {
#pragma unroll
      for (uint32_t j = 0; j < 8; ++j) out[j] = v[j];
    }
  }
}

// Last forward pass, a pointwise step and first inverse pass fused: the
// stages-0-2 groups of both transforms are the same 8 elements, so the
// spectrum never goes back to shared memory in between. pointwise(g, v)
// changes group g's 8 spectrum elements in place; element j of group g is
// entry ntt_bhat_base(p, g) + j·(log_m >= 8 ? kNttBhatStride : 1) of a
// cached spectrum (ntt_last_pass_out's order).
template <class Field, class Pointwise>
BIGTUNE_FIELD_HD void ntt_middle_pass_with(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                                           uint32_t tid, uint32_t threads, Pointwise pointwise) {
  for (uint32_t g = tid; g < (p.m() >> 3); g += threads) {
    typename Field::Elem v[8];
#pragma unroll
    for (uint32_t j = 0; j < 8; ++j) v[j] = x[ntt_phys(8 * g + j)];
    ntt_group<Field, 3, false, true>(v, p, tw, 0, 0);
    pointwise(g, v);
    ntt_group<Field, 3, true, true>(v, p, tw, 0, 0);
#pragma unroll
    for (uint32_t j = 0; j < 8; ++j) x[ntt_phys(8 * g + j)] = v[j];
  }
}

// Group g's 8 spectrum elements times those of y (a cached spectrum).
template <class Field>
BIGTUNE_FIELD_HD void ntt_group_times(typename Field::Elem (&v)[8], const typename Field::Elem* y,
                                      const NttPlan& p, uint32_t g) {
  const typename Field::Elem* yq = y + ntt_bhat_base(p, g);
  if (p.log_m >= 8) {
#pragma unroll
    for (uint32_t j = 0; j < 8; ++j) v[j] = Field::mul(v[j], yq[j * kNttBhatStride]);
  } else {
#pragma unroll
    for (uint32_t j = 0; j < 8; ++j) v[j] = Field::mul(v[j], yq[j]);
  }
}

// The middle pass with the pointwise product by y (null: square).
template <class Field>
BIGTUNE_FIELD_HD void ntt_middle_pass(typename Field::Elem* x, const typename Field::Elem* y, const NttPlan& p,
                                      const NttTables<Field>& tw, uint32_t tid, uint32_t threads) {
  using Elem = typename Field::Elem;
  ntt_middle_pass_with<Field>(x, p, tw, tid, threads, [&](uint32_t g, Elem(&v)[8]) {
    if (y != nullptr) {
      ntt_group_times<Field>(v, y, p, g);
    } else {  // square: N^-1 here (a product has it in y's digits)
      const auto n_inv = Field::inverse_pow2(int(p.log_n));
#pragma unroll
      for (uint32_t j = 0; j < 8; ++j) v[j] = Field::mul(Field::mul(v[j], v[j]), n_inv);
    }
  });
}

// Unfused pointwise product for transforms shorter than 8: x[i] *= y[i].
template <class Field>
BIGTUNE_FIELD_HD void ntt_pointwise(typename Field::Elem* x, const typename Field::Elem* y, const NttPlan& p,
                                    uint32_t tid, uint32_t threads) {
  const auto n_inv = Field::inverse_pow2(int(p.log_n));  // square: N^-1 here (ntt_middle_pass)
  for (uint32_t i = tid; i < p.m(); i += threads) {
    const auto v = x[ntt_phys(i)];
    x[ntt_phys(i)] = y ? Field::mul(v, y[i]) : Field::mul(Field::mul(v, v), n_inv);
  }
}

// The top `lead` inverse (DIT) stages, then s_t[r] = ω^{-tr} x[r] (N^-1 is
// already in: the second operand's digits, or the square's pointwise step):
// to subs + t·M (unpadded, global) for t < D - 1, in place for the last
// sub-product (t = D - 1, the only one when D = 1): ntt_coefficient reads that
// one from shared memory, so a split of D = 2 (2^18 bits with m13) writes and
// reads back half the global scratch it did. Nothing to do (no round trip)
// for D = 1 without lead stages (m12 at 2^16 bits). subs null: every t in
// place (one sub-product on its own: the NTT Montgomery powm's cyclic and
// negacyclic halves, kernels/modular/nttmont_powm.cuh).
template <class Field, int K>
BIGTUNE_FIELD_HD void ntt_scale_out_k(typename Field::Elem* subs, typename Field::Elem* x, const NttPlan& p,
                                      const NttTables<Field>& tw, uint32_t t, uint32_t tid, uint32_t threads) {
  const uint32_t s_lo = p.log_m - uint32_t(K);
  const bool to_subs = subs != nullptr && t + 1 < p.d();  // no subs: in place for any t
  if (K == 0 && t == 0 && !to_subs) return;
  for (uint32_t g = tid; g < (p.m() >> K); g += threads) {
    typename Field::Elem e[1 << K];
#pragma unroll
    for (uint32_t j = 0; j < (1u << K); ++j) e[j] = x[ntt_phys(g + (j << s_lo))];
    if constexpr (K > 0) ntt_group<Field, K, true>(e, p, tw, s_lo, g);
#pragma unroll
    for (uint32_t j = 0; j < (1u << K); ++j) {
      const uint32_t r = g + (j << s_lo);
      const auto v = t == 0 || r == 0 ? e[j] : Field::mul(e[j], tw.inv_root(uint64_t(t) * r));
      if (to_subs) subs[uint64_t(t) * p.m() + r] = v;
      else x[ntt_phys(r)] = v;
    }
  }
}

template <class Field>
BIGTUNE_FIELD_HD void ntt_scale_out(typename Field::Elem* subs, typename Field::Elem* x, const NttPlan& p,
                                    const NttTables<Field>& tw, uint32_t t, uint32_t tid, uint32_t threads) {
  const uint32_t k = ntt_lead_log(p);
  if (k == 2) ntt_scale_out_k<Field, 2>(subs, x, p, tw, t, tid, threads);
  else if (k == 1) ntt_scale_out_k<Field, 1>(subs, x, p, tw, t, tid, threads);
  else ntt_scale_out_k<Field, 0>(subs, x, p, tw, t, tid, threads);
}

// Sub-product t: forward transforms of the twisted operands, pointwise
// product, inverse transform, scaled result (ntt_scale_out). x: the padded
// shared buffer; b_hat: M global elements (unused when kSquare); subs: D·M
// global elements (unused when D = 1).
template <class Field, bool kSquare, class Barrier>
BIGTUNE_FIELD_HD void ntt_sub_product(typename Field::Elem* x, typename Field::Elem* b_hat,
                                      typename Field::Elem* subs, const NttPlan& p, const NttTables<Field>& tw,
                                      const uint64_t* a, uint32_t a_limbs, const uint64_t* b, uint32_t b_limbs,
                                      uint32_t t, uint32_t tid, uint32_t threads, Barrier barrier) {
  const bool fused = p.log_m >= kNttPassLog;
  const uint32_t split = fused ? kNttPassLog : 0;
  if (!kSquare) {
    ntt_load_first<Field, true, NttBarrierPrefetchesInput<Barrier>::value>(
        x, p, tw, b, b_limbs * ntt_digits_per_limb<Field>(), t, tid, threads);
    barrier(false);
    ntt_forward_passes<Field>(x, p, tw, split, tid, threads, barrier);
    if (fused) {
      ntt_last_pass_out<Field>(b_hat, x, p, tw, tid, threads);
    } else {
      for (uint32_t i = tid; i < p.m(); i += threads) b_hat[i] = x[ntt_phys(i)];
    }
    barrier(false);
  }
  ntt_load_first<Field, false, NttBarrierPrefetchesInput<Barrier>::value>(
      x, p, tw, a, a_limbs * ntt_digits_per_limb<Field>(), t, tid, threads);
  barrier(false);
  ntt_forward_passes<Field>(x, p, tw, split, tid, threads, barrier);
  if (fused) {
    ntt_middle_pass<Field>(x, kSquare ? nullptr : b_hat, p, tw, tid, threads);
  } else {
    ntt_pointwise<Field>(x, kSquare ? nullptr : b_hat, p, tid, threads);
  }
  // Warp-local when a stages-3-5 inverse pass follows (ntt_forward_passes).
  barrier(fused && p.log_m - ntt_lead_log(p) >= 2 * kNttPassLog);
  ntt_inverse_passes<Field>(x, p, tw, split, tid, threads, barrier);
  ntt_scale_out<Field>(subs, x, p, tw, t, tid, threads);
  barrier(false);
}

// Product coefficient k (an exact integer below p): s_0[k] (in x) when D = 1,
// else the length-D inverse DFT Σ_t s_t[r] ω^{-tqM} with k = r + qM, the last
// term s_{D-1} in x (ntt_scale_out); factors ω^{-tqM} = ±1 (always, for D = 2)
// are an add or a sub.
template <class Field>
BIGTUNE_FIELD_HD typename Field::Elem ntt_coefficient(const typename Field::Elem* x,
                                                      const typename Field::Elem* subs, const NttPlan& p,
                                                      const NttTables<Field>& tw, uint64_t k) {
  if (k >= p.n()) return typename Field::Elem{};
  if (p.log_d == 0) return x[ntt_phys(uint32_t(k))];
  const uint32_t m = p.m(), r = uint32_t(k) & (m - 1), q = uint32_t(k >> p.log_m), half = p.n() / 2;
  typename Field::Elem c{};
  for (uint32_t t = 0; t < p.d(); ++t) {
    const typename Field::Elem s = t + 1 < p.d() ? subs[uint64_t(t) * m + r] : x[ntt_phys(r)];
    const uint32_t e = uint32_t((uint64_t(t) * q * m) & (p.n() - 1));
    if (e == 0) c = Field::add(c, s);
    else if (e == half) c = Field::sub(c, s);
    else c = Field::add(c, Field::mul(s, tw.inv_root(e)));
  }
  return c;
}

// Limb j of the product before carries: Σ_i c_{Lj+i} 2^{di} (L digits of d
// bits per limb) as (lo, hi). A coefficient is an integer c_lo + c_hi·2^64
// (Field::to_integer; c_hi = 0 for Goldilocks, < 2^16 for the CRT field up to
// 2^16 digits), so hi stays below 2^50 either way.
template <class Field>
BIGTUNE_FIELD_HD void ntt_limb_parts(uint64_t& lo, uint64_t& hi, const typename Field::Elem* x,
                                     const typename Field::Elem* subs, const NttPlan& p,
                                     const NttTables<Field>& tw, uint64_t j) {
  constexpr uint32_t per = ntt_digits_per_limb<Field>();
  Field::to_integer(ntt_coefficient<Field>(x, subs, p, tw, j * per), lo, hi);
#pragma unroll
  for (uint32_t i = 1; i < per; ++i) {
    uint64_t c_lo, c_hi;
    Field::to_integer(ntt_coefficient<Field>(x, subs, p, tw, j * per + i), c_lo, c_hi);
    const uint32_t sh = i * uint32_t(Field::kDigitBits);
    const uint64_t part = c_lo << sh;
    lo += part;
    hi += (c_lo >> (64 - sh)) + (c_hi << sh) + (lo < part);
  }
}

#if defined(__CUDACC__)
// The carry phase of every product here and in ntt_cached.cuh (mul_ntt below,
// mul_ntt_cached, the fused Barrett powm's reduction products): limbs
// [0, limbs) of Σ_k c_k 2^(d·k) from the coefficients in x (and subs), in
// segments of seg = kNttCarryLimbs·threads limbs; carry_words[0, seg) hold a
// segment's high words, carry_words[seg] the high word + carry coming in
// from the previous segment.
//   adjust(j, lo, hi): called for every limb j before the carries; may add
//     another operand's word into the limb (lo += w, hi += the carry: hi <
//     2^50 leaves room), e.g. Barrett's q = P_hi + q1 in the product's own
//     scan (kernels/modular/nttbarrett_powm.cuh);
//   emit(j, v): the limb's final word, for j < emit_limbs; emit_limbs >
//     limbs asks for limbs past `limbs` in the last segment too (they have
//     no coefficients left: their words are what carries into them).
// Ends with a block barrier; then carry_words[seg] is the carry into limb
// ceil(limbs / seg)·seg, the first after the last segment.
// ntt_carry_phase_parts: the same with limb j's (lo, hi) from parts(j, lo, hi)
// instead of ntt_limb_parts (hi < 2^50 either way).
template <class Parts, class Adjust, class Emit>
__device__ __forceinline__ void ntt_carry_phase_parts(uint32_t limbs, uint32_t emit_limbs, Parts parts,
                                                      uint64_t* carry_words,
                                                      typename BlockAddSub<uint64_t, kNttCarryLimbs,
                                                                           false>::TempStorage& scan_storage,
                                                      Adjust adjust, Emit emit) {
  const uint32_t tid = threadIdx.x, threads = blockDim.x;
  constexpr uint32_t Q = kNttCarryLimbs;
  const uint32_t seg = Q * threads;
  if (tid == 0) carry_words[seg] = 0;
  for (uint32_t base = 0; base < limbs; base += seg) {
    uint64_t lo[Q], hi[Q];
#pragma unroll
    for (uint32_t k = 0; k < Q; ++k) {
      parts(uint64_t(base) + tid * Q + k, lo[k], hi[k]);
      adjust(uint64_t(base) + tid * Q + k, lo[k], hi[k]);
      carry_words[tid * Q + k] = hi[k];
    }
    __syncthreads();
    auto high_before = [&](int k) -> uint64_t {
      if (k > 0) return hi[k - 1];
      return tid == 0 ? carry_words[seg] : carry_words[tid * Q - 1];
    };
    auto emit_k = [&](int k, uint64_t v) {
      const uint64_t j = uint64_t(base) + tid * Q + k;
      if (j < emit_limbs) emit(j, v);
    };
    const uint64_t carry = BlockAddSub<uint64_t, Q, false>(scan_storage).run(lo, high_before, tid == 0, emit_k);
    __syncthreads();
    if (tid == threads - 1) carry_words[seg] = hi[Q - 1] + carry;  // hi < 2^50: no overflow
    __syncthreads();
  }
}

template <class Field, class Adjust, class Emit>
__device__ __forceinline__ void ntt_carry_phase(uint32_t limbs, uint32_t emit_limbs, const typename Field::Elem* x,
                                                const typename Field::Elem* subs, const NttPlan& p,
                                                const NttTables<Field>& tw, uint64_t* carry_words,
                                                typename BlockAddSub<uint64_t, kNttCarryLimbs, false>::TempStorage&
                                                    scan_storage,
                                                Adjust adjust, Emit emit) {
  ntt_carry_phase_parts(
      limbs, emit_limbs,
      [&](uint64_t j, uint64_t& lo, uint64_t& hi) { ntt_limb_parts<Field>(lo, hi, x, subs, p, tw, j); },
      carry_words, scan_storage, adjust, emit);
}

// adjust of ntt_carry_phase: nothing added.
struct NttNoAdjust {
  __device__ void operator()(uint64_t, uint64_t&, uint64_t&) const {}
};
// emit of ntt_carry_phase: r (r_limbs words) reduced modulo 2^r_bits (limbs
// past r_bits are 0).
struct NttStoreLimbs {
  uint64_t* r;
  uint32_t r_limbs;
  uint64_t top_limb, top_mask;
  __device__ NttStoreLimbs(uint64_t* r_, uint32_t r_limbs_, uint64_t r_bits)
      : r(r_), r_limbs(r_limbs_), top_limb(r_bits / 64), top_mask((uint64_t(1) << (r_bits % 64)) - 1) {}
  __device__ void operator()(uint64_t j, uint64_t v) const {
    if (j >= r_limbs) return;
    if (j > top_limb) v = 0;
    if (j == top_limb) v &= top_mask;
    r[j] = v;
  }
};

template <class Field, bool kSquare>
__device__ void mul_ntt(uint64_t* r, uint32_t r_limbs, uint64_t r_bits, const uint64_t* a, uint32_t a_limbs,
                        const uint64_t* b, uint32_t b_limbs, const NttPlan& p, const NttTables<Field>& tw,
                        typename Field::Elem* x, uint64_t* carry_words, typename Field::Elem* slot,
                        typename BlockAddSub<uint64_t, kNttCarryLimbs, false>::TempStorage& scan_storage) {
  using Elem = typename Field::Elem;
  const uint32_t tid = threadIdx.x, threads = blockDim.x;
  Elem* b_hat = slot;                                  // M elements (mul only)
  Elem* subs = slot + (kSquare ? 0 : p.m());           // D·M elements (split only)
  for (uint32_t t = 0; t < p.d(); ++t)
    ntt_sub_product<Field, kSquare>(x, b_hat, subs, p, tw, a, a_limbs, b, b_limbs, t, tid, threads,
                                    [](bool warp_local) {
                                      if (warp_local) __syncwarp();
                                      else __syncthreads();
                                    });
  ntt_carry_phase<Field>(r_limbs, r_limbs, x, subs, p, tw, carry_words, scan_storage, NttNoAdjust{},
                         NttStoreLimbs(r, r_limbs, r_bits));
}
#endif  // __CUDACC__

}  // namespace bigtune::kernels::block
