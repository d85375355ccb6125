// The warp-level modular family's launch and its shared-modulus prep
// kernels (warp_mod_kernels.cuh states the conventions).
//
// Even moduli (and m = 0, outside the contract) are not done at warp level:
// the instances that have one are computed by the thread family's kernel of
// the same size (its CRT split, kernels/modular/modexp.cuh), launched after
// the warp kernel in "even only" mode (mod_kernels.cuh): every thread first
// reads the scratch word the warp kernel raised, so a batch of odd moduli
// pays one launch of early exits.
//
// Above 64 limbs (4-16 Kbit) the fallbacks keep their numbers in per-thread
// arrays (powm_thread_kernel<512>: 64 KB of stack a thread, <256>: 33 KB),
// and any launch of them makes the driver reserve that stack for every
// resident thread of the GPU (17 GB / 9 GB on an H100) even when every
// thread exits at once. So there a small kernel looks at the moduli' low
// words first and the host reads its answer (one stream synchronisation a
// call, microseconds against the milliseconds of a call at these sizes):
// no even modulus, no fallback launch. At 512 limbs an even modulus sends
// the whole call to the composed Barrett powm (any modulus, the previous
// default there), since the thread kernel would take minutes an instance.
#include <string>

#include "kernels/block/layout.hpp"
#include "kernels/variants/mod_fallback.hpp"
#include "kernels/variants/mod_kernels.cuh"  // kModThreads, the fallback's convention
#include "kernels/variants/resident_grid.hpp"
#include "kernels/variants/warp_mod_kernels.cuh"
#include "kernels/warp/warp_mod_shapes.hpp"

namespace bigtune::kernels::warp {

namespace {
using variants::warp_mod_prepare_kernel;

constexpr uint32_t kLargeFallbackLimbs = 64;  // above: a fallback launch reserves GBs of stack

// flag |= 1 when some modulus (one when shared) is even (or zero).
__global__ void any_even_modulus_kernel(const uint32_t* m, uint32_t m_limbs, uint64_t count_m, uint32_t* flag) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < count_m; i += uint64_t(gridDim.x) * blockDim.x)
    if ((m[i * m_limbs] & 1u) == 0) atomicOr(flag, 1u);
}

// Whether the call has an even modulus: the check kernel into header word 3
// (warp_mod_layout.hpp; zeroed per call), read back synchronously.
cudaError_t has_even_modulus(const KernelArgs& args, cudaStream_t stream, bool& even) {
  uint32_t* flag = static_cast<uint32_t*>(args.scratch) + 3;
  const uint64_t count_m = args.m_shared ? 1 : args.count;
  const uint32_t blocks = uint32_t(count_m < 256 * 1024 ? (count_m + 255) / 256 : 1024);
  any_even_modulus_kernel<<<blocks, 256, 0, stream>>>(static_cast<const uint32_t*>(args.m), args.m_limbs, count_m,
                                                        flag);
  uint32_t word = 0;
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaMemcpyAsync(&word, flag, sizeof word, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  even = word != 0;
  return e;
}

// The whole call on the composed Barrett powm (mod_fallback.hpp; its args in
// 64-bit words, so every limb count halves).
cudaError_t powm_by_barrett(const KernelArgs& args, cudaStream_t stream) {
  KernelArgs w = args;
  w.limbs = args.limbs / 2;
  w.out_limbs = args.out_limbs / 2;
  w.b_limbs = args.b_limbs / 2;
  w.m_limbs = args.m_limbs / 2;
  w.e_limbs = args.e_limbs / 2;
  return variants::powm_on_composed_barrett(w, stream);
}

const void* prepare_kernel(uint32_t lanes, uint32_t q) {
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  switch (lanes * 100 + q) {
    case 216: return k(&warp_mod_prepare_kernel<2, 16>);
    case 408: return k(&warp_mod_prepare_kernel<4, 8>);
    case 804: return k(&warp_mod_prepare_kernel<8, 4>);
    case 808: return k(&warp_mod_prepare_kernel<8, 8>);
    case 416: return k(&warp_mod_prepare_kernel<4, 16>);
    case 1608: return k(&warp_mod_prepare_kernel<16, 8>);
    case 816: return k(&warp_mod_prepare_kernel<8, 16>);
    case 3208: return k(&warp_mod_prepare_kernel<32, 8>);
    case 1616: return k(&warp_mod_prepare_kernel<16, 16>);
    case 3216: return k(&warp_mod_prepare_kernel<32, 16>);  // task powmregs, 16 Kbit
    default: return nullptr;
  }
}

// The thread-level kernel that computes the even moduli for this size: a
// registered variant's up to 64 limbs, a kernel kept for this above
// (mod_fallback.hpp); none at 512 limbs (16 Kbit powm: Barrett, above).
const void* fallback_for(const Variant& v) {
  const uint32_t limbs = warp_mod_lanes(v.param) * v.q;
  if (limbs > 64) return variants::large_even_modulus_kernel(v.op, limbs);
  const std::string n = std::to_string(limbs);
  const Variant* f = nullptr;
  switch (v.op) {
    case Op::MulMod: f = find_variant("mulmod.mont.u32.q" + n); break;
    case Op::SqrMod: f = find_variant("sqrmod.mont.u32.q" + n); break;
    case Op::PowM: f = find_variant("powm.fixed.u32.q" + n + ".w4"); break;
    default: break;
  }
  return f ? f->kernel : nullptr;
}
// Blocks per chunk of the global-table launch: as many as the table slots
// hold (2^19 / L instances, warp_mod_layout.hpp; >= kWarpModGlobalChunkBlocks
// since ipb L <= 256), cut to whole waves of resident blocks. Each chunk is
// its own launch, so a chunk of 5.17 waves (2048 blocks of 128 threads at
// 3 blocks per SM, powm.bgsqr.u32.q16.l2 at 162 registers) runs 6 wave times:
// 14 % lost, 3 % at 7.76 waves (q8.l4 / q8.l8, 2 blocks of 256 threads per SM).
// Task powm1k (bench/results/2026-11-23-h100-powm1k.md). Without the
// occupancy query: the slots' count.
uint64_t warp_mod_global_chunk_blocks(const Variant& v, const Geometry& g, uint32_t lanes) {
  uint64_t blocks = (kWarpModGlobalChunkThreads / lanes) / g.ipb;
  const uint64_t wave = variants::resident_blocks(v.kernel, g.block, 0);
  if (wave != 0 && blocks >= wave) blocks = blocks / wave * wave;
  return blocks;
}
}  // namespace

