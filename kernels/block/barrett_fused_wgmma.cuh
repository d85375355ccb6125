// The composed Barrett's two reduction passes in one wgmma kernel, q kept
// on chip: for each group of 64 instances, the quotient pass
// (imma_barrett_quotient_args: q from t's high words and mu2) writes q's
// words straight into the remainder pass's A in shared memory, and the
// remainder pass (imma_barrett_remainder_args: r = t - q m' and its
// corrections) runs on them at once. The separate kernels write q (w words
// an instance) and read it back, 2 x 4w bytes through HBM an instance: ~17 %
// of the reduction's traffic at 3-4 Kbit (bench/notes/tcbarrett-bound.md,
// "Session 29": the fused kernel worked out).
// Shared memory: A of x and E of mu2 (the quotient pass), A of q and E of m'
// (the remainder pass), one W for both, and the rows' top words: ~70 KB at
// 2 Kbit (three blocks an SM), ~91 / ~111 KB at 3 / 4 Kbit (two). A of q
// lies apart from A of x here: the quotient's tile t + 1 reads A of x while
// tile t's words are written to A of q (bench/pending/barrett-fused-q-over-x.patch
// puts q's word j on x's word j, which the tiles' order leaves free, for
// three blocks an SM at 3 Kbit; not yet run on a GPU).
// Only for w % 8 == 0 (q's rows whole 32-byte blocks, so that every quad of
// q's words is one slice of A) and where both passes' whole shapes fit
// (barrett_fused_wgmma_fits, mul_const_wgmma_instances.cu).
#pragma once
#include <cstdint>

#include "kernels/block/mul_const_wgmma.cuh"

namespace bigtune::kernels::block {

// Shared memory of one block, in bytes from its start: A of x, E of mu2,
// A of q, E of m', W, then the rows' words. Each E is followed by at least
// 4 KB of the block's own: compute-sanitizer's memcheck takes a wgmma's B
// to span 4096 bytes from its start (128 x 32 bytes), past the rows the
// descriptor's core matrices reach (144 rows of 16 bytes), and with E of m'
// last it reported reads out of bounds (H200, session 30).
struct BarrettFusedShape {
  WgmmaShape q, r;
  uint64_t e_mu, w, a_q, e_m, r_top, votes, q_top, total;
  __host__ __device__ static BarrettFusedShape of(const BarrettFusedArgs& a) {
    BarrettFusedShape s{};
    s.q = WgmmaShape::of(a.quotient), s.r = WgmmaShape::of(a.remainder);
    s.e_mu = s.q.a_bytes();
    s.a_q = (s.e_mu + s.q.e_bytes() + 127) / 128 * 128;
    s.e_m = s.a_q + s.r.a_bytes();
    s.w = s.e_m + s.r.e_bytes();
    s.r_top = s.w + 8ull * kWgWords;
    s.votes = s.r_top + 4ull * kWgInstances;
    s.q_top = s.votes + 4ull * kWgmmaThreads / 32;
    s.total = s.q_top + 4ull * kWgInstances;
    return s;
  }
};

// Grid: one wave of resident blocks of 128 threads, each looping over
// groups of 64 instances; BarrettFusedShape::total bytes of dynamic shared
// memory.
__global__ void __launch_bounds__(kWgmmaThreads) barrett_fused_wgmma_kernel(const BarrettFusedArgs args) {
#if defined(BIGTUNE_WARP_EMULATION) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
  const BarrettFusedShape sh = BarrettFusedShape::of(args);
#ifdef BIGTUNE_WARP_EMULATION
  unsigned char* smem = emu::dynamic_shared(sh.total);
#else
  extern __shared__ __align__(128) unsigned char wg_smem[];
  unsigned char* smem = wg_smem;
#endif
  auto* w_rows = reinterpret_cast<unsigned long long*>(smem + sh.w);
  auto* r_top = reinterpret_cast<uint32_t*>(smem + sh.r_top);
  auto* votes = reinterpret_cast<uint32_t*>(smem + sh.votes);
  const WgPass quotient = wg_pass_setup<false>(args.quotient, smem, smem + sh.e_mu, w_rows);
  const WgPass remainder = wg_pass_setup<true>(args.remainder, smem + sh.a_q, smem + sh.e_m, w_rows);
  WgOnChipQ on_chip;
  on_chip.a_q = smem + sh.a_q, on_chip.q_top = reinterpret_cast<uint32_t*>(smem + sh.q_top);
  on_chip.q_pad = sh.r.x_pad;
  const uint64_t count = args.quotient.count, groups = (count + kWgInstances - 1) / kWgInstances;
  const bool copy_async = groups > gridDim.x;  // (as mul_const_wgmma_body)
  for (uint64_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const uint64_t first = group * kWgInstances;
    const uint64_t next = group + gridDim.x < groups ? (group + gridDim.x) * kWgInstances : 0;
    wg_pass_group<false, false, true>(quotient, w_rows, r_top, votes, first, next, copy_async, on_chip);
    // q's words, stored by the threads' generic stores, are the tensor
    // cores' A next: each thread fences its own before the remainder pass's
    // barrier.
    fence_shared_for_tensor_cores();
    wg_pass_group<true, false, true>(remainder, w_rows, r_top, votes, first, 0, copy_async, on_chip);
  }
#endif
}

}  // namespace bigtune::kernels::block
