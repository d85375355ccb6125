// __global__ kernel of the chained add/sub family: one instance over several
// blocks (tiles), the carry passed between them by a decoupled look-back
// (kernels/block/chained_scan.cuh), shapes in kernels/block/chained_layout.hpp.
//
// Why: the one-block kernel (scan_kernels.cuh) needs the whole instance in one
// block's shared memory; at 2^20 bits that is a 128 KB tile, one block per SM,
// and its load / scan / store phases cannot overlap with another block's
// (bench/notes/multiplication.md, "Addition at 2^19 – 2^20 bits": 89-93 % of
// the copy bandwidth). Tiles of 2^18 or 2^19 bits (the sizes at which the
// one-block kernel runs at 98-100 % of copy) keep two blocks per SM at any
// instance size.
//
// Within a tile everything is as in add_sub_kernel: cp.async staging, Q limbs
// per thread, the chunk statuses (add_sub.cuh), one BlockCarryScan; only the
// carry into the tile comes from the look-back.
#pragma once
#include <cstdint>

#include "kernels/block/add_sub.cuh"
#include "kernels/block/chained_layout.hpp"
#include "kernels/block/chained_scan.cuh"
#include "kernels/block/staging.cuh"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::variants {

// args.threads_per_instance = blockDim.x = the tile's threads T; the grid has
// one block per tile of every instance. args.ipb is ignored.
template <class Limb, int Q, bool kSub>
__global__ void __launch_bounds__(1024) chained_add_sub_kernel(KernelArgs args) {
  __shared__ block::BlockCarryScan::TempStorage scan_storage;
  __shared__ uint32_t s_ticket, s_tile_carry;
  Limb* smem = dynamic_smem<Limb>();
  const uint32_t m = args.limbs, tid = threadIdx.x, threads = blockDim.x;
  const uint32_t tile_limbs = block::chained_tile_limbs(threads, Q);
  const uint32_t tiles = block::chained_tiles(m, tile_limbs);
  uint32_t* words = static_cast<uint32_t*>(args.scratch);

  // Which tile: in ticket order when tiles wait for each other, else by block.
  uint32_t id = blockIdx.x;
  if (tiles > 1) {
    if (tid == 0) s_ticket = atomicAdd(&words[0], 1u);
    __syncthreads();
    id = s_ticket;
  }
  const uint64_t inst = id / tiles;
  const uint32_t tile = id - uint32_t(inst) * tiles;
  const uint32_t start = tile * tile_limbs, len = min(tile_limbs, m - start);
  const uint32_t b_off = args.stage_buffers == 2 ? block::chained_buffer_limbs(m, tile_limbs) : 0;
  const Limb* a_tile = static_cast<const Limb*>(args.a) + inst * m + start;
  const Limb* b_tile = static_cast<const Limb*>(args.b) + inst * m + start;

  // Staging as stage_operands (scan_kernels.cuh): a to registers, b's tile
  // left in shared memory at b_off.
  block::copy_tile_async(smem, 0, a_tile, len);
  if (b_off != 0) block::copy_tile_async(smem, b_off, b_tile, len);
  block::wait_tiles();
  __syncthreads();
  Limb a[Q];
  block::smem_to_blocked<Limb, Q>(a, smem, 0, tid * Q, len);
  if (b_off == 0) {
    __syncthreads();
    block::copy_tile_async(smem, 0, b_tile, len);
    block::wait_tiles();
    __syncthreads();
  }

  const uint32_t first = tid * Q;
  auto b_at = [&](int k) {
    const uint32_t j = first + k;
    return j < len ? smem[block::smem_physical<Limb>(b_off + j)] : Limb(0);
  };
  const uint32_t status = block::chunk_status<Limb, Q, kSub>(a, b_at);
  uint32_t inclusive;
  const uint32_t exclusive = block::BlockCarryScan(scan_storage).scan(status, inclusive);

  // The last thread holds the tile's aggregate: publish it, find the carry in,
  // publish the inclusive carry. Zero-padded limbs past the instance's end sit
  // only in its last tile, whose status no later tile reads.
  if (tid == threads - 1) {
    uint32_t carry = 0;
    if (tiles > 1) {
      uint32_t* status_words = words + 1;
      if (tile == 0) {
        block::tile_publish(&status_words[id], block::kTileInclusive, inclusive & block::kCarryGenerate);
      } else {
        block::tile_publish(&status_words[id], block::kTileAggregate, inclusive);
        carry = block::tile_look_back(status_words, id);
        const uint32_t out = (inclusive | ((inclusive >> 1) & carry)) & block::kCarryGenerate;
        block::tile_publish(&status_words[id], block::kTileInclusive, out);
      }
    }
    s_tile_carry = carry;
  }
  __syncthreads();
  const uint32_t tile_carry = s_tile_carry;
  const Limb carry_in = Limb((exclusive | ((exclusive >> 1) & tile_carry)) & block::kCarryGenerate);

  // Result limbs and the carry flag, with limb indices of the whole instance (start + j).
  block::AddSubResult<Limb, kSub> result(args.bits);
  auto emit = [&](int k, Limb r) {
    const uint32_t j = first + k;
    r = result.limb(uint64_t(start) + j, r);
    if (j < len) smem[block::smem_physical<Limb>(b_off + j)] = r;
  };
  const Limb carry_out = block::chunk_finish<Limb, Q, kSub>(a, b_at, carry_in, emit);
  result.last_carry(tile == tiles - 1 && tid == threads - 1, uint64_t(tiles) * tile_limbs, carry_out);
  if (result.flag >= 0 && args.flags) args.flags[inst] = uint32_t(result.flag);
  __syncthreads();
  block::store_tile(static_cast<Limb*>(args.r) + inst * m + start, smem, b_off, len);
}


}  // namespace bigtune::kernels::variants
