// __global__ kernels of the thread-per-instance family (seed 002 §3.2): stage a
// block's instances into shared-memory regions (kernels/thread/staging.cuh),
// one thread computes one instance, stage the results out. Thin by design.
#pragma once
#include <cstdint>

#include "kernels/thread/add_sub.cuh"
#include "kernels/thread/divmod_knuth.cuh"
#include "kernels/thread/mul_comba.cuh"
#include "kernels/thread/staging.cuh"
#include "kernels/thread/thread_layout.hpp"
#include "kernels/variants/kernel_args.hpp"

namespace bigtune::kernels::variants {

// Which product a multiplication kernel forms.
enum class CombaKind { Low, Full, Square, FullRows };

// __launch_bounds__ of a Comba kernel with N-limb (32-bit) register arrays:
// a thread holds 2N operand limbs and a three-limb accumulator, so 1024
// threads (64 registers each) fit up to N = 8, 512 threads (128) up to N = 32
// and 256 threads (255) for N = 64.
template <int N>
constexpr uint32_t comba_max_threads() {
  return N <= 8 ? 1024 : N <= 32 ? 512 : 256;
}

// The operand-scanning rows (mul_rows) hold 5N + 4 digits: 512 threads
// (128 registers) up to N = 16, 256 threads (255) for N = 32.
template <int N>
constexpr uint32_t rows_max_threads() {
  return N <= 4 ? 1024 : N <= 16 ? 512 : 256;
}

template <int N, CombaKind kKind>
constexpr uint32_t thread_mul_max_threads() {
  return kKind == CombaKind::FullRows ? rows_max_threads<N>() : comba_max_threads<N>();
}

// Where this block's instances lie.
struct ThreadTile {
  uint64_t first;  // first instance of the block
  uint32_t here;   // instances in this block (the last block may have fewer)
  bool active;     // this thread has an instance
  __device__ explicit ThreadTile(const KernelArgs& args) {
    first = uint64_t(blockIdx.x) * args.ipb;
    here = uint32_t(min(uint64_t(args.ipb), args.count - first));
    active = threadIdx.x < here;
  }
};

template <class Limb, bool kSub>
__global__ void __launch_bounds__(1024) thread_add_sub_kernel(KernelArgs args) {
  Limb* smem = thread::region_smem<Limb>();
  const ThreadTile t(args);
  const uint32_t n = args.limbs, R = thread::region_limbs(n);
  thread::load_regions_async(smem, R, 0, static_cast<const Limb*>(args.a) + t.first * n, n, t.here);
  thread::load_regions_async(smem, R, n, static_cast<const Limb*>(args.b) + t.first * n, n, t.here);
  thread::wait_regions();
  __syncthreads();
  if (t.active) {
    const uint32_t flag = thread::add_sub_n<Limb, kSub>(smem + threadIdx.x * R, n, args.bits);
    if (args.flags) args.flags[t.first + threadIdx.x] = flag;
  }
  __syncthreads();
  thread::store_regions(static_cast<Limb*>(args.r) + t.first * args.out_limbs, args.out_limbs, smem, R, 0, n, t.here,
                        args.bits);
}

// add/sub of at most kMaxWords 64-bit words per instance without staging:
// at one word a warp's loads are 32 consecutive words, at two they are two
// interleaved halves of the same 512 bytes (L1 merges them), so the staging's
// shared-memory round trip and barriers only cost (bench/results/
// 2026-11-22-h100-thread.md: 64-bit add). Same flag rule as add_sub_n.
template <bool kSub, int kMaxWords>
__global__ void __launch_bounds__(1024) thread_add_sub_direct_kernel(KernelArgs args) {
  const uint64_t i = uint64_t(blockIdx.x) * args.ipb + threadIdx.x;
  if (threadIdx.x >= args.ipb || i >= args.count) return;
  const uint32_t n = args.limbs;
  const uint64_t* a = static_cast<const uint64_t*>(args.a) + i * n;
  const uint64_t* b = static_cast<const uint64_t*>(args.b) + i * n;
  uint64_t* r = static_cast<uint64_t*>(args.r) + i * n;
  const uint64_t top_limb = args.bits / 64;
  const uint64_t top_mask = (uint64_t(1) << (args.bits % 64)) - 1;
  uint64_t carry = 0;
  uint32_t flag = 0;
#pragma unroll
  for (int j = 0; j < kMaxWords; ++j) {
    if (uint32_t(j) >= n) break;
    uint64_t s;
    carry = kSub ? arith::sub_limb(s, a[j], b[j], carry) : arith::add_limb(s, a[j], b[j], carry);
    if (!kSub && uint64_t(j) == top_limb) flag = uint32_t((s >> (args.bits % 64)) & 1);
    if (uint64_t(j) > top_limb) s = 0;
    if (uint64_t(j) == top_limb) s &= top_mask;
    r[j] = s;
  }
  if (kSub || top_limb >= n) flag = uint32_t(carry);
  if (args.flags) args.flags[i] = flag;
}

template <int N, CombaKind kKind>
__global__ void __launch_bounds__(thread_mul_max_threads<N, kKind>()) thread_comba_kernel(KernelArgs args) {
  using Limb = uint32_t;
  Limb* smem = thread::region_smem<Limb>();
  const ThreadTile t(args);
  const uint32_t n = args.limbs, R = thread::region_limbs(n);
  thread::load_regions_async(smem, R, 0, static_cast<const Limb*>(args.a) + t.first * n, n, t.here);
  if (kKind != CombaKind::Square)
    thread::load_regions_async(smem, R, n, static_cast<const Limb*>(args.b) + t.first * n, n, t.here);
  thread::wait_regions();
  __syncthreads();
  const uint32_t valid = kKind == CombaKind::Low ? n : 2 * n;  // result limbs
  if (t.active) {
    Limb* x = smem + threadIdx.x * R;
    Limb a[N];
#pragma unroll
    for (int k = 0; k < N; ++k) a[k] = uint32_t(k) < n ? x[k] : 0u;
    if constexpr (kKind == CombaKind::Square) {
      thread::sqr_comba<Limb, N>(x, valid, a);
    } else {
      Limb b[N];
#pragma unroll
      for (int k = 0; k < N; ++k) b[k] = uint32_t(k) < n ? x[n + k] : 0u;
      if constexpr (kKind == CombaKind::Low)
        thread::mul_low_comba<Limb, N>(x, valid, a, b);
      else if constexpr (kKind == CombaKind::FullRows)
        thread::mul_rows<N>(x, n, valid, b);
      else
        thread::mul_comba<Limb, N>(x, valid, a, b);
    }
  }
  __syncthreads();
  thread::store_regions(static_cast<Limb*>(args.r) + t.first * args.out_limbs, args.out_limbs, smem, R, 0, valid,
                        t.here, args.bits);
}

// Quotient to r (args.out_limbs, reduced modulo 2^bits as every result) and
// remainder to r2 (args.r2_limbs); the divisor has args.b_limbs limbs.
// (A template only so that it is compiled where it is instantiated.)
template <class Limb>
__global__ void __launch_bounds__(1024) thread_divmod_kernel(KernelArgs args) {
  static_assert(sizeof(Limb) == 4, "divmod_knuth works on 32-bit limbs");
  Limb* smem = thread::region_smem<Limb>();
  const ThreadTile t(args);
  const uint32_t n = args.limbs, bn = args.b_limbs, R = thread::region_limbs(n);
  thread::load_regions_async(smem, R, 0, static_cast<const Limb*>(args.a) + t.first * n, n, t.here);
  thread::load_regions_async(smem, R, n + 1, static_cast<const Limb*>(args.b) + t.first * bn, bn, t.here);
  thread::wait_regions();
  __syncthreads();
  if (t.active) {
    const uint32_t zero_divisor = thread::divmod_knuth(smem + threadIdx.x * R, n, bn);
    if (args.flags) args.flags[t.first + threadIdx.x] = zero_divisor;
  }
  __syncthreads();
  thread::store_regions(static_cast<Limb*>(args.r) + t.first * args.out_limbs, args.out_limbs, smem, R, 0, n,
                        t.here, args.bits);
  thread::store_regions(static_cast<Limb*>(args.r2) + t.first * args.r2_limbs, args.r2_limbs, smem, R, n + 1, bn,
                        t.here, uint64_t(args.r2_limbs) * 32);
}

}  // namespace bigtune::kernels::variants
