// Fused NTT Barrett powm (issue 9, tasks nttpowm and nttfuse): the whole
// exponentiation of one instance in one thread block, one launch per call.
//
// The composed Barrett powm (kernels/variants/barrett_instances.cu) runs per
// squaring one sqr and two full muls of registered variants (8 transforms
// with the CRT NTT) plus four glue launches, every operand through global
// memory. Here, per instance (arithmetic and bound: barrett.hpp; the costs:
// bench/notes/nttpowm-bound.md):
//   once:      mu_hat, mp_hat = the transforms of mu_lo and m' (N^-1 folded
//              in; block/ntt_cached.cuh), kept in the block's global slot;
//              table[k] = x^k mod m, k < 2^w, in the slot;
//   squaring:  t = cur^2                      (NTT square: 2 transforms)
//              q1 = high half of t << s       (block-wide copy into cur)
//              q = floor(q1 mu / 2^N) = P_hi + q1 with P = q1 · mu_lo via
//                  mu_hat (2 transforms; q1 added in the product's own
//                  carry scan, nb_q_product)
//              P = q · m' mod 2^(N+64) via mp_hat (2 transforms; the carry
//                  phase over the n + 1 words the finish reads)
//              r = (t << s) - P, then at most four subtractions of m' while
//                  they do not borrow, each a block-wide borrow scan
//              cur = r >> s
//   = 6 transforms instead of 8; t and cur in shared memory, the finish's
//   two rows in the block's global slot (L1/L2);
//   window step: the same with t = cur · table[digit] (3 transforms), skipped
//   for a zero digit (block-uniform: one instance per block); leading zero
//   windows of the exponent are skipped too (e = 65537 costs 17 steps, not N).
// Session 7 ran this glue on warp 0 with the composed pipeline's warp bodies
// (barrett_kernels.cuh) while the block's other warps waited: serial
// carry-resolved rounds of 32 words, part of why a product here cost ~1.5x
// the standalone one at 2^16 bits (bench/results/2026-11-23-h100-nttpowm.md).
// Session 8 (task nttfuse) runs it block-wide on the products' own scans.
#pragma once
#include <cstdint>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_cached.cuh"
#include "kernels/modular/barrett.hpp"
#include "kernels/modular/nttbarrett_layout.hpp"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::modular {

#if defined(__CUDACC__)
using NbScan = block::BlockAddSub<uint64_t, block::kNttCarryLimbs, false>::TempStorage;
using NbTables = block::NttTables<arith::Crt3>;

