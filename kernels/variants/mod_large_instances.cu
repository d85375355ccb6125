// Thread-level gcd, modinv and sqrt for 128 and 256 limbs (4096 and 8192
// bits): the arrays outgrow the registers and live in local memory (L1). No
// Montgomery products at these sizes: the warp kernels win (mod_variants.cuh).
#include "kernels/variants/mod_fallback.hpp"
#include "kernels/variants/mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_mod_large_variants(std::vector<Variant>& out) {
  append_mod_for<128, false>(out);
  append_mod_for<256, false>(out);
}

const void* large_even_modulus_kernel(Op op, uint32_t limbs) {
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  const bool powm = op == Op::PowM;
  if (op != Op::MulMod && op != Op::SqrMod && !powm) return nullptr;
  switch (limbs) {
    case 128: return powm ? k(&powm_thread_kernel<128>) : k(&mulmod_thread_kernel<128>);
    case 256: return powm ? k(&powm_thread_kernel<256>) : k(&mulmod_thread_kernel<256>);
    default: return nullptr;
  }
}

cudaError_t launch_even_powm_pass(const void* kernel, const KernelArgs& args, cudaStream_t stream) {
  KernelArgs fb = args;  // the same batches as 32-bit limbs
  fb.limbs *= 2, fb.out_limbs *= 2, fb.m_limbs *= 2, fb.e_limbs *= 2;
  fb.ipb = kModThreads;
  fb.threads_per_instance = 1;
  fb.shift = 4u | kModEvenOnly;
  void* params[] = {&fb};
  const uint64_t blocks = (args.count + fb.ipb - 1) / fb.ipb;
  if (blocks > 0x7fffffffull) return cudaErrorInvalidConfiguration;
  return cudaLaunchKernel(kernel, dim3(uint32_t(blocks)), dim3(fb.ipb), params, 0, stream);
}

cudaError_t powm_on_composed_barrett(const KernelArgs& args, cudaStream_t stream) {
  const Variant* b = find_variant("powm.barrett.u64.q1.w6");
  if (!b) return cudaErrorInvalidConfiguration;
  const uint64_t bits = 64ull * args.limbs;
  const Geometry g = geometry(*b, bits, args.count, 1, DeviceLimits::h100());
  KernelArgs w = args;
  w.threads_per_instance = g.threads_per_instance;
  w.ipb = g.ipb;
  w.stage_buffers = g.stage_buffers;
  void* scratch = nullptr;
  cudaError_t e = cudaMallocAsync(&scratch, scratch_bytes(*b, bits, args.count), stream);
  if (e != cudaSuccess) return e;
  w.scratch = scratch;
  e = launch(*b, w, g, stream);
  const cudaError_t f = cudaFreeAsync(scratch, stream);
  return e != cudaSuccess ? e : f;
}

}  // namespace bigtune::kernels::variants
