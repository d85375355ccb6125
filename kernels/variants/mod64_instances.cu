// The 64-bit modular variants (kernels/modular/mod64.cuh): one thread per
// instance, one 64-bit word per operand, any modulus up to 64 bits.
// mulmod.preinv.u64.q1 and sqrmod.preinv.u64.q1 (one kernel, args.b null for
// sqrmod), powm.preinv.u64.q1.w<w> (fixed windows; args.shift carries w).
//
// With a shared modulus a one-thread prep kernel writes the Divisor64 to
// args.scratch first (as the 32-bit thread family does with its
// PreparedModulus, mod_kernels.cuh); with a modulus per instance each thread
// makes its own.
#include "kernels/modular/mod64.cuh"
#include "kernels/modular/mod_shapes.hpp"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {

namespace {
using modular::Divisor64;

constexpr int kMod64Threads = 256;

__device__ __forceinline__ int64_t instance64(const KernelArgs& args) {
  if (threadIdx.x >= args.ipb) return -1;
  const uint64_t i = uint64_t(blockIdx.x) * args.ipb + threadIdx.x;
  return i < args.count ? int64_t(i) : -1;
}

// Word 0 of instance i (a batch of `words` words per instance; 0 words: 0).
__device__ __forceinline__ uint64_t word_of(const void* p, uint64_t i, uint32_t words) {
  return words ? static_cast<const uint64_t*>(p)[i * words] : 0;
}

__device__ __forceinline__ Divisor64 divisor_of(const KernelArgs& args, uint64_t i) {
  if (args.m_shared) return *static_cast<const Divisor64*>(args.scratch);
  return modular::make_divisor64(word_of(args.m, i, args.m_limbs));
}

__device__ __forceinline__ void store64(const KernelArgs& args, uint64_t i, uint64_t r) {
  uint64_t* out = static_cast<uint64_t*>(args.r) + i * args.out_limbs;
  if (args.out_limbs) out[0] = r;
  for (uint32_t j = 1; j < args.out_limbs; ++j) out[j] = 0;
}

__global__ void mod64_prepare_kernel(KernelArgs args) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  *static_cast<Divisor64*>(args.scratch) = modular::make_divisor64(word_of(args.m, 0, args.m_limbs));
}

// mulmod (args.b set) and sqrmod (args.b null).
__global__ void __launch_bounds__(kMod64Threads) mulmod64_kernel(KernelArgs args) {
  const int64_t i = instance64(args);
  if (i < 0) return;
  const uint64_t a = word_of(args.a, uint64_t(i), args.limbs);
  const uint64_t b = args.b ? word_of(args.b, uint64_t(i), args.b_limbs) : a;
  store64(args, uint64_t(i), modular::mulmod64(a, b, divisor_of(args, uint64_t(i))));
}

__global__ void __launch_bounds__(kMod64Threads) powm64_kernel(KernelArgs args) {
  const int64_t i = instance64(args);
  if (i < 0) return;
  const uint64_t x = word_of(args.a, uint64_t(i), args.limbs);
  const uint64_t* e = static_cast<const uint64_t*>(args.e) + (args.e_shared ? 0 : uint64_t(i) * args.e_limbs);
  const uint32_t w = uint32_t(args.shift);
  store64(args, uint64_t(i), modular::powm64(x, e, args.e_limbs, divisor_of(args, uint64_t(i)), w));
}
}  // namespace

void append_mod64_variants(std::vector<Variant>& out) {
  const ShapeRules& s = modular::kThreadMod64Shape;
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  out.push_back(make_variant(Op::MulMod, "thread", "preinv", 64, 1, kMod64Threads, k(&mulmod64_kernel), s));
  out.push_back(make_variant(Op::SqrMod, "thread", "preinv", 64, 1, kMod64Threads, k(&mulmod64_kernel), s));
  // w4: 14 table products, then 1/4 product per exponent bit; w3 and w5 for
  // the tuner (shorter and longer exponents); w1 for short exponents (no
  // table; one product per bit, by 1 where the bit is 0).
  for (uint32_t w : {4u, 3u, 5u, 1u})
    out.push_back(make_variant(Op::PowM, "thread", "preinv", 64, 1, kMod64Threads, k(&powm64_kernel), s,
                               "w" + std::to_string(w), w));
}

}  // namespace bigtune::kernels::variants

namespace bigtune::kernels::modular {

cudaError_t launch_thread_mod64(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  KernelArgs copy = args;
  copy.shift = v.op == Op::PowM ? v.param : 0;
  void* params[] = {&copy};
  if (copy.m_shared) {
    if (!copy.scratch) return cudaErrorInvalidValue;
    const cudaError_t e =
        cudaLaunchKernel(reinterpret_cast<const void*>(&variants::mod64_prepare_kernel), dim3(1), dim3(1), params, 0,
                         stream);
    if (e != cudaSuccess) return e;
  }
  return cudaLaunchKernel(v.kernel, dim3(g.grid), dim3(g.block), params, 0, stream);
}

}  // namespace bigtune::kernels::modular
