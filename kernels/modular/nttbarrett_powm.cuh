// Fused NTT Barrett powm (issue 9, task nttpowm): the whole exponentiation
// of one instance in one thread block, one launch per call.
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
//              q1 = high half of t << s       (warp 0, barrett_q1_body)
//              P = q1 · mu_lo via mu_hat      (2 transforms)
//              q = P_hi + q1                  (warp 0, barrett_qadd_body)
//              P = q_lo · m' via mp_hat       (2 transforms)
//              cur = ((t << s) - P) corrected, >> s  (warp 0, barrett_finish_body)
//   = 6 transforms instead of 8, t and cur in shared memory, P, q and the
//   finish's second row in the block's global slot (L1/L2);
//   window step: the same with t = cur · table[digit] (3 transforms), skipped
//   for a zero digit (block-uniform: one instance per block); leading zero
//   windows of the exponent are skipped too (e = 65537 costs 17 steps, not N).
// The glue runs on warp 0 with the Barrett pipeline's own warp bodies
// (barrett_kernels.cuh) over a one-instance BarrettDev view of shared memory.
#pragma once
#include <cstdint>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_cached.cuh"
#include "kernels/modular/barrett_kernels.cuh"
#include "kernels/modular/nttbarrett_layout.hpp"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::modular {

#if defined(__CUDACC__)
using NbScan = block::BlockAddSub<uint64_t, block::kNttCarryLimbs, false>::TempStorage;
using NbTables = block::NttTables<arith::Crt3>;

// The three products as calls, not inlined into the kernel: inlined, the
// NTT's registers and the kernel's live state (pointers, exponent, loop
// counters) were allocated together: 128 registers and spills (run 1), or
// ~2 KB of spills under a 64-register bound. As calls, each product gets the
// register budget mul_ntt_kernel has, the caller's state saved around it
// (a few words per ~37-us product at 2^16 bits).
// t = a·b (b null: a^2), full 2n-word product.
__device__ __noinline__ void nb_full_product(uint64_t* t, const uint64_t* a, const uint64_t* b, uint32_t n,
                                             const block::NttPlan& p, const NbTables& tw, arith::Crt3::Elem* x,
                                             uint64_t* carry_words, arith::Crt3::Elem* b_hat, NbScan& scan) {
  if (b == nullptr)
    block::mul_ntt<arith::Crt3, true>(t, 2 * n, 128ull * n, a, n, a, n, p, tw, x, carry_words, b_hat, scan);
  else
    block::mul_ntt<arith::Crt3, false>(t, 2 * n, 128ull * n, a, n, b, n, p, tw, x, carry_words, b_hat, scan);
}
// r = a·b, b by its cached spectrum.
__device__ __noinline__ void nb_cached_product(uint64_t* r, const uint64_t* a, const arith::Crt3::Elem* b_hat,
                                               uint32_t n, const block::NttPlan& p, const NbTables& tw,
                                               arith::Crt3::Elem* x, uint64_t* carry_words, NbScan& scan) {
  block::mul_ntt_cached<arith::Crt3>(r, 2 * n, 128ull * n, a, n, b_hat, p, tw, x, carry_words, scan);
}
// b_hat = the scaled spectrum of b.
__device__ __noinline__ void nb_cache(arith::Crt3::Elem* b_hat, const uint64_t* b, uint32_t n,
                                      const block::NttPlan& p, const NbTables& tw, arith::Crt3::Elem* x) {
  block::ntt_cache_operand<arith::Crt3>(b_hat, x, p, tw, b, n, threadIdx.x, blockDim.x, [](bool warp_local) {
    if (warp_local) __syncwarp();
    else __syncthreads();
  });
}

