// bigtune device API: big-integer building blocks for your own __global__
// kernel, one CUDA block per integer operation (the block-level family of
// seeds 000/001). Include this from a .cu file; it is header-only.
//
//   using Env = bigtune::device::BlockInt<>;            // Q = 4 limbs per thread
//   __global__ void k(...) {
//     __shared__ Env::TempStorage storage;
//     extern __shared__ unsigned char smem[];           // Env::tile_bytes(blockDim.x)
//     Env env(storage, smem);
//     env.load(x, a_in + i * n, n);                     // operands: plain limb arrays,
//     env.mul(p, x, n, y, n);                           // in shared or global memory
//     env.add(p, p, z, 2 * n);
//     env.store(out + i * 2 * n, p, 2 * n);
//   }
//
// Numbers are little-endian arrays of 64-bit limbs (bigtune's batch layout:
// instance i of a batch of n-limb integers starts at limb i*n). Every call is
// collective: all threads of the block call it with the same arguments, and
// it returns after a __syncthreads(), its result visible to every thread.
// Outputs may equal an input exactly for add/sub/load/store (same index), never
// overlap it otherwise; mul's output must not overlap its inputs.
// Requirements: blockDim.x a multiple of 32, at most 512 (Q = 4); dynamic
// shared memory of tile_bytes(blockDim.x) for mul's tile.
// Costs: add/sub/cmp n/T + log T steps; mul about an*bn/T limb products per
// thread (classical, tiles of 4T limbs).
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/block/block_ops.cuh"

namespace bigtune::device {

template <int Q = 4>
class BlockInt {
  using Ops = kernels::block::BlockLimbOps<Q>;

 public:
  using Limb = uint64_t;
  using TempStorage = typename Ops::TempStorage;

  // Dynamic shared memory mul() needs for a block of `threads` threads.
  __host__ __device__ static constexpr size_t tile_bytes(uint32_t threads) {
    return size_t(kernels::block::smem_bytes_padded(kernels::block::block_mul_tile_logical(threads * Q, Q), 8));
  }

  __device__ BlockInt(TempStorage& storage, void* tile_smem)
      : ops_(storage, static_cast<Limb*>(tile_smem)) {}

  // dst[0, n) = src[0, n): global -> shared (or anywhere) and back.
  __device__ void load(Limb* dst, const Limb* src, uint32_t n) { ops_.copy_shift(dst, n, src, n, 0); }
  __device__ void store(Limb* dst, const Limb* src, uint32_t n) { ops_.copy_shift(dst, n, src, n, 0); }
  __device__ void set_zero(Limb* r, uint32_t n) { ops_.zero(r, n); }

  // r = a + b over n limbs; returns the carry out.
  __device__ Limb add(Limb* r, const Limb* a, const Limb* b, uint32_t n) { return ops_.add_n(r, a, b, n); }
  // r = a − b over n limbs; returns the borrow out.
  __device__ Limb sub(Limb* r, const Limb* a, const Limb* b, uint32_t n) { return ops_.sub_n(r, a, b, n); }
  // r = a + x (one limb) over n limbs; returns the carry out.
  __device__ Limb add_1(Limb* r, const Limb* a, uint32_t n, Limb x) { return ops_.add_1(r, a, n, x); }
  // −1, 0, 1 as a <, =, > b (zero-extended to the longer).
  __device__ int cmp(const Limb* a, uint32_t an, const Limb* b, uint32_t bn) { return ops_.cmp(a, an, b, bn); }
  // r[0, an + bn) = a * b, the full product.
  __device__ void mul(Limb* r, const Limb* a, uint32_t an, const Limb* b, uint32_t bn) { ops_.mul(r, a, an, b, bn); }

 private:
  Ops ops_;
};

}  // namespace bigtune::device
