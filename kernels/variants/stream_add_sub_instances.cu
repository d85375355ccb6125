// The streaming add/sub family ("block": one block per instance, any size) and
// its shape rules: u64 limbs, tiles of T x Q limbs, S stages of shared memory.
// Names: "<op>.stream.u64.q<Q>.t<T>" (S = 2) and "....t<T>.s<S>";
// Variant.param = T = Variant.max_threads (S is in the ShapeRules), so the
// registry rejects more than one instance per block (the launch ignores the
// plan's ipb anyway: one instance per block).
//
// No size limit of its own: shared memory holds two stages of one tile, never
// the instance, so the registry's general 2^31-bit cap is the only one.
//
// The bound and the choice of shapes: bench/notes/add-stream.md.
#include <cuda_runtime_api.h>

#include "kernels/block/stream_layout.hpp"
#include "kernels/variants/stream_kernels.cuh"
#include "kernels/variants/stream_variants.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
constexpr uint64_t kMaxGridBlocks = 0x7fffffffu;

uint32_t tile_threads_of(const Variant& v, uint32_t limbs) { return block::chained_threads(limbs, v.q, v.param); }

uint32_t stream_threads(const Variant& v, uint64_t bits) { return tile_threads_of(v, operand_limbs(v, bits)); }
uint32_t stream_smem_of(const Variant& v, uint32_t limbs, uint32_t stages) {
  const uint32_t tile_limbs = block::chained_tile_limbs(tile_threads_of(v, limbs), v.q);
  return uint32_t(block::smem_bytes_padded(block::stream_smem_logical(limbs, tile_limbs, stages), v.limb_bits / 8));
}
template <uint32_t S>
uint64_t stream_smem(const Variant& v, uint64_t bits, uint32_t) {
  return stream_smem_of(v, operand_limbs(v, bits), S);
}

// One block per instance; the geometry's grid and ipb are not used (the plan's
// ipb does not apply), the rest is recomputed from the shape, as the kernel does.
template <uint32_t S>
cudaError_t stream_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  if (args.count == 0 || args.count > kMaxGridBlocks) return cudaErrorInvalidConfiguration;
  const uint32_t threads = tile_threads_of(v, args.limbs);
  const uint32_t smem = stream_smem_of(v, args.limbs, S);
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  KernelArgs copy = args;
  copy.threads_per_instance = threads;
  copy.ipb = 1;
  copy.stage_buffers = 1;
  void* params[] = {&copy};
  return cudaLaunchKernel(v.kernel, dim3(uint32_t(args.count)), dim3(threads), params, smem, stream);
}

template <uint32_t S>
const ShapeRules kStreamShape{stream_threads, stream_smem<S>, nullptr, nullptr, stream_launch<S>, false};

template <int Q, int T, int S>
void add_pair(std::vector<Variant>& out) {
  constexpr int kMin = int(block::stream_min_blocks(T, Q, S, 8));
  const std::string extra = "t" + std::to_string(T) + (S == 2 ? "" : ".s" + std::to_string(S));
  out.push_back(make_variant(Op::Add, "block", "stream", 64, Q, T,
                             reinterpret_cast<const void*>(&stream_add_sub_kernel<uint64_t, Q, T, S, kMin, false>),
                             kStreamShape<S>, extra, T));
  out.push_back(make_variant(Op::Sub, "block", "stream", 64, Q, T,
                             reinterpret_cast<const void*>(&stream_add_sub_kernel<uint64_t, Q, T, S, kMin, true>),
                             kStreamShape<S>, extra, T));
}
}  // namespace

void append_stream_add_sub_variants(std::vector<Variant>& out) {
  // Measured on the H100 (bench/results/2026-11-22-h100-addstream.md, two
  // runs): of 16 shapes (tiles of 2^15 - 2^17 bits, two or three stages,
  // 3 - 12 blocks per SM) these two are the only ones best somewhere:
  // q4.t256.s3 at 2^14 - 2^16 bits (one tile: 101-102 % of copy against
  // 99-101 % for the scan kernel) and above 2^21 bits; q4.t512 at 2^17 bits.
  // The others were within noise of these or slower (q8 shapes lose 1-3 %
  // from 2^18 bits on). bench/notes/add-stream.md says why none reaches
  // 97 % at 2^20 bits.
  add_pair<4, 256, 3>(out);  // 2^16-bit tiles, three stages, 4 blocks per SM, 1024 threads
  add_pair<4, 512, 2>(out);  // 2^17-bit tiles, two stages, 3 blocks per SM, 1536 threads
}

}  // namespace bigtune::kernels::variants
