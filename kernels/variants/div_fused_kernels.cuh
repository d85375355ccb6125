// __global__ kernels of the block division (seed 001, div_shinv.hpp) and the
// fused ops mul_add and poly (seed 000 §6): one block per instance at a time,
// looping over the batch (grid stride, kDivFusedMaxBlocks blocks at most),
// everything built from BlockLimbOps (block_ops.cuh).
#pragma once
#include <cstdint>

#include "kernels/block/block_ops.cuh"
#include "kernels/block/div_fused_layout.hpp"
#include "kernels/block/div_shinv.hpp"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::variants {

// Registers: the tile multiplication is mul_chunk_pair<u64, Q>, 64 registers
// at Q = 4 (mul_kernels.cuh), so 512 threads fit 64 K registers.
template <int Q>
constexpr uint32_t div_fused_max_threads() { return Q <= 4 ? 512 : 256; }

// q = u / v, r = u mod v; flags[i] = 1 for a zero divisor (q = r = 0 then).
// kSmem: the workspace lives in shared memory after the tile, else in this
// block's global scratch.
template <int Q, bool kSmem>
__global__ void __launch_bounds__(div_fused_max_threads<Q>()) divmod_shinv_kernel(KernelArgs args) {
  using Ops = block::BlockLimbOps<Q>;
  __shared__ typename Ops::TempStorage storage;
  uint64_t* smem = dynamic_smem<uint64_t>();
  Ops ops(storage, smem);
  const uint32_t m = args.limbs, n = args.b_limbs;
  uint64_t* ws = kSmem ? smem + block::smem_bytes_padded(block::block_mul_tile_logical(blockDim.x * Q, Q), 8) / 8
                       : static_cast<uint64_t*>(args.scratch) + blockIdx.x * block::div_shinv_workspace_limbs(m, m);
  block::DivShinv<Ops> div(ops, ws, m, n);
  for (uint64_t i = blockIdx.x; i < args.count; i += gridDim.x) {
    const bool zero = div.divmod(static_cast<uint64_t*>(args.r) + i * args.out_limbs, args.out_limbs,
                                 static_cast<uint64_t*>(args.r2) + i * args.r2_limbs, args.r2_limbs,
                                 static_cast<const uint64_t*>(args.a) + i * m,
                                 static_cast<const uint64_t*>(args.b) + i * n);
    if (threadIdx.x == 0 && args.flags) args.flags[i] = zero ? 1u : 0u;
  }
}

// mul_add: r = a*b + c; poly: r = (a*a + b)*(b*b + b) + a*b; both mod 2^bits.
// Intermediates live in shared memory after the tile when fused_in_smem(),
// else in this block's global scratch.
template <int Q, bool kPoly>
__global__ void __launch_bounds__(div_fused_max_threads<Q>()) fused_kernel(KernelArgs args) {
  using Ops = block::BlockLimbOps<Q>;
  using Limb = uint64_t;
  __shared__ typename Ops::TempStorage storage;
  Limb* smem = dynamic_smem<Limb>();
  Ops ops(storage, smem);
  const uint32_t m = args.limbs, out = args.out_limbs;
  Limb* buf = block::fused_in_smem(kPoly, m)
                  ? smem + block::smem_bytes_padded(block::block_mul_tile_logical(blockDim.x * Q, Q), 8) / 8
                  : static_cast<Limb*>(args.scratch) + blockIdx.x * block::fused_buffer_limbs(kPoly, m);
  const uint64_t top_limb = args.bits / 64;
  const Limb top_mask = (Limb(1) << (args.bits % 64)) - 1;
  auto store = [&](Limb* r, uint32_t j, Limb v) {
    if (j >= out) return;
    if (j > top_limb) v = 0;
    if (j == top_limb) v &= top_mask;
    r[j] = v;
  };
  for (uint64_t i = blockIdx.x; i < args.count; i += gridDim.x) {
    const Limb* a = static_cast<const Limb*>(args.a) + i * m;
    const Limb* b = static_cast<const Limb*>(args.b) + i * m;
    Limb* r = static_cast<Limb*>(args.r) + i * out;
    if constexpr (!kPoly) {
      const Limb* c = static_cast<const Limb*>(args.c) + i * args.c_limbs;
      const uint32_t cn = args.c_limbs;
      ops.mul(buf, a, m, b, m);
      const uint32_t n = out;  // past 2m + cn limbs only carries and zeros remain
      ops.template add_sub<false>(
          n, [&](uint32_t j) { return j < 2 * m ? buf[j] : Limb(0); },
          [&](uint32_t j) { return j < cn ? c[j] : Limb(0); }, [&](uint32_t j, Limb v) { store(r, j, v); }, 0);
    } else {
      Limb *t1 = buf, *t2 = t1 + 2 * m + 1, *t3 = t2 + 2 * m + 1, *t4 = t3 + 4 * m + 2;
      ops.mul(t1, a, m, a, m);  // a*a + b
      ops.write(t1, 2 * m, 0);
      ops.template add_sub<false>(
          2 * m + 1, [&](uint32_t j) { return t1[j]; }, [&](uint32_t j) { return j < m ? b[j] : Limb(0); },
          [&](uint32_t j, Limb v) { t1[j] = v; }, 0);
      ops.mul(t2, b, m, b, m);  // b*b + b
      ops.write(t2, 2 * m, 0);
      ops.template add_sub<false>(
          2 * m + 1, [&](uint32_t j) { return t2[j]; }, [&](uint32_t j) { return j < m ? b[j] : Limb(0); },
          [&](uint32_t j, Limb v) { t2[j] = v; }, 0);
      ops.mul(t3, t1, 2 * m + 1, t2, 2 * m + 1);
      ops.mul(t4, a, m, b, m);
      ops.template add_sub<false>(
          out, [&](uint32_t j) { return j < 4 * m + 2 ? t3[j] : Limb(0); },
          [&](uint32_t j) { return j < 2 * m ? t4[j] : Limb(0); }, [&](uint32_t j, Limb v) { store(r, j, v); }, 0);
    }
  }
}

}  // namespace bigtune::kernels::variants
