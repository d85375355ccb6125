// The glue kernels of the Barrett pipeline (kernels/variants/
// barrett_instances.cu; the arithmetic and its bound: barrett.hpp), one warp
// per instance, words j = lane, lane + 32, ... (coalesced rows). Each is a
// per-instance body plus a grid-stride __global__ wrapper; the bodies also run
// on the host warp emulation (tests/support/warp_emulation.hpp,
// tests/unit/barrett_emulation_test.cpp), which leaves the wrappers out.
#pragma once
#include <cstdint>

#include "kernels/modular/barrett.hpp"

namespace bigtune::kernels::modular {

// Device view of one call.
struct BarrettDev {
  uint64_t count;        // instances
  uint64_t count_m;      // moduli (1: shared)
  uint32_t n;            // 64-bit words per operand
  uint32_t* shift;       // s per instance
  uint32_t* d;           // carry of q = P_hi + q1 (bit N of q, bit 0; the tensor quotient adds block::kQuotientExact)
  uint32_t* flag;        // some operand >= m
  uint64_t* mprime;      // m << s, n words per instance
  uint64_t* mu;          // mu_lo, n words per instance
  uint32_t* mu2;         // tensor cores: mu2_lo = 2^32 mu_lo + d, 2n + 1 words (barrett.hpp)
  uint64_t* q;           // n words per instance
  uint64_t* p;           // 2n words per instance
  uint64_t* alt;         // 2n words per instance: the finish pass's second row
  uint64_t* dividend;    // 2n words per modulus
  uint64_t* divisor;     // n words per modulus
  const uint64_t* quot;  // 2n words per modulus
  // Subtractions of m' the finish allows: kBarrettMaxCorrections, one more
  // where P_hi may be one low (the tensor cores' high half, tcbarrett).
  uint32_t corrections;
  // The q m' pass finished the instances with s = 0 itself
  // (launch_barrett_imma_remainder): the finish kernels skip them.
  uint32_t finished_full_width;
};

// The operand check's flag: bit 0 some operand >= m (barrett_check_body),
// bit 1 the kept constants are not m's (barrett_modulus_compare_kernel).
constexpr uint32_t kBarrettOperandTooLarge = 1, kBarrettModulusChanged = 2;

__device__ inline uint32_t barrett_lane() { return threadIdx.x & 31u; }
// Where instance i's s and m' are: the one copy of a shared modulus (index
// 0, unless barrett_mu_kernel copied it to every instance), else its own.
__device__ inline uint64_t barrett_mod_index(const BarrettDev& v, uint64_t i) { return v.count_m == 1 ? 0 : i; }
__device__ inline uint32_t barrett_round_len(uint32_t words, uint32_t base) {
  return words - base < 32u ? words - base : 32u;
}

// Carry into this lane and out of the round's `len` words (barrett.hpp).
struct BarrettCarry {
  uint32_t in, out;
};
__device__ inline BarrettCarry barrett_resolve(bool g, bool p, uint32_t cin, uint32_t len) {
  const uint32_t gm = __ballot_sync(~0u, g), pm = __ballot_sync(~0u, p);
  const uint64_t c = barrett_carry_vector(gm, pm, cin);
  return {uint32_t(c >> barrett_lane()) & 1u, uint32_t(c >> len) & 1u};
}

// Modulus row i < count_m: s, m' = m << s, the division's operands
// (dividend 2^(2N) - 1 of 2n words, divisor m' of n words: the layout of
// divmod's own tests and benchmark, a divisor of half the dividend's bits).
__device__ inline void barrett_prep_body(const BarrettDev& v, const uint64_t* m, uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane();
  const uint64_t* mi = m + i * n;
  uint32_t top = 0;  // 1 + index of the highest nonzero word, 0 if none
  for (uint32_t j = lane; j < n; j += 32)
    if (mi[j] != 0) top = j + 1;
  top = __reduce_max_sync(~0u, top);
  // m = 0 is documented as not allowed: s = 0 keeps the arithmetic bounded.
  const uint32_t bitlen = top == 0 ? 64 * n : 64 * (top - 1) + 64 - uint32_t(__clzll((long long)mi[top - 1]));
  const uint32_t s = 64 * n - bitlen, ws = s / 64, bs = s % 64;
  if (lane == 0) v.shift[i] = s;
  uint64_t* mp = v.mprime + i * n;
  uint64_t* dd = v.dividend + i * 2 * n;
  uint64_t* dv = v.divisor + i * n;
  for (uint32_t j = lane; j < 2 * n; j += 32) {
    if (j < n) {
      const uint64_t w = barrett_shl_word(mi, n, j, ws, bs);
      mp[j] = w;
      dv[j] = w;
    }
    dd[j] = ~uint64_t(0);
  }
}

// mu_lo = the quotient's low n words (its bit N is 1: m' < 2^N); with a shared
// modulus, row 0's s, m' and mu copied to every instance (the products take
// one operand per instance; row 0 itself is only read).
__device__ inline void barrett_mu_body(const BarrettDev& v, uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane();
  const uint64_t src = v.count_m == 1 ? 0 : i;
  const uint64_t* qs = v.quot + src * 2 * n;
  for (uint32_t j = lane; j < n; j += 32) {
    v.mu[i * n + j] = qs[j];
    if (src != i) v.mprime[i * n + j] = v.mprime[j];
  }
  if (lane == 0 && src != i) v.shift[i] = v.shift[0];
}

// flag |= 1 if a >= m for instance i where its modulus is shorter than N
// bits (s > 0): the highest differing word decides. With s = 0 any a < 2^N
// needs nothing: a b < 2^(2N) is within Barrett's bound (barrett.hpp), so
// such an instance reads nothing here.
__device__ inline void barrett_check_body(const BarrettDev& v, const uint64_t* a, const uint64_t* m, uint64_t i) {
  if (v.shift[barrett_mod_index(v, i)] == 0) return;
  const uint32_t n = v.n, lane = barrett_lane();
  const uint64_t* ai = a + i * n;
  const uint64_t* mi = m + barrett_mod_index(v, i) * n;
  bool ge = true;  // equal: a = m is reduced too
  for (int64_t base = int64_t((n - 1) / 32) * 32; base >= 0; base -= 32) {
    const uint64_t j = uint64_t(base) + lane;
    const uint64_t x = j < n ? ai[j] : 0, y = j < n ? mi[j] : 0;
    const uint32_t diff = __ballot_sync(~0u, x != y);
    if (diff) {
      const int hi = 31 - __clz(int(diff));
      ge = __shfl_sync(~0u, x > y ? 1 : 0, hi) != 0;
      break;
    }
  }
  if (lane == 0 && ge) atomicOr(v.flag, kBarrettOperandTooLarge);
}

// q1 = floor((t << s) / 2^N): words n .. 2n-1 of t << s (t of t_words words).
__device__ inline void barrett_q1_body(const BarrettDev& v, const uint64_t* t, uint32_t t_words, uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane();
  const uint32_t s = v.shift[barrett_mod_index(v, i)];
  const uint64_t* ti = t + i * t_words;
  uint64_t* qi = v.q + i * n;
  for (uint32_t j = lane; j < n; j += 32) qi[j] = barrett_shl_word(ti, t_words, int64_t(n) + j, s / 64, s % 64);
}

// q = floor(q1 * mu / 2^N) = P_hi + q1 (P = q1 * mu_lo): low n words into q,
// bit N into d. Each lane reads and writes only its own words of q.
__device__ inline void barrett_qadd_body(const BarrettDev& v, uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane();
  const uint64_t* ph = v.p + i * 2 * n + n;
  uint64_t* qi = v.q + i * n;
  uint32_t c = 0;
  for (uint32_t base = 0; base < n; base += 32) {
    const uint32_t j = base + lane, len = barrett_round_len(n, base);
    const uint64_t x = j < n ? ph[j] : 0, y = j < n ? qi[j] : 0, s = x + y;
    const BarrettCarry k = barrett_resolve(s < x, j < n && s == ~uint64_t(0), c, len);
    if (j < n) qi[j] = s + k.in;
    c = k.out;
  }
  if (lane == 0) v.d[i] = c;
}

// s = 0 (a full-width modulus): r = t - q m' over n + 1 words straight to
// out, words 0 .. n-1 (word n, 0 once r < m', kept in a register), with only
// the borrow of r - m' computed beside it; where that says r >= m' (with the
// guard words' quotient nearly never), the subtractions run in place on out,
// each with the borrow of the next one beside it. 3 words of traffic a word
// (t, q m', out) where the rows form below takes ~6 (it writes r and r - m'
// and reads one back): at 32 Kbit that form took 0.84 of a tcbarrett
// mulmod's 22.7 ms (ncu, H200, session 29). Each lane reads and writes only
// its own words.
__device__ inline void barrett_finish_direct_body(const BarrettDev& v, const uint64_t* t, uint32_t t_words,
                                                  uint64_t* out, uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane(), w = n + 1;
  const uint64_t* ti = t + i * t_words;
  const uint64_t* mp = v.mprime + barrett_mod_index(v, i) * n;
  const uint64_t* qm = v.p + i * 2 * n;
  uint64_t* oi = out + i * n;
  // q = q_lo + d 2^N: q m' = q_lo m' + d m' 2^N, of which word n is d m'[0].
  const uint64_t dm = v.d[i] & 1u ? mp[0] : 0;  // (q's bit N; block::kQuotientExact masked)
  uint32_t c = 0, c2 = 0;
  uint64_t top = 0;
  for (uint32_t base = 0; base < w; base += 32) {
    const uint32_t j = base + lane, len = barrett_round_len(w, base);
    const uint64_t x = j < w ? barrett_shl_word(ti, t_words, j, 0, 0) : 0;
    const uint64_t y = j < n ? qm[j] : j == n ? qm[n] + dm : 0;
    const uint64_t dif = x - y;
    const BarrettCarry k = barrett_resolve(x < y, j < w && dif == 0, c, len);
    const uint64_t r = dif - k.in, z = j < n ? mp[j] : 0, dif2 = r - z;
    const BarrettCarry k2 = barrett_resolve(r < z, j < w && dif2 == 0, c2, len);
    if (j < n) oi[j] = r;
    if (j == n) top = r;
    c = k.out;
    c2 = k2.out;
  }
  top = __shfl_sync(~0u, top, n % 32);
  // c2 == 0: the value so far is >= m', so taking m' off does not borrow.
  for (uint32_t sub = 0; c2 == 0 && sub < v.corrections; ++sub) {
    uint64_t next_top = 0;
    c = 0;
    c2 = 0;
    for (uint32_t base = 0; base < w; base += 32) {
      const uint32_t j = base + lane, len = barrett_round_len(w, base);
      const uint64_t x = j < n ? oi[j] : j == n ? top : 0, z = j < n ? mp[j] : 0, dif = x - z;
      const BarrettCarry k = barrett_resolve(x < z, j < w && dif == 0, c, len);
      const uint64_t r = dif - k.in, dif2 = r - z;
      const BarrettCarry k2 = barrett_resolve(r < z, j < w && dif2 == 0, c2, len);
      if (j < n) oi[j] = r;
      if (j == n) next_top = r;
      c = k.out;
      c2 = k2.out;
    }
    top = __shfl_sync(~0u, next_top, n % 32);
  }
}

// r = (t << s) - q m' over n + 1 words, then at most v.corrections subtractions of m'
// (barrett.hpp), then out = r >> s. Rows: r in p's row (which holds q_lo m'),
// r - m' in alt's; the first subtraction runs in the same pass as r (a second
// borrow chain), each further one is one pass from the current row into the
// other, kept when it does not borrow. Each lane reads and writes only its own
// words until the final shift.
__device__ inline void barrett_finish_rows_body(const BarrettDev& v, const uint64_t* t, uint32_t t_words, uint64_t* out,
                                           uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane(), w = n + 1;
  const uint32_t s = v.shift[barrett_mod_index(v, i)], ws = s / 64, bs = s % 64;
  if (s == 0) return barrett_finish_direct_body(v, t, t_words, out, i);
  const uint64_t* ti = t + i * t_words;
  const uint64_t* mp = v.mprime + barrett_mod_index(v, i) * n;
  uint64_t* row[2] = {v.p + i * 2 * n, v.alt + i * 2 * n};
  // q = q_lo + d 2^N: q m' = q_lo m' + d m' 2^N, of which word n is d m'[0].
  const uint64_t dm = v.d[i] & 1u ? mp[0] : 0;  // (q's bit N; block::kQuotientExact masked)
  uint32_t c = 0, c2 = 0;
  for (uint32_t base = 0; base < w; base += 32) {
    const uint32_t j = base + lane, len = barrett_round_len(w, base);
    const uint64_t x = j < w ? barrett_shl_word(ti, t_words, j, ws, bs) : 0;
    const uint64_t y = j < n ? row[0][j] : j == n ? row[0][n] + dm : 0;
    const uint64_t dif = x - y;
    const BarrettCarry k = barrett_resolve(x < y, j < w && dif == 0, c, len);
    const uint64_t r = dif - k.in, z = j < n ? mp[j] : 0, dif2 = r - z;
    const BarrettCarry k2 = barrett_resolve(r < z, j < w && dif2 == 0, c2, len);
    if (j < w) row[0][j] = r, row[1][j] = dif2 - k2.in;
    c = k.out;
    c2 = k2.out;
  }
  uint32_t cur = 0;  // the row holding the value after the subtractions so far
  if (c2 == 0) {      // r >= m': r - m' (row 1) stands; try further ones
    cur = 1;
    for (uint32_t sub = 1; sub < v.corrections; ++sub) {
      const uint64_t* src = row[cur];
      uint64_t* dst = row[1 - cur];
      c = 0;
      for (uint32_t base = 0; base < w; base += 32) {
        const uint32_t j = base + lane, len = barrett_round_len(w, base);
        const uint64_t x = j < w ? src[j] : 0, y = j < n ? mp[j] : 0, dif = x - y;
        const BarrettCarry k = barrett_resolve(x < y, j < w && dif == 0, c, len);
        if (j < w) dst[j] = dif - k.in;
        c = k.out;
      }
      if (c) break;  // src < m': src is the result
      cur = 1 - cur;
    }
  }
  __syncwarp();  // the shift reads other lanes' words of r
  uint64_t* oi = out + i * n;
  for (uint32_t j = lane; j < n; j += 32) oi[j] = barrett_shr_word(row[cur], w, j, ws, bs);
}

// The finish held in registers: the same r = (t << s) - q m', the same
// subtractions and out = r >> s, for s < 64 (a modulus of more than N - 64
// bits: every full-size one) and 129 <= n, n + 1 <= 32 kBarrettFinishRounds words.
// Lane l holds words l, l + 32, ...; nothing but out is written (the rows
// form reads t and q m', writes r and r - m', and reads one of them back:
// ~6 words of traffic a word, near the bandwidth bound already, 0.93 ms at
// 8 Kbit on an H200). Every round's words are loaded before the first
// carry resolves, so a lane has 2 kBarrettFinishRounds loads in flight (a
// first form that loaded a round at a time, 17 rounds and 102 registers,
// took 2.0 ms: one round's latency after another, at 2 blocks an SM).
// Measured (H200, mulmod tcbarrett, bench/results/2026-11-29-h200-session22.md):
// 1.045x at 16 Kbit, 1.02x at 12, 1.01x at 8, but 0.955x at 4 Kbit, where
// the rows form's passes are short and its blocks many; so from 129 words.
// Its own kernel (barrett_finish_regs_kernel): the rows form compiled with
// it inlined lost 4-9 % at 4 and 8 Kbit to the registers it then held.
constexpr uint32_t kBarrettFinishRounds = 9;  // to 18 Kbit
constexpr uint32_t kBarrettFinishRegsMinWords = 129;
__host__ __device__ constexpr bool barrett_finish_regs_words(uint32_t n) {
  return n >= kBarrettFinishRegsMinWords && n + 1 <= 32 * kBarrettFinishRounds;
}
__device__ inline bool barrett_finish_in_registers(uint32_t n, uint32_t s) {
  return s < 64 && barrett_finish_regs_words(n);
}
__device__ inline void barrett_finish_regs_body(const BarrettDev& v, const uint64_t* t, uint32_t t_words,
                                                uint64_t* out, uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane(), w = n + 1, rounds = (w + 31) / 32;
  const uint32_t bs = v.shift[barrett_mod_index(v, i)];
  const uint64_t* ti = t + i * t_words;
  const uint64_t* mp = v.mprime + barrett_mod_index(v, i) * n;
  const uint64_t* qm = v.p + i * 2 * n;
  const uint64_t dm = v.d[i] & 1u ? mp[0] : 0;  // word n of q m' also has d m'[0] (q's bit N; block::kQuotientExact masked)
  uint64_t r[kBarrettFinishRounds], y[kBarrettFinishRounds];
#pragma unroll
  for (uint32_t b = 0; b < kBarrettFinishRounds; ++b) {  // the loads, all rounds
    const uint32_t j = 32 * b + lane;
    r[b] = b < rounds && j < w ? barrett_shl_word(ti, t_words, j, 0, bs) : 0;
    y[b] = b < rounds && j < n ? qm[j] : b < rounds && j == n ? qm[n] + dm : 0;
  }
  uint32_t c = 0;
#pragma unroll
  for (uint32_t b = 0; b < kBarrettFinishRounds; ++b) {  // r = x - y
    if (b < rounds) {
      const uint32_t j = 32 * b + lane;
      const uint64_t dif = r[b] - y[b];
      const BarrettCarry k = barrett_resolve(r[b] < y[b], j < w && dif == 0, c, barrett_round_len(w, 32 * b));
      r[b] = dif - k.in;
      c = k.out;
    }
  }
  for (uint32_t sub = 0; sub < v.corrections; ++sub) {  // r -= m' while r >= m' (y: r - m')
    c = 0;
#pragma unroll
    for (uint32_t b = 0; b < kBarrettFinishRounds; ++b) {
      y[b] = r[b];
      if (b < rounds) {
        const uint32_t j = 32 * b + lane;
        const uint64_t z = j < n ? mp[j] : 0, dif = r[b] - z;
        const BarrettCarry k = barrett_resolve(r[b] < z, j < w && dif == 0, c, barrett_round_len(w, 32 * b));
        y[b] = dif - k.in;
        c = k.out;
      }
    }
    if (c) break;  // r < m': r is the result
#pragma unroll
    for (uint32_t b = 0; b < kBarrettFinishRounds; ++b) r[b] = y[b];
  }
  uint64_t* oi = out + i * n;
#pragma unroll
  for (uint32_t b = 0; b < kBarrettFinishRounds; ++b) {
    if (b < rounds) {
      // Word j + 1: the next lane's, or for lane 31 the next round's lane 0
      // (zero past the last round).
      const uint32_t after = b + 1 < kBarrettFinishRounds ? b + 1 : b;
      const uint64_t next_first = __shfl_sync(~0u, b + 1 < rounds ? r[after] : 0, 0);
      uint64_t up = __shfl_down_sync(~0u, r[b], 1);
      if (lane == 31) up = next_first;
      const uint32_t j = 32 * b + lane;
      if (j < n) oi[j] = bs ? (r[b] >> bs) | (up << (64 - bs)) : r[b];
    }
  }
}

// out = (t << s) - q m' reduced: the registers' form where it applies, else
// the rows'.
__device__ inline void barrett_finish_body(const BarrettDev& v, const uint64_t* t, uint32_t t_words, uint64_t* out,
                                           uint64_t i) {
  if (barrett_finish_in_registers(v.n, v.shift[barrett_mod_index(v, i)]))
    barrett_finish_regs_body(v, t, t_words, out, i);
  else
    barrett_finish_rows_body(v, t, t_words, out, i);
}

// powm: out = 1 mod m (0 for m = 1, i.e. s = N - 1).
__device__ inline void barrett_one_body(const BarrettDev& v, uint64_t* out, uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane();
  const uint64_t one = v.shift[barrett_mod_index(v, i)] == 64 * n - 1 ? 0 : 1;
  for (uint32_t j = lane; j < n; j += 32) out[i * n + j] = j == 0 ? one : 0;
}

// powm: out = table[digit], the digit bits [lo, lo + w) of the exponent
// (entry k of the table: k * count * n words on).
__device__ inline void barrett_gather_body(const BarrettDev& v, const uint64_t* table, const uint64_t* e,
                                           uint32_t e_words, uint32_t e_shared, uint64_t lo, uint32_t w, uint64_t* out,
                                           uint64_t i) {
  const uint32_t n = v.n, lane = barrett_lane();
  const uint64_t* ei = e + (e_shared ? 0 : i) * e_words;
  const uint64_t word = lo / 64, off = lo % 64;
  uint64_t x = word < e_words ? ei[word] >> off : 0;
  if (off + w > 64 && word + 1 < e_words) x |= ei[word + 1] << (64 - off);
  const uint64_t digit = x & ((uint64_t(1) << w) - 1);
  const uint64_t* src = table + (digit * v.count + i) * n;
  for (uint32_t j = lane; j < n; j += 32) out[i * n + j] = src[j];
}

#ifndef BIGTUNE_WARP_EMULATION
// Grid-stride wrappers: warp g of the grid takes instances g, g + warps, ...
// (the loop is warp-uniform, so every ballot has all 32 lanes).
#define BARRETT_FOR_EACH(limit)                                                               \
  for (uint64_t i = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < (limit); \
       i += (uint64_t(gridDim.x) * blockDim.x) >> 5)
__global__ void __launch_bounds__(256) barrett_prep_kernel(BarrettDev v, const uint64_t* m) {
  BARRETT_FOR_EACH(v.count_m) barrett_prep_body(v, m, i);
}
// mu (and m', s) of the first `copies` instances: every instance where the
// registered product multiplies instance by instance, instance 0 alone
// where the reduction products read one copy (tcbarrett).
__global__ void __launch_bounds__(256) barrett_mu_kernel(BarrettDev v, uint64_t copies) {
  BARRETT_FOR_EACH(copies) barrett_mu_body(v, i);
}
// The tensor cores' constant mu2_lo = 2^32 mu_lo + d (barrett.hpp: the guard
// word d from the top words of the division's remainder rho and of m') for
// the one shared modulus: word 0 d, words 1 .. 2n mu_lo's. One block.
__global__ void __launch_bounds__(256) barrett_mu_guard_kernel(BarrettDev v, const uint64_t* rho64) {
  const uint32_t w = 2 * v.n;
  const uint32_t* rho = reinterpret_cast<const uint32_t*>(rho64);
  const uint32_t* mp = reinterpret_cast<const uint32_t*>(v.mprime);
  const uint32_t* mu_lo = reinterpret_cast<const uint32_t*>(v.mu);
  for (uint32_t j = threadIdx.x; j < w; j += blockDim.x) v.mu2[j + 1] = mu_lo[j];
  if (threadIdx.x == 0) {
    // Words w, w - 1, w - 2 of R = 2^32 rho + 2^32 - 1 are rho's w - 1,
    // w - 2, w - 3 (word 0 of R, 2^32 - 1, where w = 2).
    const uint32_t r0 = w > 2 ? rho[w - 3] : 0xffffffffu;
    v.mu2[0] = barrett_guard_word(rho[w - 1], rho[w - 2], r0, mp[w - 1], mp[w - 2]);
  }
}
// Sets kBarrettModulusChanged in *flag where m (n words) is not the modulus
// the kept constants were made from (kernels/variants/barrett_kept_modulus.hpp):
// none stored yet, or a word differs. One block.
__global__ void __launch_bounds__(256) barrett_modulus_compare_kernel(const uint64_t* m, const uint64_t* kept,
                                                                      const uint64_t* valid, uint32_t n,
                                                                      uint32_t* flag) {
  int differ = 0;
  for (uint32_t j = threadIdx.x; j < n; j += blockDim.x) differ |= m[j] != kept[j];
  differ = __syncthreads_or(differ);
  if (threadIdx.x == 0 && (differ || *valid == 0)) atomicOr(flag, kBarrettModulusChanged);
}
// A shared modulus decides for every instance at once: with s = 0 (full
// width) the check has nothing to do and the finish nothing after the q m'
// pass (finished_full_width), so each block returns before its loop. The
// loops cost ~36 us (check) and ~122 us (finish) of a 2 Kbit mulmod of 2^21
// instances with nothing to do (ncu, session 25): ~4 % of it.
__device__ inline bool barrett_shared_full_width(const BarrettDev& v) { return v.count_m == 1 && v.shift[0] == 0; }
__global__ void __launch_bounds__(256) barrett_check_kernel(BarrettDev v, const uint64_t* a, const uint64_t* m) {
  if (barrett_shared_full_width(v)) return;
  BARRETT_FOR_EACH(v.count) barrett_check_body(v, a, m, i);
}
__global__ void __launch_bounds__(256) barrett_q1_kernel(BarrettDev v, const uint64_t* t, uint32_t t_words) {
  BARRETT_FOR_EACH(v.count) barrett_q1_body(v, t, t_words, i);
}
__global__ void __launch_bounds__(256) barrett_qadd_kernel(BarrettDev v) {
  BARRETT_FOR_EACH(v.count) barrett_qadd_body(v, i);
}
// Whether the q m' pass finished instance i already.
__device__ inline bool barrett_finished(const BarrettDev& v, uint64_t i) {
  return v.finished_full_width && v.shift[barrett_mod_index(v, i)] == 0;
}
__global__ void __launch_bounds__(256) barrett_finish_kernel(BarrettDev v, const uint64_t* t, uint32_t t_words,
                                                             uint64_t* out) {
  if (v.finished_full_width && barrett_shared_full_width(v)) return;
  BARRETT_FOR_EACH(v.count) if (!barrett_finished(v, i)) barrett_finish_rows_body(v, t, t_words, out, i);
}
// Where barrett_finish_regs_words(n): the registers' form (the rows' for a
// modulus 64 or more bits short).
__global__ void __launch_bounds__(256) barrett_finish_regs_kernel(BarrettDev v, const uint64_t* t, uint32_t t_words,
                                                                  uint64_t* out) {
  if (v.finished_full_width && barrett_shared_full_width(v)) return;
  BARRETT_FOR_EACH(v.count) if (!barrett_finished(v, i)) barrett_finish_body(v, t, t_words, out, i);
}
__global__ void __launch_bounds__(256) barrett_one_kernel(BarrettDev v, uint64_t* out) {
  BARRETT_FOR_EACH(v.count) barrett_one_body(v, out, i);
}
__global__ void __launch_bounds__(256) barrett_gather_kernel(BarrettDev v, const uint64_t* table, const uint64_t* e,
                                                             uint32_t e_words, uint32_t e_shared, uint64_t lo,
                                                             uint32_t w, uint64_t* out) {
  BARRETT_FOR_EACH(v.count) barrett_gather_body(v, table, e, e_words, e_shared, lo, w, out, i);
}
#undef BARRETT_FOR_EACH
#endif

}  // namespace bigtune::kernels::modular