cudaError_t launch_warp_mod(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  const uint32_t lanes = warp_mod_lanes(v.param);
  const void* fallback = fallback_for(v);
  const void* prep = prepare_kernel(lanes, v.q);
  const uint32_t limbs = lanes * v.q;
  const bool by_barrett = limbs == 512 && v.op == Op::PowM;
  if (!args.scratch || !prep || (!fallback && !by_barrett)) return cudaErrorInvalidValue;
  bool even = true;  // at or below 64 limbs the fallback checks on the device
  cudaError_t e = cudaMemsetAsync(args.scratch, 0, variants::kWarpModHeaderWords * 4, stream);
  if (e == cudaSuccess && limbs > kLargeFallbackLimbs) e = has_even_modulus(args, stream, even);
  if (e != cudaSuccess) return e;
  if (even && by_barrett) return powm_by_barrett(args, stream);
  KernelArgs copy = args;
  copy.shift = warp_mod_window(v.param);
  void* params[] = {&copy};
  if (copy.m_shared) e = cudaLaunchKernel(prep, dim3(1), dim3(32), params, 0, stream);
  if (e == cudaSuccess && g.smem_bytes > 48 * 1024)
    e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(g.smem_bytes));
  if (v.shape == &kWarpModGlobalTableShape) {
    // Tables in global memory: chunks of at most kWarpModGlobalChunkBlocks
    // blocks share the scratch's table slots (warp_mod_layout.hpp); a chunk
    // is the batch's instances [off, off + n), its pointers advanced (the
    // kernel indexes its tables by its instance within the launch).
    if (uint64_t(g.ipb) * lanes > kWarpModGlobalChunkThreads / kWarpModGlobalChunkBlocks) return cudaErrorInvalidValue;
    const uint64_t chunk = warp_mod_global_chunk_blocks(v, g, lanes) * g.ipb;
    for (uint64_t off = 0; off < args.count && e == cudaSuccess; off += chunk) {
      KernelArgs part = copy;
      part.count = args.count - off < chunk ? args.count - off : chunk;
      const auto at = [off](const void* p, uint32_t limbs, bool shared) -> const void* {
        return shared || !p ? p : static_cast<const uint32_t*>(p) + off * limbs;
      };
      part.a = at(args.a, args.limbs, false);
      part.e = at(args.e, args.e_limbs, args.e_shared != 0);
      part.m = at(args.m, args.m_limbs, args.m_shared != 0);
      part.r = static_cast<uint32_t*>(args.r) + off * args.out_limbs;
      void* part_params[] = {&part};
      const uint64_t blocks = (part.count + g.ipb - 1) / g.ipb;
      e = cudaLaunchKernel(v.kernel, dim3(uint32_t(blocks)), dim3(g.block), part_params, 0, stream);
    }
  } else if (e == cudaSuccess) {
    e = cudaLaunchKernel(v.kernel, dim3(g.grid), dim3(g.block), params, g.smem_bytes, stream);
  }
  if (e != cudaSuccess || !even) return e;
  // The even moduli: one thread per instance, "even only" (bit 9 of shift),
  // fixed window 4, gated on scratch word 0.
  KernelArgs fb = args;
  fb.ipb = variants::kModThreads;
  fb.threads_per_instance = 1;
  fb.shift = (v.op == Op::PowM ? 4u : 0u) | variants::kModEvenOnly;
  void* fb_params[] = {&fb};
  const uint64_t blocks = (args.count + fb.ipb - 1) / fb.ipb;
  return cudaLaunchKernel(fallback, dim3(uint32_t(blocks)), dim3(fb.ipb), fb_params, 0, stream);
}

}  // namespace bigtune::kernels::warp
