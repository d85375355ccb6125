// __global__ kernel of the persistent cluster add/sub variants
// ("<op>.cluster.u64.q<Q>.t<T>.p"): the cluster kernel of cluster_kernels.cuh
// (one thread block cluster per instance, one block per tile, the carry
// between tiles through distributed shared memory, early stores), but with as
// many clusters as are resident, each looping over instances c, c + C,
// c + 2C, ..., and the next instance's tile fetched by cp.async into a second
// stage while the current one is scanned and stored.
//
// Why (bench/notes/add-cluster.md, issue 2 at 2^20 bits): the one-shot
// cluster kernel runs at 96.1-98.4 % of copy there, ~5 points below its
// access pattern's 103 % (bench/notes/add-stream.md). Per block of its 32768
// (4096 instances x 8 tiles) the memory of an SM idles between the block's
// loads and its stores unless the other three resident blocks happen to fill
// it, every cluster starts only when 8 block slots of one GPC are free, and
// the grid ends in a ragged last wave (62.06 waves of 528 blocks). Here every
// block keeps its next tile's 32 KB of loads in flight through the scan, the
// cluster barrier and the stores of the current one (Little's law wants
// ~15-30 KB of loads in flight per SM: three blocks give 96 KB), no block is
// launched after the first wave, and the instances are spread evenly over
// the clusters (the launch picks C so that every cluster gets the same
// number of instances, +-1).
//
// The carry hand-over per instance is the cluster kernel's (seed 000 §2:
// chunk statuses, one BlockCarryScan, the tile aggregates pushed into the
// later blocks' shared memory, one split cluster barrier). The aggregates are
// double-buffered by round parity: a block pushes round k's aggregate only
// after its wait of round k-1, which completes only after every block of the
// cluster arrived in round k-1, i.e. after each has read its round k-2
// aggregates from the same parity slot.
#pragma once
#include <cooperative_groups.h>

#include <cstdint>

#include "kernels/block/add_sub.cuh"
#include "kernels/block/chained_layout.hpp"
#include "kernels/block/staging.cuh"
#include "kernels/variants/cluster_kernels.cuh"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::variants {

