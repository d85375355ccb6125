// The composed Barrett's two reduction passes in one wgmma kernel, q kept
// on chip: for each group of 64 instances, the quotient pass
// (imma_barrett_quotient_args: q from t's high words and mu2) writes q's
// words straight into the remainder pass's A in shared memory, and the
// remainder pass (imma_barrett_remainder_args: r = t - q m' and its
// corrections) runs on them at once. The separate kernels write q (w words
// an instance) and read it back, 2 x 4w bytes through HBM an instance: ~17 %
// of the reduction's traffic at 3-4 Kbit (bench/notes/tcbarrett-bound.md,
// "Session 29": the fused kernel worked out).
// Shared memory: A of x and E of mu2 (the quotient pass), E of m' (the
// remainder pass), one W for both, and the rows' top words; the remainder
// pass's A (q's rows) lies over A of x, q's word j on x's word j (x = t's
// words from w - g on, g = 8 guard words). That is safe while the quotient's
// tile t + 1 reads A of x as tile t's words are written: tile t (product
// words [c, c + 32), c = w + 8a + 1 against write_lo = w + g + 1) writes q's
// words up to c + 30 - w - g = 8a + 23, and tile t + 1's x blocks start at
// word 8 floor((c + 32 - (w + 2) + 1/4) / 8) = 8a + 24 (the blocks below
// meet no column of it; its columns take nothing from x's words below
// 8a + 32 either, mu2's top word being 1, so a block of slack is left).
// ~52 / ~64 / ~75 KB at 2 / 3 / 4 Kbit (BarrettFusedShape): three blocks an
// SM (the registers, 168 (ptxas -v), allow three; with A of q apart, ~92 / ~111 KB at
// 3 / 4 Kbit took two). H200, session 31: mulmod 1.064x at 3 Kbit, 1.027x at
// 4 Kbit; the kernel 1.87 -> 1.57 ms and 1.80 -> 1.61 ms (ncu).
// Only for w % 8 == 0 and g = 8 (q's and x's rows whole 32-byte blocks, so
// that every quad of q's words is one slice of A and lies on x's) and where
// both passes' whole shapes fit (barrett_fused_wgmma_fits,
// mul_const_wgmma_instances.cu).
#pragma once
#include <cstdint>

#include "kernels/block/mul_const_wgmma.cuh"

namespace bigtune::kernels::block {

// Shared memory of one block, in bytes from its start: A of x (A of q on
// it from 1024 g / 4 bytes: slice s of q's rows is slice s + g / 4 of x's),
// E of mu2, E of m', W, then q's top words. Two things keep the block within
// a third of the SM's 228 KB at 4 Kbit (76672 of 76800 bytes with the 1 KB
// each block reserves: three blocks an SM, not two):
//  - E of m' starts on E of mu2's last kWgEZeroTail rows: both are zeros
//    (E of mu2 past its constant's end; E of m' before its start, row r
//    holding k[r - kWgOff ..]), so each pass reads the zeros it expects;
//  - r's top words and the warps' votes, which live only in the remainder
//    pass, lie in A of x's first slice (x's top words, which q does not
//    cover and only the quotient pass reads).
// Each E is followed by at least 4 KB of the block's own: compute-sanitizer's
// memcheck takes a wgmma's B to span 4096 bytes from its start (128 x 32
// bytes), past the rows the descriptor's core matrices reach (144 rows of 16
// bytes), and with E of m' last it reported reads out of bounds (H200,
// session 30).
static_assert(kWgOff - 15 >= kWgEZeroTail, "E's leading zero rows (0 .. kWgOff - 16) cover the shared tail");
struct BarrettFusedShape {
  WgmmaShape q, r;
  uint64_t a_q, e_mu, e_m, w, r_top, votes, q_top, total;
  __host__ __device__ static BarrettFusedShape of(const BarrettFusedArgs& a) {
    BarrettFusedShape s{};
    s.q = WgmmaShape::of(a.quotient), s.r = WgmmaShape::of(a.remainder);
    s.a_q = 1024ull * ((a.quotient.x_words - a.remainder.rem_words) / 4);
    s.r_top = 0;
    s.votes = s.r_top + 4ull * kWgInstances;
    s.e_mu = s.q.a_bytes();
    s.e_m = s.e_mu + s.q.e_bytes() - 16ull * kWgEZeroTail;
    s.w = s.e_m + s.r.e_bytes();
    s.q_top = s.w + 8ull * kWgWords;
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