// 512 threads at 2^16 bits. 128 registers, the products without spills,
// 16 bytes spilled in the kernel body (ptxas, CUDA 13.0; as measured, a
// template instance beside the dropped .b2 one: 123, none): 4 / 2 / 1
// blocks per SM at 16 / 32 / 64 Kbit. A 64-register build
// (__launch_bounds__(512, 2): 8 / 4 / 2 blocks, ~0.3-0.7 KB spilled) ran
// 3-13 % slower at every size (`.b2`, run 2 of
// bench/results/2026-11-23-h100-nttpowm.md) and was dropped.
__global__ void __launch_bounds__(kNttBarrettMaxThreads, 1) nttbarrett_powm_kernel(KernelArgs args,
                                                                                   NttBarrettParams prm) {
  using Field = arith::Crt3;
  using Elem = Field::Elem;
  __shared__ NbScan scan_storage;
  __shared__ uint32_t s_shift, s_d;
  const uint32_t n = args.limbs, tid = threadIdx.x, warp = tid >> 5;
  const block::NttPlan p = nttbarrett_plan(n);
  unsigned char* smem = variants::dynamic_smem<unsigned char>();
  Elem* x = reinterpret_cast<Elem*>(smem);
  uint64_t* carry_words = reinterpret_cast<uint64_t*>(smem + block::ntt_carry_offset(p, sizeof(Elem)));
  uint64_t* t = reinterpret_cast<uint64_t*>(smem + block::ntt_smem_bytes(p, sizeof(Elem)));
  uint64_t* cur = t + 2 * n;
  const auto tw = block::NttTables<Field>::over(prm.twiddles, p.log_n);
  Elem* mu_hat = reinterpret_cast<Elem*>(prm.slots + blockIdx.x * prm.slot_bytes);
  Elem* mp_hat = mu_hat + p.m();
  Elem* b_hat = mp_hat + p.m();
  uint64_t* table = reinterpret_cast<uint64_t*>(b_hat + p.m());
  uint64_t* prod = table + (uint64_t(1) << prm.w) * n;  // global (nttbarrett_layout.hpp)
  uint64_t* alt = prod + 2 * n;
  uint64_t* q = alt + 2 * n;

  for (uint64_t i = blockIdx.x; i < args.count; i += gridDim.x) {
    // The Barrett glue's view of this instance: row 0 of shared buffers.
    BarrettDev v{};
    v.count = 1;
    v.count_m = 1;
    v.n = n;
    v.shift = &s_shift;
    v.d = &s_d;
    v.mprime = const_cast<uint64_t*>(prm.mprime + i * n);  // read only here
    v.q = q;
    v.p = prod;
    v.alt = alt;
    if (tid == 0) s_shift = prm.shift[i];
    // out = t mod m for t of 2n words in shared memory (barrett.hpp).
    const auto reduce = [&](uint64_t* out) {
      if (warp == 0) barrett_q1_body(v, t, 2 * n, 0);
      __syncthreads();
      nb_cached_product(prod, q, mu_hat, n, p, tw, x, carry_words, scan_storage);
      if (warp == 0) barrett_qadd_body(v, 0);
      __syncthreads();
      nb_cached_product(prod, q, mp_hat, n, p, tw, x, carry_words, scan_storage);
      if (warp == 0) barrett_finish_body(v, t, 2 * n, out, 0);
      __syncthreads();
    };
    // out = a·b mod m (b null: a^2); out may alias a or b (t is separate).
    const auto mulmod = [&](const uint64_t* a, const uint64_t* b, uint64_t* out) {
      nb_full_product(t, a, b, n, p, tw, x, carry_words, b_hat, scan_storage);
      reduce(out);
    };

    // The modulus' two spectra, once per instance.
    nb_cache(mu_hat, prm.mu + i * n, n, p, tw, x);
    nb_cache(mp_hat, prm.mprime + i * n, n, p, tw, x);

    // table[0] = 1 mod m, table[1] = x mod m (any x < 2^N: t = x, high half 0).
    if (warp == 0) barrett_one_body(v, table, 0);
    const uint64_t* ai = static_cast<const uint64_t*>(args.a) + i * n;
    for (uint32_t j = tid; j < 2 * n; j += blockDim.x) t[j] = j < n ? ai[j] : 0;
    __syncthreads();
    reduce(table + n);
    const uint32_t w = prm.w;
    for (uint32_t k = 2; k < (1u << w); ++k) mulmod(table + (k - 1) * n, table + n, table + k * n);

    // Fixed windows from the exponent's highest nonzero one (every thread
    // computes the same, so the loop stays block-uniform).
    const uint64_t* ei = static_cast<const uint64_t*>(args.e) + (args.e_shared ? 0 : i) * args.e_limbs;
    uint64_t e_bits = 0;
    for (uint32_t j = args.e_limbs; j-- > 0;)
      if (ei[j] != 0) {
        e_bits = 64ull * j + 64 - uint64_t(__clzll((long long)ei[j]));
        break;
      }
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
#endif  // __CUDACC__

}  // namespace bigtune::kernels::modular
