// __global__ kernels of the NTT multiplication family (kernels/block/ntt.cuh):
// the twiddle-table fill, the persistent per-instance product kernel, and
// the products by a cached spectrum (kernels/block/ntt_cached.cuh).
#pragma once
#include <algorithm>
#include <cstdint>

#include "kernels/block/ntt.cuh"
#include "kernels/block/ntt_cached.cuh"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::variants {

// The table entries (block::ntt_twiddle_entry, layout in ntt.cuh
// NttTables): ω^k, ω^-k for k < N/2, then the per-stage runs. One
// exponentiation per entry: (1 + 2T)N · 2·log_n multiplications per launch,
// negligible beside the products (at most 5·2^17 entries).
template <class Field>
__global__ void __launch_bounds__(256) ntt_twiddle_kernel(typename Field::Elem* table, uint32_t log_n) {
  const auto w = Field::root_of_unity(int(log_n));
  const auto w_inv = Field::pow(w, (uint64_t(1) << log_n) - 1);
  const uint64_t entries = block::ntt_table_used<Field>(log_n);
  for (uint64_t k = blockIdx.x * blockDim.x + threadIdx.x; k < entries; k += uint64_t(gridDim.x) * blockDim.x)
    table[k] = block::ntt_twiddle_entry<Field>(w, w_inv, log_n, k);
}

// Fills the tables of transforms of 2^log_n points at `table` (device memory,
// ntt_table_elems of the plan), per launch as every NTT variant does.
template <class Field>
cudaError_t launch_ntt_twiddle_kernel(typename Field::Elem* table, uint32_t log_n, cudaStream_t stream) {
  const uint64_t entries = block::ntt_table_used<Field>(log_n);
  const uint32_t blocks = uint32_t(std::min<uint64_t>((entries + 255) / 256, 1024));
  ntt_twiddle_kernel<Field><<<blocks, 256, 0, stream>>>(table, log_n);
  return cudaGetLastError();
}

// A persistent NTT kernel's plan for limbs-word operands (the variant's
// in-shared-memory limit 2^kLogMMax, blockDim.x threads) and its buffers in
// the dynamic shared memory: the transform x and the carry words. For the
// cached-spectrum kernels below; mul_ntt_kernel spells the same out (its
// PTX, measured as it is, changes with this struct).
template <class Field, int kLogMMax>
struct NttKernelBuffers {
  using Elem = typename Field::Elem;
  block::NttPlan p;
  Elem* x;
  uint64_t* carry_words;
  __device__ __forceinline__ explicit NttKernelBuffers(uint32_t limbs)
      : p(block::ntt_plan(limbs, limbs, kLogMMax, blockDim.x, Field::kDigitBits)),
        x(dynamic_smem<Elem>()),
        carry_words(reinterpret_cast<uint64_t*>(dynamic_smem<unsigned char>() +
                                                block::ntt_carry_offset(p, sizeof(Elem)))) {}
};

// One block per instance at a time, looping over instances (persistent: the
// grid is ntt_slots(count) blocks, block b owning scratch slot b). The plan's
// in-shared-memory limit 2^kLogMMax is the variant's; blockDim.x its threads.
// Bounded at 1024 threads, i.e. 64 registers (CRT3 since nttbig: 62-64, no
// spills; ptxas, CUDA 13.0, sm_90); a 512 bound lets ptxas take 108-117
// registers, one 512-thread block per SM instead of two, and a (512, 3) bound
// (40 registers) spills 284-612 bytes (bench/notes/ntt3.md).
template <class Field, int kLogMMax, bool kSquare>
__global__ void __launch_bounds__(1024) mul_ntt_kernel(KernelArgs args) {
  using Elem = typename Field::Elem;
  __shared__ typename block::BlockAddSub<uint64_t, block::kNttCarryLimbs, false>::TempStorage scan_storage;
  const block::NttPlan p = block::ntt_plan(args.limbs, args.limbs, kLogMMax, blockDim.x, Field::kDigitBits);
  Elem* x = dynamic_smem<Elem>();
  uint64_t* carry_words =
      reinterpret_cast<uint64_t*>(dynamic_smem<unsigned char>() + block::ntt_carry_offset(p, sizeof(Elem)));
  Elem* table = static_cast<Elem*>(args.scratch);
  const auto tw = block::NttTables<Field>::over(table, p.log_n);
  Elem* slot = table + block::ntt_table_elems(p) + uint64_t(blockIdx.x) * block::ntt_slot_elems(p, kSquare);
  const uint64_t* a = static_cast<const uint64_t*>(args.a);
  const uint64_t* b = kSquare ? a : static_cast<const uint64_t*>(args.b);
  uint64_t* r = static_cast<uint64_t*>(args.r);
  for (uint64_t i = blockIdx.x; i < args.count; i += gridDim.x)
    block::mul_ntt<Field, kSquare>(r + i * args.out_limbs, args.out_limbs, args.bits, a + i * args.limbs,
                                   args.limbs, b + i * args.limbs, args.limbs, p, tw, x, carry_words, slot,
                                   scan_storage);
}

