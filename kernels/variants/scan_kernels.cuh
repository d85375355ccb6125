// __global__ kernels of the scan family (add, sub, cmp, shl, shr): index math,
// staging, one block routine, staging back. Thin by design (STYLE.md).
#pragma once
#include <cstdint>
#include "kernels/block/add_sub.cuh"
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
  __device__ TileIndex(const KernelArgs& args) {
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

// Stages a's and b's tiles through shared memory into blocked registers.
template <class Limb, int Q>
__device__ __forceinline__ void load_two_blocked(Limb (&a)[Q], Limb (&b)[Q], const KernelArgs& args,
                                                 const TileIndex& t, Limb* smem) {
  const uint32_t m = args.limbs, tile_len = t.here * m;
  Limb sa[Q], sb[Q];
  block::load_striped<Limb, Q>(sa, static_cast<const Limb*>(args.a) + t.first * m, tile_len);
  block::load_striped<Limb, Q>(sb, static_cast<const Limb*>(args.b) + t.first * m, tile_len);
  const uint32_t base = t.instance * m, mine = t.active ? m : 0;
  block::striped_to_smem<Limb, Q>(smem, sa, tile_len);
  __syncthreads();
  block::smem_to_blocked<Limb, Q>(a, smem, base, t.local * Q, mine);
  __syncthreads();
  block::striped_to_smem<Limb, Q>(smem, sb, tile_len);
  __syncthreads();
  block::smem_to_blocked<Limb, Q>(b, smem, base, t.local * Q, mine);
  __syncthreads();
}

// Writes blocked registers r (out_limbs per instance) to the result tile.
template <class Limb, int Q>
__device__ __forceinline__ void store_blocked(const Limb (&r)[Q], const KernelArgs& args, const TileIndex& t,
                                              Limb* smem) {
  const uint32_t m = args.out_limbs, tile_len = t.here * m;
  block::blocked_to_smem<Limb, Q>(smem, r, t.instance * m, t.local * Q, t.active ? m : 0);
  __syncthreads();
  Limb sr[Q];
  block::smem_to_striped<Limb, Q>(sr, smem, tile_len);
  block::store_striped<Limb, Q>(static_cast<Limb*>(args.r) + t.first * m, sr, tile_len);
}

template <class Limb, int Q, bool kSub>
__global__ void __launch_bounds__(1024) add_sub_kernel(KernelArgs args) {
  using BlockOp = block::BlockAddSub<Limb, Q, kSub>;
  __shared__ typename BlockOp::TempStorage scan_storage;
  constexpr int L = arith::LimbTraits<Limb>::kBits;
  Limb* smem = dynamic_smem<Limb>();
  const TileIndex t(args);
  Limb a[Q], b[Q], r[Q];
  load_two_blocked<Limb, Q>(a, b, args, t, smem);
  const Limb chunk_carry = BlockOp(scan_storage).run(r, a, b, t.local == 0);
  // The carry out of a + b is bit `bits` of the sum; a borrow is the borrow
  // out of the whole (zero-padded) subtraction.
  const uint32_t first = t.local * Q;
  const uint64_t carry_limb = args.bits / L;
  const bool last = t.local == args.threads_per_instance - 1;
  int flag = -1;
  if constexpr (kSub) {
    if (last) flag = int(chunk_carry);
  } else {
    if (carry_limb >= uint64_t(args.threads_per_instance) * Q) {
      if (last) flag = int(chunk_carry);
    } else if (carry_limb >= first && carry_limb < first + Q) {
#pragma unroll
      for (int k = 0; k < Q; ++k)
        if (first + k == carry_limb) flag = int((r[k] >> (args.bits % L)) & 1);
    }
  }
  if (flag >= 0 && t.active && args.flags) args.flags[t.first + t.instance] = uint32_t(flag);
  block::chunk_mask_to_bits<Limb, Q>(r, first, args.bits);
  store_blocked<Limb, Q>(r, args, t, smem);
}

template <class Limb, int Q>
__global__ void __launch_bounds__(1024) cmp_kernel(KernelArgs args) {
  Limb* smem = dynamic_smem<Limb>();
  const TileIndex t(args);
  Limb a[Q], b[Q];
  load_two_blocked<Limb, Q>(a, b, args, t, smem);
  uint32_t* keys = reinterpret_cast<uint32_t*>(smem);  // the tile is dead: reuse it
  if (threadIdx.x < t.here) keys[threadIdx.x] = 0;
  __syncthreads();
  const int c = block::chunk_cmp<Limb, Q>(a, b);
  if (t.active && c != 0) atomicMax(&keys[t.instance], block::cmp_key(t.local, c));
  __syncthreads();
  if (t.active && t.local == 0)
    args.flags[t.first + t.instance] = uint32_t(block::cmp_from_key(keys[t.instance]));
}

template <class Limb, int Q, bool kLeft>
__global__ void __launch_bounds__(1024) shift_kernel(KernelArgs args) {
  Limb* smem = dynamic_smem<Limb>();
  const TileIndex t(args);
  const uint32_t m = args.limbs, tile_len = t.here * m;
  Limb s[Q];
  block::load_striped<Limb, Q>(s, static_cast<const Limb*>(args.a) + t.first * m, tile_len);
  block::striped_to_smem<Limb, Q>(smem, s, tile_len);
  __syncthreads();
  Limb r[Q];
  block::chunk_shift<Limb, Q, kLeft>(r, smem, t.instance * m, t.local * Q, t.active ? m : 0, args.shift);
  block::chunk_mask_to_bits<Limb, Q>(r, t.local * Q, args.bits);
  __syncthreads();
  store_blocked<Limb, Q>(r, args, t, smem);
}

}  // namespace bigtune::kernels::variants