// blockDim.x = args.threads_per_instance = the tile's threads (<= kThreads);
// gridDim.x = C x tiles, launched as clusters of `tiles` blocks, C <= count.
// Dynamic shared memory: two stages of (a, b) buffers. No scratch.
template <class Limb, int Q, int kThreads, int kMinBlocks, bool kSub>
__global__ void __launch_bounds__(kThreads, kMinBlocks) cluster_persistent_add_sub_kernel(KernelArgs args) {
#if !BIGTUNE_HAS_CLUSTERS
  __trap();  // the launch refuses devices without cluster launch; never reached
#else
  __shared__ block::BlockCarryScan::TempStorage scan_storage;
  __shared__ uint32_t s_agg[2][kClusterMaxTiles];  // [round parity][earlier tile]
  Limb* smem = dynamic_smem<Limb>();
  const uint32_t m = args.limbs, tid = threadIdx.x, threads = blockDim.x;
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, Q);
  const uint32_t tiles = block::chained_tiles(m, tile_limbs);
  const uint32_t buf = block::chained_buffer_limbs(m, tile_limbs);
  const uint64_t clusters = gridDim.x / tiles;
  const uint32_t tile = blockIdx.x % tiles;  // the rank in the cluster (1-D clusters of `tiles`)
  const uint32_t start = tile * tile_limbs, len = min(tile_limbs, m - start);
  const Limb* a_tiles = static_cast<const Limb*>(args.a) + start;
  const Limb* b_tiles = static_cast<const Limb*>(args.b) + start;
  Limb* r_tiles = static_cast<Limb*>(args.r) + start;

  // Stage s holds a at 2 s buf, b at (2 s + 1) buf. Always two cp.async
  // groups (empty past the last instance), so one wait count fits every round.
  auto fetch = [&](uint64_t inst, uint32_t s) {
    if (inst < args.count) {
      block::copy_tile_async(smem, 2 * s * buf, a_tiles + inst * m, len);
      block::copy_tile_async(smem, (2 * s + 1) * buf, b_tiles + inst * m, len);
    } else {
      __pipeline_commit();
      __pipeline_commit();
    }
  };

  uint64_t inst = blockIdx.x / tiles;  // < count: the launch makes C <= count
  fetch(inst, 0);
  // Phase 1 of the cluster barrier (all blocks started, their shared memory
  // exists), completed before the first push.
  if (tiles > 1) cluster_arrive_relaxed();
  const bool last_thread = tid == threads - 1;
  const uint32_t first = tid * Q;
  for (uint32_t round = 0; inst < args.count; ++round, inst += clusters) {
    const uint32_t s = round & 1;
    const uint32_t a_off = 2 * s * buf, b_off = a_off + buf;
    // The other stage was read by the previous round (its stores, its
    // dependent chunks): every thread is past that before it is refilled.
    __syncthreads();
    fetch(inst + clusters, s ^ 1);
    __pipeline_wait_prior(2);  // this round's two groups landed; the next round's may fly
    __syncthreads();

    auto b_at = [&](int k) {
      const uint32_t j = first + k;
      return j < len ? smem[block::smem_physical<Limb>(b_off + j)] : Limb(0);
    };
    // As in cluster_kernels.cuh: a read from shared memory twice rather than
    // held in registers across the scan (the footprint gives the residency).
    uint32_t status;
    {
      Limb a[Q];
      block::smem_to_blocked<Limb, Q>(a, smem, a_off, first, len);
      status = block::chunk_status<Limb, Q, kSub>(a, b_at);
    }
    uint32_t inclusive;
    const uint32_t exclusive = block::BlockCarryScan(scan_storage).scan(status, inclusive);

    if (tiles > 1) {
      if (round == 0) cluster_wait_acquire();  // phase 1
      if (last_thread) {
        cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
        for (uint32_t r = tile + 1; r < tiles; ++r) *cluster.map_shared_rank(&s_agg[s][tile], r) = inclusive;
      }
      cluster_arrive_release();  // this round's pushes are done when it completes
    }

    block::AddSubResult<Limb, kSub> result(args.bits);
    const bool last = tile == tiles - 1 && last_thread;
    const bool dependent = (exclusive & block::kCarryPropagate) != 0;  // a leading run; thread 0 always
    if (!dependent) {
      Limb a[Q];
      block::smem_to_blocked<Limb, Q>(a, smem, a_off, first, len);
      const Limb out = block::chunk_finish<Limb, Q, kSub>(a, b_at, Limb(exclusive & block::kCarryGenerate),
                                                           [&](int k, Limb r) {
                                                             const uint32_t j = first + k;
                                                             r = result.limb(uint64_t(start) + j, r);
                                                             if (j < len) smem[block::smem_physical<Limb>(a_off + j)] = r;
                                                           });
      result.last_carry(last, uint64_t(tiles) * tile_limbs, out);
    }
    const uint32_t waiting = uint32_t(__syncthreads_count(dependent));  // threads 0 .. waiting-1
    Limb* r_tile = r_tiles + inst * m;
    for (uint32_t i = waiting * Q + tid; i < len; i += threads) r_tile[i] = smem[block::smem_physical<Limb>(a_off + i)];

    uint32_t tile_carry = 0;
    if (tiles > 1) {
      cluster_wait_acquire();  // every earlier tile's aggregate of this round is here
      if (dependent)
        for (uint32_t j = 0; j < tile; ++j) tile_carry = block::CarryOp()(tile_carry, s_agg[s][j]) & block::kCarryGenerate;
    }
    if (dependent) {
      Limb a[Q];
      block::smem_to_blocked<Limb, Q>(a, smem, a_off, first, len);
      const Limb out = block::chunk_finish<Limb, Q, kSub>(a, b_at, Limb(tile_carry), [&](int k, Limb r) {
        const uint32_t j = first + k;
        r = result.limb(uint64_t(start) + j, r);
        if (j < len) r_tile[j] = r;
      });
      result.last_carry(last, uint64_t(tiles) * tile_limbs, out);
    }
    if (result.flag >= 0 && args.flags) args.flags[inst] = uint32_t(result.flag);
  }
#endif
}

}  // namespace bigtune::kernels::variants
