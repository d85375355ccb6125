// The cluster add/sub family (kernels/variants/cluster_kernels.cuh) and its
// shape rules: u64 limbs, tiles of T threads x Q limbs, a and b staged in a
// shared buffer each, one thread block cluster of `tiles` blocks per instance.
// Names "<op>.cluster.u64.q<Q>.t<T>"; Variant.param = T = Variant.max_threads,
// so the registry rejects more than one instance per block (the launch
// ignores the plan's ipb: one tile per block).
//
// Size limit: 8 tiles (the portable cluster size): 2^20 bits with the 2^17-bit
// tiles of q4.t512. Sizes above are Unsupported for this family (the chained
// and stream families take them).
//
// Needs sm_90 (cluster launch): the registry calls the variants invalid on
// older devices (why_invalid, by the algorithm name), and the launch itself returns
// cudaErrorNotSupported there, an error rather than a wrong answer.
//
// The bound and the shapes: bench/notes/add-cluster.md.
#include <cuda_runtime_api.h>

#include "kernels/block/chained_layout.hpp"
#include "kernels/variants/cluster_kernels.cuh"
#include "kernels/variants/cluster_variants.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
constexpr uint64_t kMaxGridBlocks = 0x7fffffffu;

uint32_t tile_threads_of(const Variant& v, uint32_t limbs) { return block::chained_threads(limbs, v.q, v.param); }
uint32_t tile_limbs_of(const Variant& v, uint32_t limbs) {
  return block::chained_tile_limbs(tile_threads_of(v, limbs), v.q);
}
// Two buffers (a, b) of one tile, or of the instance when shorter.
uint32_t cluster_smem_of(const Variant& v, uint32_t limbs) {
  return uint32_t(block::smem_bytes_padded(2 * uint64_t(block::chained_buffer_limbs(limbs, tile_limbs_of(v, limbs))),
                                           v.limb_bits / 8));
}

uint32_t cluster_threads(const Variant& v, uint64_t bits) { return tile_threads_of(v, operand_limbs(v, bits)); }
uint64_t cluster_smem(const Variant& v, uint64_t bits, uint32_t) { return cluster_smem_of(v, operand_limbs(v, bits)); }
uint64_t cluster_max_bits(const Variant& v) { return uint64_t(kClusterMaxTiles) * v.param * v.q * v.limb_bits; }

// One block per tile, clusters of `tiles` blocks. Refused (an error, not a
// wrong answer) on a device without cluster launch or past 8 tiles.
cudaError_t cluster_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  const uint32_t threads = tile_threads_of(v, args.limbs);
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, v.q);
  const uint32_t tiles = block::chained_tiles(args.limbs, tile_limbs);
  const uint64_t blocks = uint64_t(tiles) * args.count;
  if (blocks == 0 || blocks > kMaxGridBlocks || tiles > kClusterMaxTiles) return cudaErrorInvalidConfiguration;
  int device = 0, cluster_launch = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device);
  if (e != cudaSuccess) return e;
  if (!cluster_launch) return cudaErrorNotSupported;
  const uint32_t smem = cluster_smem_of(v, args.limbs);
  if (smem > 48 * 1024) {
    e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  KernelArgs copy = args;
  copy.threads_per_instance = threads;
  copy.ipb = 1;
  copy.stage_buffers = 2;
  void* params[] = {&copy};
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

const ShapeRules kClusterShape{cluster_threads, cluster_smem, cluster_max_bits, nullptr, cluster_launch, false};

// kMin: blocks per SM the shape is meant for (registers: 64K / (kMin * T)
// per thread; shared memory: kMin x 2 x T x Q x 8 bytes <= 228 KB).
template <int Q, int T, int kMin>
void add_pair(std::vector<Variant>& out) {
  const std::string extra = "t" + std::to_string(T);
  out.push_back(make_variant(Op::Add, "grid", "cluster", 64, Q, T,
                             reinterpret_cast<const void*>(&cluster_add_sub_kernel<uint64_t, Q, T, kMin, false>),
                             kClusterShape, extra, T));
  out.push_back(make_variant(Op::Sub, "grid", "cluster", 64, Q, T,
                             reinterpret_cast<const void*>(&cluster_add_sub_kernel<uint64_t, Q, T, kMin, true>),
                             kClusterShape, extra, T));
}
}  // namespace

void append_cluster_add_sub_variants(std::vector<Variant>& out) {
  // Measured on the H100 (bench/results/2026-11-22-h100-add2.md, 4 runs): of
  // four cluster shapes and three look-back ones (same early stores, carry
  // through L2: ".early", 86-91 % at 2^20 bits) only this one is best
  // somewhere: 2^17-bit tiles, four 512-thread blocks per SM, clusters of 8
  // at 2^20 bits: 97.3-98.4 % of copy there, against 93.8-95.6 % for
  // chained.u64.q16.t512 in the same runs. q8.t256 (2^17-bit tiles, six
  // 256-thread blocks) tied it within noise (96.9-98.2 %); 2^18-bit tiles
  // (q8.t512, q16.t256: 3 blocks per SM) lost 5-7 points. Persistent
  // clusters looping over instances with the next tile prefetched (".p",
  // q4.t512 / q8.t256, three blocks per SM; commit dd9acc3) lost 15-23
  // points at 2^19 - 2^20 bits (bench/results/2026-11-22-h100-addbw.md,
  // session 6): dropped.
  add_pair<4, 512, 4>(out);
}

}  // namespace bigtune::kernels::variants
