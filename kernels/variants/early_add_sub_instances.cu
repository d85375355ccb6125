// The early-store add/sub families (kernels/variants/early_kernels.cuh) and
// their shape rules: u64 limbs, tiles of T threads x Q limbs, a and b staged
// in a shared buffer each. Names "<op>.early.u64.q<Q>.t<T>" (look-back through
// global status words, as the chained family) and "<op>.cluster.u64.q<Q>.t<T>"
// (one thread block cluster per instance); Variant.param = T =
// Variant.max_threads, so the registry rejects more than one instance per
// block (the launch ignores the plan's ipb: one tile per block).
//
// Size limits: early 2^24 bits, as the chained family (nothing in the kernel
// stops there; it is the range the GPU tests cover). cluster: 8 tiles, the
// portable cluster size (2^20 bits with 2^17-bit tiles, 2^21 with 2^18-bit).
//
// The bound and the shapes: bench/notes/add-early.md.
#include <cuda_runtime_api.h>

#include "kernels/block/chained_layout.hpp"
#include "kernels/variants/early_kernels.cuh"
#include "kernels/variants/early_variants.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
constexpr uint64_t kEarlyMaxBits = uint64_t(1) << 24;
constexpr uint64_t kMaxGridBlocks = 0x7fffffffu;
constexpr uint32_t kClusterFlag = 1u << 16;  // Variant.param: bits 0-15 T, this bit for the cluster kernel

bool is_cluster(const Variant& v) { return (v.param & kClusterFlag) != 0; }
uint32_t tile_threads_of(const Variant& v, uint32_t limbs) {
  return block::chained_threads(limbs, v.q, v.param & 0xffffu);
}
uint32_t tile_limbs_of(const Variant& v, uint32_t limbs) {
  return block::chained_tile_limbs(tile_threads_of(v, limbs), v.q);
}
// Two buffers (a, b) of one tile, or of the instance when shorter.
uint32_t early_smem_of(const Variant& v, uint32_t limbs) {
  return uint32_t(
      block::smem_bytes_padded(2 * uint64_t(block::chained_buffer_limbs(limbs, tile_limbs_of(v, limbs))), v.limb_bits / 8));
}

uint32_t early_threads(const Variant& v, uint64_t bits) { return tile_threads_of(v, operand_limbs(v, bits)); }
uint64_t early_smem(const Variant& v, uint64_t bits, uint32_t) { return early_smem_of(v, operand_limbs(v, bits)); }
uint64_t early_max_bits(const Variant& v) {
  return is_cluster(v) ? uint64_t(kEarlyMaxClusterTiles) * (v.param & 0xffffu) * v.q * v.limb_bits : kEarlyMaxBits;
}
uint64_t early_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  if (is_cluster(v)) return 0;
  const uint32_t limbs = operand_limbs(v, bits);
  return 4 * block::chained_scratch_words(block::chained_tiles(limbs, tile_limbs_of(v, limbs)), count);
}

// One block per tile. Look-back: the status words zeroed first (a
// stream-ordered memset, ~1-2 us against >= 0.3 ms for a 2^32-bit batch).
// Cluster: clusters of `tiles` blocks, refused (an error, not a wrong answer)
// on a device without cluster launch or past 8 tiles.
cudaError_t early_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  const uint32_t threads = tile_threads_of(v, args.limbs);
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, v.q);
  const uint32_t tiles = block::chained_tiles(args.limbs, tile_limbs);
  const uint64_t blocks = uint64_t(tiles) * args.count;
  if (blocks == 0 || blocks > kMaxGridBlocks) return cudaErrorInvalidConfiguration;
  const uint32_t smem = early_smem_of(v, args.limbs);
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  KernelArgs copy = args;
  copy.threads_per_instance = threads;
  copy.ipb = 1;
  copy.stage_buffers = 2;
  void* params[] = {&copy};
  if (!is_cluster(v)) {
    const uint64_t words = block::chained_scratch_words(tiles, args.count);
    if (words != 0) {
      if (args.scratch == nullptr) return cudaErrorInvalidValue;  // an error, not a fault
      const cudaError_t e = cudaMemsetAsync(args.scratch, 0, words * 4, stream);
      if (e != cudaSuccess) return e;
    }
    return cudaLaunchKernel(v.kernel, dim3(uint32_t(blocks)), dim3(threads), params, smem, stream);
  }
  if (tiles > kEarlyMaxClusterTiles) return cudaErrorInvalidConfiguration;
  int device = 0, cluster_launch = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device);
  if (e != cudaSuccess) return e;
  if (!cluster_launch) return cudaErrorNotSupported;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(uint32_t(blocks));
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = tiles;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  config.attrs = attr;
  config.numAttrs = 1;
  return cudaLaunchKernelExC(&config, v.kernel, params);
}

const ShapeRules kEarlyShape{early_threads, early_smem, early_max_bits, early_scratch, early_launch, false};

// kMin: blocks per SM the shape is meant for (registers: 64K / (kMin * T)
// per thread; shared memory: kMin x 2 x T x Q x 8 bytes <= 228 KB).
template <int Q, int T, int kMin, bool kCluster>
void add_pair(std::vector<Variant>& out) {
  const char* algorithm = kCluster ? "cluster" : "early";
  const std::string extra = "t" + std::to_string(T);
  const uint32_t param = uint32_t(T) | (kCluster ? kClusterFlag : 0u);
  out.push_back(make_variant(Op::Add, "grid", algorithm, 64, Q, T,
                             reinterpret_cast<const void*>(&early_add_sub_kernel<uint64_t, Q, T, kMin, false, kCluster>),
                             kEarlyShape, extra, param));
  out.push_back(make_variant(Op::Sub, "grid", algorithm, 64, Q, T,
                             reinterpret_cast<const void*>(&early_add_sub_kernel<uint64_t, Q, T, kMin, true, kCluster>),
                             kEarlyShape, extra, param));
}
}  // namespace

void append_early_add_sub_variants(std::vector<Variant>& out) {
  add_pair<8, 512, 3, false>(out);  // 2^18-bit tiles, 3 blocks per SM
  add_pair<8, 256, 6, false>(out);  // 2^17-bit tiles, 6 blocks per SM
  add_pair<8, 512, 3, true>(out);   // 2^18-bit tiles: cluster of 4 at 2^20 bits
  add_pair<8, 256, 6, true>(out);   // 2^17-bit tiles: cluster of 8 at 2^20 bits
  add_pair<4, 512, 4, false>(out);  // 2^17-bit tiles, 4 blocks per SM of 512 threads
  add_pair<4, 512, 4, true>(out);   // the same as clusters of 8 at 2^20 bits
  add_pair<16, 256, 3, true>(out);  // 2^18-bit tiles of 256 threads: cluster of 4 at 2^20 bits
}

}  // namespace bigtune::kernels::variants
