// The chained add/sub family ("grid": one instance over several blocks) and
// its shape rules: u64 limbs, tiles of T = 512 threads x Q in {8, 16} limbs,
// i.e. tiles of 2^18 and 2^19 bits. Names: "<op>.chained.u64.q<Q>.t<T>";
// Variant.param = T. The instances-per-block value of a plan is ignored (one
// tile per block).
//
// Size limit: 2^24 bits (2^18 limbs). Nothing in the kernel stops there (no
// shared-memory bound; tile ids are 32-bit, so count x tiles < 2^31); it is the
// range the GPU tests cover (tests/gpu/chained_add_vs_gmp_test.cpp) and keeps
// the per-variant "at the limit" test case small.
#include <cuda_runtime_api.h>

#include "kernels/block/chained_layout.hpp"
#include "kernels/variants/chained_kernels.cuh"
#include "kernels/variants/chained_variants.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
constexpr uint64_t kChainedMaxBits = uint64_t(1) << 24;
constexpr uint64_t kMaxGridBlocks = 0x7fffffffu;

uint32_t tile_threads_of(const Variant& v, uint32_t limbs) { return block::chained_threads(limbs, v.q, v.param); }
uint32_t tile_limbs_of(const Variant& v, uint32_t limbs) {
  return block::chained_tile_limbs(tile_threads_of(v, limbs), v.q);
}

uint32_t chained_threads(const Variant& v, uint64_t bits) { return tile_threads_of(v, operand_limbs(v, bits)); }
// `ipb` buffers of one tile: the registry asks for 2 when it considers
// staging both operands at once (ShapeRules::may_double_stage).
uint64_t chained_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  const uint32_t limbs = operand_limbs(v, bits);
  return block::smem_bytes_padded(uint64_t(ipb) * block::chained_buffer_limbs(limbs, tile_limbs_of(v, limbs)),
                                  v.limb_bits / 8);
}
uint64_t chained_max_bits(const Variant&) { return kChainedMaxBits; }
uint64_t chained_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  const uint32_t limbs = operand_limbs(v, bits);
  return 4 * block::chained_scratch_words(block::chained_tiles(limbs, tile_limbs_of(v, limbs)), count);
}

// One block per tile; the status words zeroed first (stream-ordered memset:
// ~1-2 us, against >= 0.3 ms for a 2^32-bit batch).
cudaError_t chained_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  const uint32_t threads = tile_threads_of(v, args.limbs);
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, v.q);
  const uint32_t tiles = block::chained_tiles(args.limbs, tile_limbs);
  const uint64_t blocks = uint64_t(tiles) * args.count;
  if (blocks == 0 || blocks > kMaxGridBlocks) return cudaErrorInvalidConfiguration;
  const uint64_t words = block::chained_scratch_words(tiles, args.count);
  if (words != 0) {
    // A caller that did not allocate the scratch gets an error, not a fault.
    if (args.scratch == nullptr) return cudaErrorInvalidValue;
    const cudaError_t e = cudaMemsetAsync(args.scratch, 0, words * 4, stream);
    if (e != cudaSuccess) return e;
  }
  const uint32_t buffers = args.stage_buffers == 2 ? 2 : 1;
  const uint32_t smem = uint32_t(block::smem_bytes_padded(
      uint64_t(buffers) * block::chained_buffer_limbs(args.limbs, tile_limbs), v.limb_bits / 8));
  (void)g;  // its grid counts instances, not tiles; its smem may include ignored ipb
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  KernelArgs copy = args;
  copy.threads_per_instance = threads;
  copy.stage_buffers = buffers;
  void* params[] = {&copy};
  return cudaLaunchKernel(v.kernel, dim3(uint32_t(blocks)), dim3(threads), params, smem, stream);
}

const ShapeRules kChainedShape{chained_threads, chained_smem, chained_max_bits, chained_scratch, chained_launch, true};

template <int Q>
void add_pair(std::vector<Variant>& out, uint32_t tile_threads) {
  const std::string extra = "t" + std::to_string(tile_threads);
  out.push_back(make_variant(Op::Add, "grid", "chained", 64, Q, 1024,
                             reinterpret_cast<const void*>(&chained_add_sub_kernel<uint64_t, Q, false>),
                             kChainedShape, extra, tile_threads));
  out.push_back(make_variant(Op::Sub, "grid", "chained", 64, Q, 1024,
                             reinterpret_cast<const void*>(&chained_add_sub_kernel<uint64_t, Q, true>),
                             kChainedShape, extra, tile_threads));
}
}  // namespace

void append_chained_add_sub_variants(std::vector<Variant>& out) {
  // Measured on the H100 (bench/results/2026-11-22-h100-addbw.md): only the
  // largest tiles pay; 2^17-bit tiles (q4.t512, q8.t256) lost 15-20 % at
  // 2^20 bits, and a persistent-block version (ticket prefetch, stores before
  // the look-back) never won (bench/notes/add-chained.md). Kept: the two that
  // win somewhere.
  add_pair<8>(out, 512);   // 2^18-bit tiles: best at 2^17 bits (one tile, by a hair)
  add_pair<16>(out, 512);  // 2^19-bit tiles: best at 2^20 bits
}

}  // namespace bigtune::kernels::variants
