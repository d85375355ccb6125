// __global__ kernel of the classical multiplication family (seed 000 §3):
// mul_low (a*b mod 2^bits) and mul (the full double-width product).
#pragma once
#include <cstdint>
#include "kernels/block/add_sub.cuh"
#include "kernels/block/cmp_shift.cuh"
#include "kernels/block/mul_classical.cuh"
#include "kernels/block/staging.cuh"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::variants {

// Most threads a block of this variant may have (its __launch_bounds__): the
// block must fit 64 K registers, and ptxas (CUDA 13.0, sm_90, 2026-11-22)
// reports per thread: u32 Q=1..16: 32, 32, 49, 75, 127; u64 Q=1..16: 41, 47,
// 64, 105, 184 — so the bounds below leave (almost) no spills.
template <class Limb, int Q>
constexpr uint32_t mul_max_threads() {
  if constexpr (sizeof(Limb) == 4) return Q <= 4 ? 1024 : 512;
  else return Q <= 2 ? 1024 : Q <= 4 ? 512 : 256;
}

// kSquare (with kFull): a·a, args.b unused; both staged copies come from a.
template <class Limb, int Q, bool kFull, bool kSquare = false>
__global__ void __launch_bounds__(mul_max_threads<Limb, Q>()) mul_classical_kernel(KernelArgs args) {
  using Adder = block::BlockAddSub<Limb, 2 * Q, false>;
  __shared__ typename Adder::TempStorage scan_storage;
  Limb* smem = dynamic_smem<Limb>();
  const TileIndex t(args);
  const uint32_t m = args.limbs, threads = args.threads_per_instance;
  const uint32_t padded = block::mul_padded_limbs(m, Q, kFull);
  const uint32_t result_limbs = block::mul_result_limbs(padded, kFull);
  const uint32_t stride = block::mul_instance_logical(padded, Q, kFull);
  const Limb* a_tile = static_cast<const Limb*>(args.a) + t.first * m;
  const Limb* b_tile = static_cast<const Limb*>(kSquare ? args.a : args.b) + t.first * m;

  // 1. Stage A | Q zeros | B | Q zeros per instance, zero-padded to M_pad.
  const uint32_t staged = 2 * padded + 2 * Q;
  for (uint32_t e = threadIdx.x; e < t.here * stride; e += blockDim.x) {
    const uint32_t inst = e / stride, off = e - inst * stride;
    if (off >= staged) continue;
    Limb v = 0;
    if (off < padded) {
      if (off < m) v = a_tile[inst * m + off];
    } else if (off >= padded + Q && off < 2 * padded + Q) {
      const uint32_t j = off - padded - Q;
      if (j < m) v = b_tile[inst * m + j];
    }
    smem[block::smem_physical<Limb>(e)] = v;
  }
  __syncthreads();

  // 2. Two load-balanced chunks of column sums per thread (Fig. 4).
  const uint32_t base = t.instance * stride;
  const uint32_t chunks = result_limbs / Q;  // = 2 * threads
  const uint32_t c0 = t.local, c1 = kFull ? t.local + threads : chunks - 1 - t.local;
  Limb out0[Q + 2], out1[Q + 2];
  if (t.active) block::mul_chunk_pair<Limb, Q>(out0, out1, smem, base, base + padded + Q, padded, c0 * Q, c1 * Q);
  __syncthreads();

  // 3. Publish: Q limbs in place, the two-limb overflow of chunk c in ov[c].
  const uint32_t ov = base + 2 * padded + 2 * Q;
  if (t.active) {
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      smem[block::smem_physical<Limb>(base + c0 * Q + q)] = out0[q];
      smem[block::smem_physical<Limb>(base + c1 * Q + q)] = out1[q];
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      smem[block::smem_physical<Limb>(ov + 2 * c0 + h)] = out0[Q + h];
      smem[block::smem_physical<Limb>(ov + 2 * c1 + h)] = out1[Q + h];
    }
  }
  __syncthreads();

  // 4. Each thread now owns result limbs [2Q*local, 2Q*local + 2Q) = chunks
  //    2*local and 2*local+1; add the overflows that land there.
  Limb sum[2 * Q];
  Limb high[2 * Q] = {};  // zeroed before the lambdas below capture it
  const uint32_t first = t.local * 2 * Q, cc = 2 * t.local;
  const uint32_t mine = t.active ? result_limbs : 0;
  block::smem_to_blocked<Limb, 2 * Q>(sum, smem, base, first, mine);
  auto overflow = [&](uint32_t chunk, int h) -> Limb {
    return (t.active && chunk < chunks) ? smem[block::smem_physical<Limb>(ov + 2 * chunk + h)] : Limb(0);
  };
  auto high_at = [&](int k) { return high[k]; };
  auto keep_sum = [&](int k, Limb r) { sum[k] = r; };
  // The overflow of chunk c lands on limbs (c+1)Q and (c+1)Q+1.
  if (cc > 0) {
    high[0] = overflow(cc - 1, 0);
    high[1] = overflow(cc - 1, 1);
  }
  if constexpr (Q >= 2) {  // both landings are distinct limbs: one pass
    high[Q] = overflow(cc, 0);
    high[Q + 1] = overflow(cc, 1);
    Adder(scan_storage).run(sum, high_at, t.local == 0, keep_sum);
  } else {  // Q = 1: neighbouring landings overlap; odd chunks first, then even
    Adder(scan_storage).run(sum, high_at, t.local == 0, keep_sum);
    __syncthreads();
    high[0] = cc >= 2 ? overflow(cc - 2, 1) : Limb(0);
    high[1] = overflow(cc, 0);
    Adder(scan_storage).run(sum, high_at, t.local == 0, keep_sum);
  }
  block::blocked_to_smem<Limb, 2 * Q>(smem, sum, base, first, mine);
  __syncthreads();

  // 5. Store out_limbs per instance, coalesced; limbs past the product are 0,
  //    and the result is reduced modulo 2^bits (mul_low).
  const uint32_t out = args.out_limbs;
  constexpr int L = arith::LimbTraits<Limb>::kBits;
  const uint64_t top_limb = args.bits / L;
  const Limb top_mask = (Limb(1) << (args.bits % L)) - 1;
  Limb* r_tile = static_cast<Limb*>(args.r) + t.first * out;
  for (uint32_t e = threadIdx.x; e < t.here * out; e += blockDim.x) {
    const uint32_t inst = e / out, j = e - inst * out;
    Limb v = j < result_limbs ? smem[block::smem_physical<Limb>(inst * stride + j)] : Limb(0);
    if (j > top_limb) v = 0;
    if (j == top_limb) v &= top_mask;
    r_tile[e] = v;
  }
}

}  // namespace bigtune::kernels::variants
