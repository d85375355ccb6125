// __global__ kernel of the streaming add/sub family: one block per instance,
// walking its instance tile by tile (T * Q limbs per tile), the carry passed
// from tile to tile inside the block; shapes in kernels/block/stream_layout.hpp.
//
// Why (bench/notes/add-stream.md): at 2^20 bits the one-block kernel stages a
// 128 KB tile (one block per SM, phases that cannot overlap: 89 % of copy) and
// the chained kernel (chained_kernels.cuh) pays a ticket atomic and a
// look-back round trip per tile (94.5-96 %). Here no block depends on
// another: no ticket, no look-back, no status words, no memset. The next
// tiles' a and b are fetched by cp.async into other stages while the current
// tile is scanned and stored, so every block keeps S-1 tiles of loads in
// flight, and several blocks per SM (stream_min_blocks) keep the memory
// system busy while one of them scans.
//
// Measured (H100, bench/results/2026-11-22-h100-addstream.md): 101-102 % of
// copy with one or two tiles per instance (2^14 - 2^17 bits, the default
// there), but only 93-95 % at 2^20 bits, tied with the chained kernel: many
// instances streamed side by side cost 2-3 points against one sweeping front,
// and the per-tile carry work on each block's critical path 3-5 more
// (bench/notes/add-stream.md). No size limit, no scratch: the default above
// 2^21 bits, where it is marginally ahead.
//
// Per tile: wait for its loads, __syncthreads (its limbs are visible to all,
// and the previous tile's stage, stored at the end of the previous step, is
// no longer read), start the loads of the tile S-1 ahead into that stage, a to
// registers, BlockAddSubNc (chunk statuses, one scan, chunks recomputed; the
// results overwrite the thread's own a limbs in shared memory), __syncthreads,
// striped store. The carry out of a tile is kept in a shared word by the last
// thread and read by thread 0 of the next tile (two barriers apart).
#pragma once
#include <cstdint>

#include "kernels/block/add_sub_nc.cuh"
#include "kernels/block/stream_layout.hpp"
#include "kernels/block/staging.cuh"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::variants {

// blockDim.x = args.threads_per_instance = the tile's threads T (at most
// kThreads; fewer for an instance shorter than one full tile, or when a test
// asks for small tiles); the grid has one block per instance. args.ipb is
// ignored. kStages = S: tiles t+1 .. t+S-2 are in flight while tile t is
// waited for, and tile t+S-1 is started right after.
template <class Limb, int Q, int kThreads, int kStages, int kMinBlocks, bool kSub>
__global__ void __launch_bounds__(kThreads, kMinBlocks) stream_add_sub_kernel(KernelArgs args) {
  static_assert(kStages >= 2 && kStages <= 4, "cp.async.wait_group counts at most 8 groups: two per tile");
  using BlockOp = block::BlockAddSubNc<Limb, Q, kSub>;
  __shared__ typename BlockOp::TempStorage scan_storage;
  __shared__ Limb s_tile_carry;
  Limb* smem = dynamic_smem<Limb>();
  const uint32_t m = args.limbs, tid = threadIdx.x, threads = blockDim.x;
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, Q);
  const uint32_t tiles = block::chained_tiles(m, tile_limbs);
  const uint32_t buf = block::chained_buffer_limbs(m, tile_limbs);
  const uint32_t stages = block::stream_stages(tiles, kStages);
  const uint64_t inst = blockIdx.x;
  const Limb* a_inst = static_cast<const Limb*>(args.a) + inst * m;
  const Limb* b_inst = static_cast<const Limb*>(args.b) + inst * m;
  Limb* r_inst = static_cast<Limb*>(args.r) + inst * m;

  // Tile k's a and b into `stage`: always two cp.async groups (empty past the
  // last tile), so that a fixed wait_group count finds tile t complete.
  auto fetch = [&](uint32_t k, uint32_t stage) {
    if (k < tiles) {
      const uint32_t start = k * tile_limbs, len = min(tile_limbs, m - start);
      block::copy_tile_async(smem, 2 * stage * buf, a_inst + start, len);
      block::copy_tile_async(smem, (2 * stage + 1) * buf, b_inst + start, len);
    } else {
      __pipeline_commit();
      __pipeline_commit();
    }
  };
  // Tiles 0 .. S-2 into stages 0 .. S-2 (when fewer tiles, each has its own stage).
#pragma unroll
  for (uint32_t k = 0; k + 1 < kStages; ++k) fetch(k, k);

  // Result limbs and the carry flag, with limb indices of the whole instance (start + j).
  block::AddSubResult<Limb, kSub> result(args.bits);
  const uint32_t first = tid * Q;
  Limb carry = 0, chunk_out = 0;
  uint32_t stage = 0;  // tile t's
  for (uint32_t t = 0; t < tiles; ++t) {
    const uint32_t start = t * tile_limbs, len = min(tile_limbs, m - start);
    const uint32_t a_off = 2 * stage * buf, b_off = a_off + buf;
    __pipeline_wait_prior(2 * (kStages - 2));  // tile t landed; the next S-2 may still fly
    // Tile t visible to all; tile t-1's stage, stored at the end of the
    // previous step, no longer read: the next fetch may overwrite it.
    __syncthreads();
    fetch(t + kStages - 1, (stage + kStages - 1) % stages);  // past the end when stages < S
    Limb a[Q];
    block::smem_to_blocked<Limb, Q>(a, smem, a_off, first, len);
    if (tid == 0 && t > 0) carry = s_tile_carry;
    auto b_at = [&](int k) {
      const uint32_t j = first + k;
      return j < len ? smem[block::smem_physical<Limb>(b_off + j)] : Limb(0);
    };
    auto emit = [&](int k, Limb r) {
      const uint32_t j = first + k;
      r = result.limb(uint64_t(start) + j, r);
      if (j < len) smem[block::smem_physical<Limb>(a_off + j)] = r;  // this thread's own a limbs
    };
    chunk_out = BlockOp(scan_storage).run(a, b_at, carry, emit);
    if (tid == threads - 1) s_tile_carry = chunk_out;
    __syncthreads();
    block::store_tile(r_inst + start, smem, a_off, len);
    stage = stage + 1 == stages ? 0 : stage + 1;
  }
  result.last_carry(tid == threads - 1, uint64_t(tiles) * tile_limbs, chunk_out);
  if (result.flag >= 0 && args.flags) args.flags[inst] = uint32_t(result.flag);
}

}  // namespace bigtune::kernels::variants