// The products as calls, not inlined into the kernel: inlined, the
// NTT's registers and the kernel's live state (pointers, exponent, loop
// counters) were allocated together: 128 registers and spills (run 1), or
// ~2 KB of spills under a 64-register bound. As calls, each product gets the
// register budget mul_ntt_kernel has, the caller's state saved around it
// (a few words per ~37-us product at 2^16 bits).
// Register copies: the plan and the tables arrive by reference (the caller's
// local memory) and a generic store into the shared buffer may alias them, so
// each function copies them once into locals whose address never escapes;
// without, the transform loops reload their fields after every store (as in
// nttmont_powm.cuh, session 15: ~30 % of the long-scoreboard stalls there).
// t = a·b (b null: a^2), full 2n-word product.
template <int kRegs>  // one copy per kernel: its register budget
__device__ __noinline__ void nb_full_product(uint64_t* t, const uint64_t* a, const uint64_t* b, uint32_t n,
                                             const block::NttPlan& p_ref, const NbTables& tw_ref, arith::Crt3::Elem* x,
                                             uint64_t* carry_words, arith::Crt3::Elem* b_hat, NbScan& scan) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nb_full_product
  const NbTables tw = tw_ref;
  if (b == nullptr)
    block::mul_ntt<arith::Crt3, true>(t, 2 * n, 128ull * n, a, n, a, n, p, tw, x, carry_words, b_hat, scan);
  else
    block::mul_ntt<arith::Crt3, false>(t, 2 * n, 128ull * n, a, n, b, n, p, tw, x, carry_words, b_hat, scan);
}
// q = floor(q1 · mu / 2^N) = words n .. 2n of q1 · mu_lo + q1 · 2^N
// (barrett.hpp), q1 given in q (n words), mu_lo by its cached spectrum: q1's
// words are added into limbs n .. 2n-1 before the product's carry scan
// (ntt_carry_phase's adjust), words n .. 2n-1 of the sum written over q1 (a
// limb's q1 word is read before its segment's scan and written after it, by
// the same thread: no word is overwritten before it is read) and word 2n,
// bit N of q (0 or 1), into *d. Ends with a block barrier.
template <int kRegs>  // one copy per kernel: its register budget
__device__ __noinline__ void nb_q_product(uint64_t* q, uint32_t* d, const arith::Crt3::Elem* mu_hat, uint32_t n,
                                          const block::NttPlan& p_ref, const NbTables& tw_ref, arith::Crt3::Elem* x,
                                          uint64_t* carry_words, NbScan& scan) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nb_full_product
  const NbTables tw = tw_ref;
  const uint64_t lo_word = n, hi_word = 2ull * n;
  block::mul_ntt_cached_with<arith::Crt3>(
      2 * n, 2 * n + 1, q, n, mu_hat, p, tw, x, carry_words, scan,
      [=](uint64_t j, uint64_t& lo, uint64_t& hi) {
        if (j >= lo_word && j < hi_word) {
          const uint64_t w = q[j - lo_word];
          lo += w;
          hi += lo < w ? 1 : 0;
        }
      },
      [=](uint64_t j, uint64_t v) {
        if (j < lo_word) return;
        if (j < hi_word) q[j - lo_word] = v;
        else *d = uint32_t(v);
      });
  // 2n a multiple of the segment: limb 2n is the carry into it.
  const uint32_t seg = block::kNttCarryLimbs * blockDim.x;
  if (threadIdx.x == 0 && hi_word % seg == 0) *d = uint32_t(carry_words[seg]);
  __syncthreads();
}
// row = q · m' mod 2^(N+64) (n + 1 words), q = q_lo + d 2^N with q_lo in q,
// m' by its cached spectrum: the carry phase over limbs 0 .. n only (the
// finish reads no more; the full product's 2n would double it), d m' 2^N is
// d·m'[0] in word n. Ends with a block barrier.
template <int kRegs>  // one copy per kernel: its register budget
__device__ __noinline__ void nb_qm_product(uint64_t* row, const uint64_t* q, const uint32_t* d,
                                           const uint64_t* mprime, const arith::Crt3::Elem* mp_hat, uint32_t n,
                                           const block::NttPlan& p_ref, const NbTables& tw_ref, arith::Crt3::Elem* x,
                                           uint64_t* carry_words, NbScan& scan) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nb_full_product
  const NbTables tw = tw_ref;
  const uint64_t dm = *d ? mprime[0] : 0, top = n;
  block::mul_ntt_cached_with<arith::Crt3>(
      n, n + 1, q, n, mp_hat, p, tw, x, carry_words, scan,
      [=](uint64_t j, uint64_t& lo, uint64_t&) {
        if (j == top) lo += dm;  // the top word: its carry leaves 2^(N+64)
      },
      [=](uint64_t j, uint64_t v) { row[j] = v; });
  // n a multiple of the segment (n <= seg, nttbarrett_plan: n == seg): word
  // n after the last segment, its coefficients' part plus the carry into it.
  const uint32_t seg = block::kNttCarryLimbs * blockDim.x;
  if (threadIdx.x == 0 && n % seg == 0) {
    uint64_t lo, hi;
    block::ntt_limb_parts<arith::Crt3>(lo, hi, x, nullptr, p, tw, top);
    row[n] = lo + dm + carry_words[seg];
  }
  __syncthreads();
}
// dst = a - b over w words (a(j), b(j): the operands' words, j < w), block
// wide: kNttCarryLimbs words per thread through the block borrow scan
// (BlockAddSub, as the products' carries), word seg = kNttCarryLimbs·threads
// (only when w = seg + 1: w <= n + 1 <= seg + 1, nttbarrett_plan) by the last
// thread from the scan's borrow out. Returns the borrow out of word w - 1 to
// every thread. dst may be a's or b's row where a(j), b(j) read word j of it
// only (every read is done before the scan, every write after it; word seg
// is read and written by the last thread alone). Ends with a block barrier.
template <class A, class B>
__device__ uint32_t nb_sub_rows(uint64_t* dst, uint32_t w, A a, B b, NbScan& scan, uint32_t* flag) {
  constexpr uint32_t Q = block::kNttCarryLimbs;
  const uint32_t tid = threadIdx.x, seg = Q * blockDim.x;
  uint64_t av[Q], bv[Q];
#pragma unroll
  for (uint32_t k = 0; k < Q; ++k) {
    const uint32_t j = tid * Q + k;
    av[k] = j < w ? a(j) : 0;  // past w: 0 - 0, the borrow passes through
    bv[k] = j < w ? b(j) : 0;
  }
  const uint64_t borrow = block::BlockAddSub<uint64_t, Q, true>(scan).run(
      av, [&](int k) { return bv[k]; }, tid == 0, [&](int k, uint64_t v) {
        const uint32_t j = tid * Q + uint32_t(k);
        if (j < w) dst[j] = v;
      });
  if (tid == blockDim.x - 1) {
    uint32_t out = uint32_t(borrow);
    if (w > seg) {
      const uint64_t x = a(seg), y = b(seg), dif = x - y;
      dst[seg] = dif - out;
      out = (x < y || dif < out) ? 1u : 0u;
    }
    *flag = out;
  }
  __syncthreads();
  return *flag;
}
// Bits of the exponent e (limbs words) up to its highest one (0 for e = 0):
// every thread reads the same words, so loops over them stay block-uniform.
__device__ inline uint64_t nb_exponent_bits(const uint64_t* e, uint32_t limbs) {
  for (uint32_t j = limbs; j-- > 0;)
    if (e[j] != 0) return 64ull * j + 64 - uint64_t(__clzll((long long)e[j]));
  return 0;
}
// b_hat = the scaled spectrum of b.
template <int kRegs>  // one copy per kernel: its register budget
__device__ __noinline__ void nb_cache(arith::Crt3::Elem* b_hat, const uint64_t* b, uint32_t n,
                                      const block::NttPlan& p_ref, const NbTables& tw_ref, arith::Crt3::Elem* x) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nb_full_product
  const NbTables tw = tw_ref;
  block::ntt_cache_operand<arith::Crt3>(b_hat, x, p, tw, b, n, threadIdx.x, blockDim.x, [](bool warp_local) {
    if (warp_local) __syncwarp();
    else __syncthreads();
  });
}

