// Thread-per-instance modular kernels (kernels/modular/): index math, load,
// one call into the modular core, store. One template per op family, N =
// 32-bit limbs per instance (the variant's q); bit-size is a run-time value
// below 32 N and the limbs above it are zero.
//
// Conventions of this family (set by its launch, kernels/modular/mod_shapes.cpp):
// - powm: args.shift carries the window: bits 0-7 the size w, bit 8 set for
//   the sliding window (the variant's param and algorithm).
// - mulmod, sqrmod, powm with a shared modulus (args.m_shared): a one-thread
//   prep kernel first writes the PreparedModulus (Montgomery constants, CRT
//   split) to args.scratch, so the batch's threads do not each recompute it.
#pragma once
#include "kernels/modular/barrett_thread.cuh"
#include "kernels/modular/gcd_inv_sqrt.cuh"
#include "kernels/variants/kernel_args.hpp"

namespace bigtune::kernels::variants {

constexpr int kModThreads = 128;  // __launch_bounds__: up to 255 registers per thread

// args.shift bit 9 for mulmod, sqrmod and powm: "even moduli only", the warp
// family's fallback (kernels/variants/warp_mod_launch.cu). The kernel then
// returns at once unless args.scratch's first word is set (some modulus of
// the batch is even), skips odd moduli, and prepares a shared even modulus
// per thread (scratch holds the warp family's header, not a PreparedModulus).
constexpr uint32_t kModEvenOnly = 0x200;

namespace mod_detail {
using modular::u32;

// Whole instances of N limbs (N a multiple of 4) at 16-byte aligned
// addresses move as uint4: a quarter of the load instructions, each warp
// request touching 4x fewer sectors per useful word than 32-bit loads with
// an instance stride.
template <int N>
__device__ __forceinline__ bool vector_ok(const void* p, uint32_t limbs) {
  return N % 4 == 0 && limbs == uint32_t(N) && (reinterpret_cast<uintptr_t>(p) & 15u) == 0;
}

template <int N>
__device__ __forceinline__ void load(u32* x, const u32* src, uint32_t limbs) {
  if constexpr (N % 4 == 0) {
    if (vector_ok<N>(src, limbs)) {
#pragma unroll
      for (int j = 0; j < N; j += 4) {
        const uint4 v = *reinterpret_cast<const uint4*>(src + j);
        x[j] = v.x, x[j + 1] = v.y, x[j + 2] = v.z, x[j + 3] = v.w;
      }
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < N; ++j) x[j] = uint32_t(j) < limbs ? src[j] : 0u;
}

template <int N>
__device__ __forceinline__ void store(u32* dst, const u32* x, uint32_t out_limbs) {
  if constexpr (N % 4 == 0) {
    if (vector_ok<N>(dst, out_limbs)) {
#pragma unroll
      for (int j = 0; j < N; j += 4) *reinterpret_cast<uint4*>(dst + j) = make_uint4(x[j], x[j + 1], x[j + 2], x[j + 3]);
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    if (uint32_t(j) < out_limbs) dst[j] = x[j];
  for (uint32_t j = N; j < out_limbs; ++j) dst[j] = 0;
}

// The instance of this thread, or -1 past the batch.
__device__ __forceinline__ int64_t instance(const KernelArgs& args) {
  if (threadIdx.x >= args.ipb) return -1;
  const uint64_t i = uint64_t(blockIdx.x) * args.ipb + threadIdx.x;
  return i < args.count ? int64_t(i) : -1;
}

template <int N>
__device__ __forceinline__ const u32* modulus_of(const KernelArgs& args, uint64_t i) {
  return static_cast<const u32*>(args.m) + (args.m_shared ? 0 : i * args.m_limbs);
}

// Fallback mode (kModEvenOnly): true when this thread has nothing to do.
__device__ __forceinline__ bool skip_for_fallback(const KernelArgs& args, uint64_t i) {
  if (!(args.shift & kModEvenOnly)) return false;
  if (*static_cast<const u32*>(args.scratch) == 0) return true;
  return (*modulus_of<1>(args, i) & 1u) != 0;
}

// A shared modulus's scratch: the PreparedModulus, then (up to
// kBarrettMaxLimbs limbs) the Barrett constants of barrett_thread.cuh, set up
// by the prep kernel.
constexpr int kBarrettMaxLimbs = 16;
template <int N>
__host__ __device__ constexpr uint64_t barrett_offset() {
  return (sizeof(modular::PreparedModulus<N>) + 15) / 16 * 16;
}
template <int N>
__device__ __forceinline__ const modular::BarrettShared<N>* barrett_of(const void* scratch) {
  return reinterpret_cast<const modular::BarrettShared<N>*>(static_cast<const char*>(scratch) + barrett_offset<N>());
}

// mulmod / sqrmod with a shared odd modulus m > 1 (the common case), when it
// is: the Montgomery constants read in place and every array in registers.
// The general path copies the whole PreparedModulus and indexes it at run
// time, which puts it in local memory (592 bytes a thread at N = 8). mont_mul
// reads its b a limb per row at a run-time index, so from 16 limbs on b is
// read from global memory (a whole instance) rather than from a local copy.
// Returns false (nothing done) for any other modulus.
template <int N>
__device__ __forceinline__ bool mulmod_shared_odd(const KernelArgs& args, uint64_t i) {
  const auto& shared = *static_cast<const modular::PreparedModulus<N>*>(args.scratch);
  if (shared.zero || shared.k != 0 || shared.mo_is_one) return false;
  u32 a[N], m[N], t[N], r[N];
  load<N>(a, static_cast<const u32*>(args.a) + i * args.limbs, args.limbs);
  modular::copy<N>(m, shared.c.m);
  const u32* b = static_cast<const u32*>(args.b) + i * args.b_limbs;
  if constexpr (N <= kBarrettMaxLimbs) {
    // m with a nonzero top limb: one Barrett reduction (kernels/modular/
    // barrett_thread.cuh) instead of two Montgomery products.
    const auto& barrett = *barrett_of<N>(args.scratch);
    if (barrett.usable) {
      u32 bl[N];
      if (args.b) load<N>(bl, b, args.b_limbs);
      else modular::copy<N>(bl, a);
      modular::barrett_mulmod<N>(r, a, bl, m, barrett);
      store<N>(static_cast<u32*>(args.r) + i * args.out_limbs, r, args.out_limbs);
      return true;
    }
  }
  if (args.b && (N < 16 || args.b_limbs != uint32_t(N))) {
    u32 bl[N];
    load<N>(bl, b, args.b_limbs);
    modular::mont_mul<N>(t, a, bl, m, shared.c.minv);
  } else if (args.b) {
    modular::mont_mul<N>(t, a, b, m, shared.c.minv);
  } else {
    modular::mont_mul<N>(t, a, a, m, shared.c.minv);
  }
  modular::mont_mul<N>(r, t, shared.c.r2, m, shared.c.minv);
  store<N>(static_cast<u32*>(args.r) + i * args.out_limbs, r, args.out_limbs);
  return true;
}
}  // namespace mod_detail

// The shared modulus, prepared once per launch into args.scratch.
template <int N>
__global__ void mod_prepare_kernel(KernelArgs args) {
  using modular::u32;
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  u32 m[N];
  mod_detail::load<N>(m, static_cast<const u32*>(args.m), args.m_limbs);
  modular::prepare_modulus<N>(*static_cast<modular::PreparedModulus<N>*>(args.scratch), m);
  if constexpr (N <= mod_detail::kBarrettMaxLimbs)
    modular::barrett_setup<N>(*const_cast<modular::BarrettShared<N>*>(mod_detail::barrett_of<N>(args.scratch)), m);
}

// mulmod (args.b set) and sqrmod (args.b null).
template <int N>
__global__ void __launch_bounds__(kModThreads) mulmod_thread_kernel(KernelArgs args) {
  using modular::u32;
  const int64_t i = mod_detail::instance(args);
  if (i < 0 || mod_detail::skip_for_fallback(args, uint64_t(i))) return;
  const bool prepared = args.m_shared && !(args.shift & kModEvenOnly);
  if (prepared && mod_detail::mulmod_shared_odd<N>(args, uint64_t(i))) return;
  u32 a[N], b[N], r[N];
  mod_detail::load<N>(a, static_cast<const u32*>(args.a) + i * args.limbs, args.limbs);
  if (args.b)
    mod_detail::load<N>(b, static_cast<const u32*>(args.b) + i * args.b_limbs, args.b_limbs);
  else
    modular::copy<N>(b, a);
  if (prepared) {
    const modular::PreparedModulus<N> p = *static_cast<const modular::PreparedModulus<N>*>(args.scratch);
    modular::mulmod_prepared<N>(r, a, b, p);
  } else {
    u32 m[N];
    mod_detail::load<N>(m, mod_detail::modulus_of<N>(args, i), args.m_limbs);
    modular::mulmod_any<N>(r, a, b, m);
  }
  mod_detail::store<N>(static_cast<u32*>(args.r) + i * args.out_limbs, r, args.out_limbs);
}

template <int N>
__global__ void __launch_bounds__(kModThreads) powm_thread_kernel(KernelArgs args) {
  using modular::u32;
  const int64_t i = mod_detail::instance(args);
  if (i < 0 || mod_detail::skip_for_fallback(args, uint64_t(i))) return;
  const bool prepared = args.m_shared && !(args.shift & kModEvenOnly);
  const int window = int(args.shift & 0xff);
  const bool sliding = (args.shift >> 8) & 1;
  u32 x[N], r[N];
  mod_detail::load<N>(x, static_cast<const u32*>(args.a) + i * args.limbs, args.limbs);
  const u32* e = static_cast<const u32*>(args.e) + (args.e_shared ? 0 : i * args.e_limbs);
  if (prepared) {
    const modular::PreparedModulus<N> p = *static_cast<const modular::PreparedModulus<N>*>(args.scratch);
    modular::powm_prepared<N>(r, x, e, int(args.e_limbs), p, window, sliding);
  } else {
    u32 m[N];
    mod_detail::load<N>(m, mod_detail::modulus_of<N>(args, i), args.m_limbs);
    modular::powm_any<N>(r, x, e, int(args.e_limbs), m, window, sliding);
  }
  mod_detail::store<N>(static_cast<u32*>(args.r) + i * args.out_limbs, r, args.out_limbs);
}

template <int N>
__global__ void __launch_bounds__(kModThreads) gcd_thread_kernel(KernelArgs args) {
  using modular::u32;
  const int64_t i = mod_detail::instance(args);
  if (i < 0) return;
  u32 a[N], b[N], r[N];
  mod_detail::load<N>(a, static_cast<const u32*>(args.a) + i * args.limbs, args.limbs);
  mod_detail::load<N>(b, static_cast<const u32*>(args.b) + i * args.b_limbs, args.b_limbs);
  modular::gcd_binary<N>(r, a, b);
  mod_detail::store<N>(static_cast<u32*>(args.r) + i * args.out_limbs, r, args.out_limbs);
}

// r = a^-1 mod m; flags[i] = 1 where there is no inverse (r = 0).
template <int N>
__global__ void __launch_bounds__(kModThreads) modinv_thread_kernel(KernelArgs args) {
  using modular::u32;
  const int64_t i = mod_detail::instance(args);
  if (i < 0) return;
  u32 a[N], m[N], r[N];
  mod_detail::load<N>(a, static_cast<const u32*>(args.a) + i * args.limbs, args.limbs);
  mod_detail::load<N>(m, mod_detail::modulus_of<N>(args, i), args.m_limbs);
  const bool has = modular::modinv_any<N>(r, a, m);
  if (args.flags) args.flags[i] = has ? 0u : 1u;
  mod_detail::store<N>(static_cast<u32*>(args.r) + i * args.out_limbs, r, args.out_limbs);
}

template <int N>
__global__ void __launch_bounds__(kModThreads) sqrt_thread_kernel(KernelArgs args) {
  using modular::u32;
  const int64_t i = mod_detail::instance(args);
  if (i < 0) return;
  u32 a[N], r[N];
  mod_detail::load<N>(a, static_cast<const u32*>(args.a) + i * args.limbs, args.limbs);
  modular::sqrt_floor<N>(r, a);
  mod_detail::store<N>(static_cast<u32*>(args.r) + i * args.out_limbs, r, args.out_limbs);
}

}  // namespace bigtune::kernels::variants
