// __global__ kernels of the scan family (add, sub, cmp, shl, shr): index math,
// staging, one block routine, staging back. Thin by design (STYLE.md).
#pragma once
#include <cstdint>
#include "kernels/block/add_sub.cuh"
#include "kernels/block/add_sub_result.cuh"
#include "kernels/block/cmp_shift.cuh"
#include "kernels/block/staging.cuh"
#include "kernels/variants/kernel_args.hpp"

namespace bigtune::kernels::variants {

// Where this block's instances lie and which one this thread works on.
struct TileIndex {
  uint64_t first;      // first instance of the block
  uint32_t here;       // instances in this block (the last block may have fewer)
  uint32_t instance;   // this thread's instance within the block
  uint32_t local;      // this thread's rank within its instance
  bool active;
  __device__ explicit TileIndex(const KernelArgs& args) {
    first = uint64_t(blockIdx.x) * args.ipb;
    here = uint32_t(min(uint64_t(args.ipb), args.count - first));
    instance = threadIdx.x / args.threads_per_instance;
    local = threadIdx.x - instance * args.threads_per_instance;
    active = instance < here;
  }
};

template <class Limb>
__device__ __forceinline__ Limb* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char bigtune_smem[];
  return reinterpret_cast<Limb*>(bigtune_smem);
}

// Logical shared offset of the second operand's tile: its own buffer when the
// geometry has two, else the first buffer, reused after a is in registers.
__device__ __forceinline__ uint32_t second_tile_offset(const KernelArgs& args) {
  return args.stage_buffers == 2 ? args.ipb * args.limbs : 0;
}

// Loads this thread's Q limbs of a into registers and leaves b's tile in
// shared memory at second_tile_offset(), ready for all threads to read.
template <class Limb, int Q>
__device__ __forceinline__ void stage_operands(Limb (&a)[Q], const KernelArgs& args, const TileIndex& t,
                                               Limb* smem) {
  const uint32_t m = args.limbs, tile_len = t.here * m, b_off = second_tile_offset(args);
  const Limb* a_tile = static_cast<const Limb*>(args.a) + t.first * m;
  const Limb* b_tile = static_cast<const Limb*>(args.b) + t.first * m;
  block::copy_tile_async(smem, 0, a_tile, tile_len);
  if (b_off != 0) block::copy_tile_async(smem, b_off, b_tile, tile_len);
  block::wait_tiles();
  __syncthreads();
  block::smem_to_blocked<Limb, Q>(a, smem, t.instance * m, t.local * Q, t.active ? m : 0);
  if (b_off == 0) {
    __syncthreads();
    block::copy_tile_async(smem, 0, b_tile, tile_len);
    block::wait_tiles();
    __syncthreads();
  }
}

template <class Limb, int Q, bool kSub>
__global__ void __launch_bounds__(1024) add_sub_kernel(KernelArgs args) {
  using BlockOp = block::BlockAddSub<Limb, Q, kSub>;
  __shared__ typename BlockOp::TempStorage scan_storage;
  Limb* smem = dynamic_smem<Limb>();
  const TileIndex t(args);
  Limb a[Q];
  stage_operands<Limb, Q>(a, args, t, smem);

  const uint32_t m = args.limbs, first = t.local * Q, mine = t.active ? m : 0;
  const uint32_t base = second_tile_offset(args) + t.instance * m;
  block::AddSubResult<Limb, kSub> result(args.bits);
  auto b_at = [&](int k) {
    const uint32_t j = first + k;
    return j < mine ? smem[block::smem_physical<Limb>(base + j)] : Limb(0);
  };
  auto emit = [&](int k, Limb r) {
    const uint32_t j = first + k;
    r = result.limb(j, r);
    if (j < mine) smem[block::smem_physical<Limb>(base + j)] = r;
  };
  const Limb chunk_carry = BlockOp(scan_storage).run(a, b_at, t.local == 0, emit);
  result.last_carry(t.local == args.threads_per_instance - 1, uint64_t(args.threads_per_instance) * Q, chunk_carry);
  if (result.flag >= 0 && t.active && args.flags) args.flags[t.first + t.instance] = uint32_t(result.flag);
  __syncthreads();
  block::store_tile(static_cast<Limb*>(args.r) + t.first * m, smem, second_tile_offset(args), t.here * m);
}

template <class Limb, int Q>
__global__ void __launch_bounds__(1024) cmp_kernel(KernelArgs args) {
  Limb* smem = dynamic_smem<Limb>();
  const TileIndex t(args);
  Limb a[Q], b[Q];
  stage_operands<Limb, Q>(a, args, t, smem);
  const uint32_t m = args.limbs;
  block::smem_to_blocked<Limb, Q>(b, smem, second_tile_offset(args) + t.instance * m, t.local * Q,
                                  t.active ? m : 0);
  const int c = block::chunk_cmp<Limb, Q>(a, b);
  __syncthreads();
  uint32_t* keys = reinterpret_cast<uint32_t*>(smem);  // the tiles are dead: reuse them
  if (threadIdx.x < t.here) keys[threadIdx.x] = 0;
  __syncthreads();
  if (t.active && c != 0) atomicMax(&keys[t.instance], block::cmp_key(t.local, c));
  __syncthreads();
  if (t.active && t.local == 0)
    args.flags[t.first + t.instance] = uint32_t(block::cmp_from_key(keys[t.instance]));
}

template <class Limb, int Q, bool kLeft>
__global__ void __launch_bounds__(1024) shift_kernel(KernelArgs args) {
  Limb* smem = dynamic_smem<Limb>();
  const TileIndex t(args);
  const uint32_t m = args.limbs, tile_len = t.here * m, mine = t.active ? m : 0;
  block::copy_tile_async(smem, 0, static_cast<const Limb*>(args.a) + t.first * m, tile_len);
  block::wait_tiles();
  __syncthreads();
  Limb r[Q];
  block::chunk_shift<Limb, Q, kLeft>(r, smem, t.instance * m, t.local * Q, mine, args.shift);
  block::chunk_mask_to_bits<Limb, Q>(r, t.local * Q, args.bits);
  __syncthreads();
  block::blocked_to_smem<Limb, Q>(smem, r, t.instance * m, t.local * Q, mine);
  __syncthreads();
  block::store_tile(static_cast<Limb*>(args.r) + t.first * m, smem, 0, tile_len);
}

}  // namespace bigtune::kernels::variants
