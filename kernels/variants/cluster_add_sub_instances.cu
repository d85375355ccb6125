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

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "kernels/block/chained_layout.hpp"
#include "kernels/variants/cluster_kernels.cuh"
#include "kernels/variants/cluster_persistent_kernels.cuh"
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

// --- persistent clusters (".p", cluster_persistent_kernels.cuh) -------------
// Two stages of (a, b): four buffers of one tile (or of the instance when shorter).
uint32_t persistent_smem_of(const Variant& v, uint32_t limbs) {
  return uint32_t(block::smem_bytes_padded(4 * uint64_t(block::chained_buffer_limbs(limbs, tile_limbs_of(v, limbs))),
                                           v.limb_bits / 8));
}
uint64_t persistent_smem(const Variant& v, uint64_t bits, uint32_t) {
  return persistent_smem_of(v, operand_limbs(v, bits));
}

// Most clusters of this shape resident at once (cudaOccupancyMaxActiveClusters),
// and the shared-memory opt-in, once per (device, kernel, block, smem,
// cluster size): the occupancy query costs tens of microseconds of host time,
// which a synchronous caller (and the benchmark's event timing) would see.
cudaError_t resident_clusters(const Variant& v, int device, uint32_t threads, uint32_t smem, uint32_t tiles,
                              int& out) {
  using Key = std::tuple<int, const void*, uint32_t, uint32_t, uint32_t>;
  static std::mutex mutex;
  static std::map<Key, int> known;
  // The opt-in only ever grows (a smaller value set later would break a
  // cached larger shape's launch).
  static std::map<std::pair<int, const void*>, uint32_t> opted_in;
  const Key key{device, v.kernel, threads, smem, tiles};
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known.find(key); it != known.end()) return out = it->second, cudaSuccess;
  cudaError_t e = cudaSuccess;
  uint32_t& opt = opted_in[{device, v.kernel}];
  if (smem > 48 * 1024 && smem > opt) {
    e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
    opt = smem;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(tiles * 1024);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = tiles;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  config.attrs = attr;
  config.numAttrs = 1;
  int n = 0;
  e = cudaOccupancyMaxActiveClusters(&n, v.kernel, &config);
  if (e != cudaSuccess) return e;
  if (n <= 0) return cudaErrorInvalidConfiguration;  // not even one cluster fits
  known.emplace(key, n);
  return out = n, cudaSuccess;
}

// C clusters of `tiles` blocks, C <= the resident clusters, chosen so that
// every cluster gets ceil(count / C) or one less instance (the rounds are
// what the time is made of: C = ceil(count / rounds)). g.grid caps C: the
// runtime's geometry has grid = count (no cap); tests pass fewer to force
// many rounds at small sizes.
cudaError_t persistent_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  const uint32_t threads = tile_threads_of(v, args.limbs);
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, v.q);
  const uint32_t tiles = block::chained_tiles(args.limbs, tile_limbs);
  if (args.count == 0 || tiles > kClusterMaxTiles) return cudaErrorInvalidConfiguration;
  int device = 0, cluster_launch = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device);
  if (e != cudaSuccess) return e;
  if (!cluster_launch) return cudaErrorNotSupported;
  const uint32_t smem = persistent_smem_of(v, args.limbs);
  int resident = 0;
  e = resident_clusters(v, device, threads, smem, tiles, resident);
  if (e != cudaSuccess) return e;
  uint64_t most = std::min<uint64_t>(uint64_t(resident), args.count);
  if (g.grid > 0) most = std::min<uint64_t>(most, g.grid);
  const uint64_t rounds = (args.count + most - 1) / most;
  const uint64_t clusters = (args.count + rounds - 1) / rounds;
  KernelArgs copy = args;
  copy.threads_per_instance = threads;
  copy.ipb = 1;
  copy.stage_buffers = 2;
  void* params[] = {&copy};
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(uint32_t(clusters * tiles));
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

const ShapeRules kPersistentShape{cluster_threads, persistent_smem, cluster_max_bits, nullptr, persistent_launch,
                                  false};

template <int Q, int T, int kMin>
void add_persistent_pair(std::vector<Variant>& out) {
  const std::string extra = "t" + std::to_string(T) + ".p";
  out.push_back(make_variant(
      Op::Add, "grid", "cluster", 64, Q, T,
      reinterpret_cast<const void*>(&cluster_persistent_add_sub_kernel<uint64_t, Q, T, kMin, false>),
      kPersistentShape, extra, T));
  out.push_back(make_variant(
      Op::Sub, "grid", "cluster", 64, Q, T,
      reinterpret_cast<const void*>(&cluster_persistent_add_sub_kernel<uint64_t, Q, T, kMin, true>),
      kPersistentShape, extra, T));
}

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
  // (q8.t512, q16.t256: 3 blocks per SM) lost 5-7 points.
  add_pair<4, 512, 4>(out);
  // Persistent clusters (bench/notes/add-cluster.md, "persistent"): the same
  // 2^17-bit tiles, two stages: 4 x 16.6 KB of shared memory, three
  // 512-thread blocks per SM.
  add_persistent_pair<4, 512, 3>(out);
  add_persistent_pair<8, 256, 3>(out);  // the same tiles over 256 threads (candidate, to be measured)
}

}  // namespace bigtune::kernels::variants
