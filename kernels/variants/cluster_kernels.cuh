// __global__ kernel of the cluster add/sub family (family "grid": one
// instance over several blocks, one block per tile of T * Q limbs, the tiles
// of one instance the blocks of one thread block cluster, sm_90), built for
// issue 2's 97 % of copy at 2^20 bits (bench/notes/add-cluster.md).
//
// Why: the chained kernel (chained_kernels.cuh) passes the carry from tile to
// tile through status words in L2 (decoupled look-back, chained_scan.cuh) and
// stores nothing before its tile's carry-in is back; addstream's probe showed
// that its access pattern alone runs at 103 % of copy, so the 5 points it
// loses at 2^20 bits are that hand-over (bench/notes/add-stream.md). Here:
//   - the carry goes through distributed shared memory: after the in-tile scan
//     (seed 000 §2: chunk statuses, one BlockCarryScan) each block pushes its
//     aggregate status into the shared memory of every later block of its
//     cluster, and a split cluster barrier (arrive after the push, wait after
//     the early stores) hands them over: no scratch, no memset, no ticket, no
//     L2 round trip;
//   - every chunk whose in-tile exclusive status has p = 0 does not depend on
//     the tile's carry-in (all but the leading all-ones / all-zeros run: with
//     random limbs all but thread 0), so it is finished and stored before the
//     barrier wait; the leading chunks (one, Q limbs, in practice) write their
//     limbs straight to global memory after it;
//   - a and b both stay in shared memory (no operand registers across the
//     scan): 32 registers (ptxas, no spills), four 512-thread blocks of
//     2^17-bit tiles per SM.
// Measured (bench/results/2026-11-22-h100-add2.md): 97.3-98.4 % of copy at
// 2^20 bits. The same early stores with the L2 look-back instead of the
// cluster (".early" variants, dropped) reached only 86-91 %.
//
// The cluster size is the number of tiles, at most 8 (the portable size), so
// an instance holds at most 8 tiles; blocks of a cluster run at the same time,
// so no block waits for one that has not started.
#pragma once
#include <cooperative_groups.h>

#include <cstdint>

#include "kernels/block/add_sub.cuh"
#include "kernels/block/chained_layout.hpp"
#include "kernels/block/staging.cuh"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::variants {

// Most tiles (blocks) of one cluster: the portable cluster size.
constexpr uint32_t kClusterMaxTiles = 8;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define BIGTUNE_HAS_CLUSTERS 1
#else
#define BIGTUNE_HAS_CLUSTERS 0
#endif