// Products by a cached spectrum (session 18): for products whose second
// operand is fixed across launches, e.g. the composed Barrett's q1·mu_lo and
// q·m' with a shared modulus (barrett_instances.cu): its spectrum once per
// call (ntt_spectrum_kernel), then each product is two transforms instead of
// mul_ntt's three. Unsplit plans only (D = 1, log_m >= 3: ntt_cached.cuh);
// the same plan (limbs, kLogMMax, blockDim.x) in both kernels, so the
// spectrum's order is the one the product reads. Bounded at 1024 threads (64
// registers) as mul_ntt_kernel.
// b_hat + i·M = the scaled spectrum of b's instance i (limbs words each).
template <class Field, int kLogMMax>
__global__ void __launch_bounds__(1024) ntt_spectrum_kernel(const uint64_t* b, uint32_t limbs, uint64_t count,
                                                             typename Field::Elem* b_hat,
                                                             const typename Field::Elem* table) {
  const NttKernelBuffers<Field, kLogMMax> buf(limbs);
  const block::NttPlan& p = buf.p;
  const auto tw = block::NttTables<Field>::over(table, p.log_n);
  for (uint64_t i = blockIdx.x; i < count; i += gridDim.x)
    block::ntt_cache_operand<Field>(b_hat + i * p.m(), buf.x, p, tw, b + i * limbs, limbs, threadIdx.x, blockDim.x,
                                    [](bool warp_local) {
                                      if (warp_local) __syncwarp();
                                      else __syncthreads();
                                    });
}
// r_i = a_i · b_i for args.count instances (args.limbs words each, args.out_limbs
// words of result reduced modulo 2^args.bits), b_i by its spectrum b_hat + i·M
// (b_shared: b_hat for every instance); the twiddle tables at args.scratch.
template <class Field, int kLogMMax>
__global__ void __launch_bounds__(1024) mul_ntt_cached_kernel(KernelArgs args, const typename Field::Elem* b_hat,
                                                               uint32_t b_shared) {
  using Elem = typename Field::Elem;
  __shared__ typename block::BlockAddSub<uint64_t, block::kNttCarryLimbs, false>::TempStorage scan_storage;
  const NttKernelBuffers<Field, kLogMMax> buf(args.limbs);
  const block::NttPlan& p = buf.p;
  const auto tw = block::NttTables<Field>::over(static_cast<Elem*>(args.scratch), p.log_n);
  const uint64_t* a = static_cast<const uint64_t*>(args.a);
  uint64_t* r = static_cast<uint64_t*>(args.r);
  for (uint64_t i = blockIdx.x; i < args.count; i += gridDim.x)
    block::mul_ntt_cached<Field>(r + i * args.out_limbs, args.out_limbs, args.bits, a + i * args.limbs, args.limbs,
                                 b_hat + (b_shared ? 0 : i * p.m()), p, tw, buf.x, buf.carry_words, scan_storage);
}

}  // namespace bigtune::kernels::variants
