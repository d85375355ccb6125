// The shared-modulus prep kernels of the thread-level modular family and the
// family's launch (mod_kernels.cuh states the conventions).
#include <cstring>

#include "kernels/modular/mod_shapes.hpp"
#include "kernels/variants/mod_kernels.cuh"

namespace bigtune::kernels::modular {

namespace {
template <int N>
constexpr uint64_t bytes() {
  if constexpr (N <= variants::mod_detail::kBarrettMaxLimbs)
    return variants::mod_detail::barrett_offset<N>() + sizeof(BarrettShared<N>);
  return sizeof(PreparedModulus<N>);
}
const void* prepare_kernel(uint32_t n) {
  switch (n) {
    case 4: return reinterpret_cast<const void*>(&variants::mod_prepare_kernel<4>);
    case 8: return reinterpret_cast<const void*>(&variants::mod_prepare_kernel<8>);
    case 16: return reinterpret_cast<const void*>(&variants::mod_prepare_kernel<16>);
    case 32: return reinterpret_cast<const void*>(&variants::mod_prepare_kernel<32>);
    case 64: return reinterpret_cast<const void*>(&variants::mod_prepare_kernel<64>);
    case 128: return reinterpret_cast<const void*>(&variants::mod_prepare_kernel<128>);
    case 256: return reinterpret_cast<const void*>(&variants::mod_prepare_kernel<256>);
    default: return nullptr;
  }
}
}  // namespace

uint64_t prepared_modulus_bytes(uint32_t n) {
  switch (n) {
    case 4: return bytes<4>();
    case 8: return bytes<8>();
    case 16: return bytes<16>();
    case 32: return bytes<32>();
    case 64: return bytes<64>();
    case 128: return bytes<128>();
    case 256: return bytes<256>();
    default: return 0;
  }
}

cudaError_t launch_thread_mod(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  KernelArgs copy = args;
  if (v.op == Op::PowM) copy.shift = v.param | (std::strcmp(v.algorithm, "sliding") == 0 ? 0x100u : 0u);
  else copy.shift = 0;  // never the warp family's "even only" bit (mod_kernels.cuh)
  const bool uses_modulus = v.op == Op::MulMod || v.op == Op::SqrMod || v.op == Op::PowM;
  void* params[] = {&copy};
  if (uses_modulus && copy.m_shared) {
    const void* prep = prepare_kernel(v.q);
    if (!prep || !copy.scratch) return cudaErrorInvalidValue;
    const cudaError_t e = cudaLaunchKernel(prep, dim3(1), dim3(1), params, 0, stream);
    if (e != cudaSuccess) return e;
  }
  return cudaLaunchKernel(v.kernel, dim3(g.grid), dim3(g.block), params, 0, stream);
}

}  // namespace bigtune::kernels::modular