// Split cluster barrier (PTX ISA "barrier.cluster"): every thread of every
// block of the cluster arrives, then waits. The release / acquire pair orders
// shared-memory stores into other blocks before the arrive with loads after
// the wait.
__device__ __forceinline__ void cluster_arrive_relaxed() {
#if BIGTUNE_HAS_CLUSTERS
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void cluster_arrive_release() {
#if BIGTUNE_HAS_CLUSTERS
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void cluster_wait_acquire() {
#if BIGTUNE_HAS_CLUSTERS
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}

// blockDim.x = args.threads_per_instance = the tile's threads (<= kThreads;
// fewer for instances shorter than one tile, or when a test asks for small
// tiles); one block per tile of every instance, launched as clusters of
// `tiles` blocks (one cluster per instance). args.ipb and args.stage_buffers
// are ignored (a and b always get a buffer each); no scratch.
template <class Limb, int Q, int kThreads, int kMinBlocks, bool kSub>
__global__ void __launch_bounds__(kThreads, kMinBlocks) cluster_add_sub_kernel(KernelArgs args) {
#if !BIGTUNE_HAS_CLUSTERS
  __trap();  // the launch refuses devices without cluster launch; never reached
#else
  __shared__ block::BlockCarryScan::TempStorage scan_storage;
  __shared__ uint32_t s_agg[kClusterMaxTiles];  // aggregates pushed by the earlier tiles of the instance
  Limb* smem = dynamic_smem<Limb>();
  const uint32_t m = args.limbs, tid = threadIdx.x, threads = blockDim.x;
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, Q);
  const uint32_t tiles = block::chained_tiles(m, tile_limbs);
  const uint32_t buf = block::chained_buffer_limbs(m, tile_limbs);

  // Which tile: a cluster is `tiles` consecutive blocks, so blockIdx gives
  // the instance and the rank in the cluster.
  const uint32_t id = blockIdx.x;
  const uint64_t inst = id / tiles;
  const uint32_t tile = id - uint32_t(inst) * tiles;
  const uint32_t start = tile * tile_limbs, len = min(tile_limbs, m - start);
  const Limb* a_tile = static_cast<const Limb*>(args.a) + inst * m + start;
  const Limb* b_tile = static_cast<const Limb*>(args.b) + inst * m + start;
  Limb* r_tile = static_cast<Limb*>(args.r) + inst * m + start;

  block::copy_tile_async(smem, 0, a_tile, len);
  block::copy_tile_async(smem, buf, b_tile, len);
  // Phase 1 of the cluster barrier, completed after the scan: every block of
  // the cluster has started (its shared memory exists) before any pushes into
  // it. Its latency hides behind the loads.
  if (tiles > 1) cluster_arrive_relaxed();
  block::wait_tiles();
  __syncthreads();

  const uint32_t first = tid * Q;
  auto b_at = [&](int k) {
    const uint32_t j = first + k;
    return j < len ? smem[block::smem_physical<Limb>(buf + j)] : Limb(0);
  };
  // a is read from shared memory twice (status, then result) rather than kept
  // in Q registers across the scan: the smaller footprint is what gives more
  // resident blocks. The barriers of the scan keep the compiler from merging
  // the two reads.
  uint32_t status;
  {
    Limb a[Q];
    block::smem_to_blocked<Limb, Q>(a, smem, 0, first, len);
    status = block::chunk_status<Limb, Q, kSub>(a, b_at);
  }
  uint32_t inclusive;
  const uint32_t exclusive = block::BlockCarryScan(scan_storage).scan(status, inclusive);

  // Push the tile's aggregate (its carry status with carry-in 0) to the later tiles.
  if (tiles > 1) {
    cluster_wait_acquire();  // phase 1: all blocks of the cluster run
    if (tid == threads - 1) {
      cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
      for (uint32_t r = tile + 1; r < tiles; ++r) *cluster.map_shared_rank(&s_agg[tile], r) = inclusive;
    }
    cluster_arrive_release();  // phase 2: the pushes are done when it completes
  }

  // Result limbs and the carry flag, with limb indices of the whole instance (start + j).
  block::AddSubResult<Limb, kSub> result(args.bits);
  const bool last = tile == tiles - 1 && tid == threads - 1;

  // Chunks whose carry-in is known now: finished into their own a limbs in
  // shared memory (only this thread reads them), stored striped below.
  const bool dependent = (exclusive & block::kCarryPropagate) != 0;  // a leading run; thread 0 always
  if (!dependent) {
    Limb a[Q];
    block::smem_to_blocked<Limb, Q>(a, smem, 0, first, len);
    const Limb out = block::chunk_finish<Limb, Q, kSub>(a, b_at, Limb(exclusive & block::kCarryGenerate),
                                                         [&](int k, Limb r) {
                                                           const uint32_t j = first + k;
                                                           r = result.limb(uint64_t(start) + j, r);
                                                           if (j < len) smem[block::smem_physical<Limb>(j)] = r;
                                                         });
    result.last_carry(last, uint64_t(tiles) * tile_limbs, out);
  }
  const uint32_t waiting = uint32_t(__syncthreads_count(dependent));  // threads 0 .. waiting-1
  for (uint32_t i = waiting * Q + tid; i < len; i += threads) r_tile[i] = smem[block::smem_physical<Limb>(i)];

  // The tile's carry-in, for the dependent chunks.
  uint32_t tile_carry = 0;
  if (tiles > 1) {
    cluster_wait_acquire();  // phase 2: every earlier tile's aggregate is here
    if (dependent)
      for (uint32_t j = 0; j < tile; ++j) tile_carry = block::CarryOp()(tile_carry, s_agg[j]) & block::kCarryGenerate;
  }
  if (dependent) {  // exclusive = (g 0, p 1): the chunk's carry-in is the tile's
    Limb a[Q];
    block::smem_to_blocked<Limb, Q>(a, smem, 0, first, len);
    const Limb out = block::chunk_finish<Limb, Q, kSub>(a, b_at, Limb(tile_carry), [&](int k, Limb r) {
      const uint32_t j = first + k;
      r = result.limb(uint64_t(start) + j, r);
      if (j < len) r_tile[j] = r;
    });
    result.last_carry(last, uint64_t(tiles) * tile_limbs, out);
  }
  if (result.flag >= 0 && args.flags) args.flags[inst] = uint32_t(result.flag);
#endif
}

}  // namespace bigtune::kernels::variants