// 512 threads at 2^16 bits; kRegs names the kernel's register budget (the
// products' copies follow it: a __noinline__ function shared by kernels of
// different budgets would be compiled once, for the smallest).
//   nttbarrett_powm_kernel<1> (w4, w5, w6): 128 registers (session 7: the
//     products without spills, 16 bytes spilled in the kernel body; session
//     8 with the block-wide glue: 28 bytes), 4 / 2 / 1 blocks per SM at 16 /
//     32 / 64 Kbit;
//   nttbarrett_powm_kernel<2> (w6.b2): 64 registers, 8 / 4 / 2 blocks per SM
//     (106 KB of shared memory at 64 Kbit: two fit), spills around the
//     products (ptxas, CUDA 13.0: 264 bytes stored in the kernel body, 44-208
//     in the products).
// Session 7's .b2 (with the warp-0 glue) ran 3-13 % slower at every size
// (run 2 of bench/results/2026-11-23-h100-nttpowm.md). Session 8 (block-wide
// glue; bench/results/2026-11-23-h100-nttfuse.md): .b2 is 1.09x w6 at 64
// Kbit (24.86 vs 22.75 powm/s), 0.93x at 32 Kbit, 0.90x at 16 Kbit; an
// 80-register build (__maxnreg__(80): 3 blocks per SM at 32 Kbit) ran
// 0.95x w6 at 32 Kbit and was dropped.
template <int kRegs>
__device__ __forceinline__ void nttbarrett_powm_body(const KernelArgs& args, const NttBarrettParams& prm) {
  using Field = arith::Crt3;
  using Elem = Field::Elem;
  __shared__ NbScan scan_storage;
  __shared__ uint32_t s_shift, s_d, s_flag;
  const uint32_t n = args.limbs, tid = threadIdx.x;
  const block::NttPlan p = nttbarrett_plan(n);
  unsigned char* smem = variants::dynamic_smem<unsigned char>();
  Elem* x = reinterpret_cast<Elem*>(smem);
  uint64_t* carry_words = reinterpret_cast<uint64_t*>(smem + block::ntt_carry_offset(p, sizeof(Elem)));
  uint64_t* t = reinterpret_cast<uint64_t*>(smem + block::ntt_smem_bytes(p, sizeof(Elem)));
  uint64_t* cur = t + 2 * n;
  uint64_t* q = cur;  // during a reduction (nttbarrett_layout.hpp)
  const auto tw = block::NttTables<Field>::over(prm.twiddles, p.log_n);
  Elem* mu_hat = reinterpret_cast<Elem*>(prm.slots + blockIdx.x * prm.slot_bytes);
  Elem* mp_hat = mu_hat + p.m();
  Elem* b_hat = mp_hat + p.m();
  uint64_t* table = reinterpret_cast<uint64_t*>(b_hat + p.m());
  uint64_t* const row0 = table + (uint64_t(1) << prm.w) * n;  // global (nttbarrett_layout.hpp)
  uint64_t* const row1 = row0 + nttbarrett_row_words(n);

  for (uint64_t i = blockIdx.x; i < args.count; i += gridDim.x) {
    const uint64_t* mp = prm.mprime + i * n;
    if (tid == 0) s_shift = prm.shift[i];
    // out = t mod m for t of 2n words in shared memory (barrett.hpp); out is
    // cur or a table entry, never t.
    const auto reduce = [&](uint64_t* out) {
      const uint32_t s = s_shift, ws = s / 64, bs = s % 64;
      for (uint32_t j = tid; j < n; j += blockDim.x) q[j] = barrett_shl_word(t, 2 * n, int64_t(n) + j, ws, bs);
      __syncthreads();
      nb_q_product<kRegs>(q, &s_d, mu_hat, n, p, tw, x, carry_words, scan_storage);
      nb_qm_product<kRegs>(row0, q, &s_d, mp, mp_hat, n, p, tw, x, carry_words, scan_storage);
      // r = (t << s) - q m' modulo 2^(N+64), over the product's row.
      nb_sub_rows(
          row0, n + 1, [&](uint32_t j) { return barrett_shl_word(t, 2 * n, j, ws, bs); },
          [&](uint32_t j) { return row0[j]; }, scan_storage, &s_flag);
      // r < 5 m' (barrett.hpp): r - m' into the other row while that does
      // not borrow (block-uniform: every thread gets the same borrow).
      const uint64_t* r = row0;
      for (uint32_t sub = 0; sub < kBarrettMaxCorrections; ++sub) {
        uint64_t* other = r == row0 ? row1 : row0;
        const uint64_t* src = r;
        const uint32_t borrow = nb_sub_rows(
            other, n + 1, [&](uint32_t j) { return src[j]; }, [&](uint32_t j) { return j < n ? mp[j] : 0; },
            scan_storage, &s_flag);
        if (borrow) break;  // r < m': r is the result
        r = other;
      }
      for (uint32_t j = tid; j < n; j += blockDim.x) out[j] = barrett_shr_word(r, n + 1, j, ws, bs);
      __syncthreads();
    };
    // out = a·b mod m (b null: a^2); out may alias a or b (t is separate).
    const auto mulmod = [&](const uint64_t* a, const uint64_t* b, uint64_t* out) {
      nb_full_product<kRegs>(t, a, b, n, p, tw, x, carry_words, b_hat, scan_storage);
      reduce(out);
    };

    // The modulus' two spectra, once per instance.
    nb_cache<kRegs>(mu_hat, prm.mu + i * n, n, p, tw, x);
    nb_cache<kRegs>(mp_hat, prm.mprime + i * n, n, p, tw, x);

    // table[0] = 1 mod m (0 for m = 1: s = N - 1), table[1] = x mod m (any
    // x < 2^N: t = x, high half 0).
    for (uint32_t j = tid; j < n; j += blockDim.x) table[j] = j == 0 && s_shift != 64 * n - 1 ? 1 : 0;
    const uint64_t* ai = static_cast<const uint64_t*>(args.a) + i * n;
    for (uint32_t j = tid; j < 2 * n; j += blockDim.x) t[j] = j < n ? ai[j] : 0;
    __syncthreads();
    reduce(table + n);
    const uint32_t w = prm.w;
    for (uint32_t k = 2; k < (1u << w); ++k) mulmod(table + (k - 1) * n, table + n, table + k * n);

    // Fixed windows from the exponent's highest nonzero one (every thread
    // computes the same, so the loop stays block-uniform).
    const uint64_t* ei = static_cast<const uint64_t*>(args.e) + (args.e_shared ? 0 : i) * args.e_limbs;
    const uint64_t e_bits = nb_exponent_bits(ei, args.e_limbs);
    const auto digit = [&](uint64_t lo) -> uint32_t {
      const uint64_t word = lo / 64, off = lo % 64;
      uint64_t d = word < args.e_limbs ? ei[word] >> off : 0;
      if (off + w > 64 && word + 1 < args.e_limbs) d |= ei[word + 1] << (64 - off);
      return uint32_t(d & ((uint64_t(1) << w) - 1));
    };
    const uint64_t windows = (e_bits + w - 1) / w;
    {
      const uint64_t* src = table + uint64_t(windows ? digit((windows - 1) * w) : 0) * n;
      for (uint32_t j = tid; j < n; j += blockDim.x) cur[j] = src[j];
      __syncthreads();
    }
    for (uint64_t k = windows > 0 ? windows - 1 : 0; k-- > 0;) {
      for (uint32_t s = 0; s < w; ++s) mulmod(cur, nullptr, cur);
      const uint32_t d = digit(k * w);
      if (d != 0) mulmod(cur, table + uint64_t(d) * n, cur);
    }
    uint64_t* ri = static_cast<uint64_t*>(args.r) + i * n;
    for (uint32_t j = tid; j < n; j += blockDim.x) ri[j] = cur[j];
    __syncthreads();  // cur, s_shift are the next instance's
  }
}
template <int kMinBlocks>
__global__ void __launch_bounds__(kNttBarrettMaxThreads, kMinBlocks) nttbarrett_powm_kernel(KernelArgs args,
                                                                                            NttBarrettParams prm) {
  nttbarrett_powm_body<kMinBlocks>(args, prm);
}
#endif  // __CUDACC__

}  // namespace bigtune::kernels::modular
