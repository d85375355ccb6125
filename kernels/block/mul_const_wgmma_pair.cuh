// mul_const_wgmma_kernel's product (the same ImmaArgs, the same results) with
// two warpgroups a block sharing A and E, for the shapes where the one-
// warpgroup block is alone on its SM (above ~12 Kbit: A alone is 96 KB and
// more). There one warpgroup leaves the tensor cores idle while it forms a
// tile's words and stages the next group (session 21: 16 Kbit at 40 % of the
// tensor pipe, 6.9 cycles between a warp's instructions); here warpgroup g
// takes tiles g, g + 2, ..., so one forms words while the other's wgmmas
// run, and eight warps stage A.
//
// The carry between tiles crosses warpgroups. Each thread (row, half) forms
// its 16 words with no carry in and publishes the segment's summary: its
// carry out c, its first word w0, and whether words 1..15 are all ones. A
// carry x into a segment (below 2^26) leaves it as c + [ones and w0 + x >=
// 2^32], so after one block barrier a pair of tiles (four segments a row)
// every thread runs the row's carry through the four summaries in order,
// adds its own segment's carry in (a ripple through its 16 words) and
// stores. The summaries alternate between two buffers, so a warpgroup that
// runs ahead into the next pair does not overwrite what the other still
// reads.
#pragma once
#include <cstdint>

#include "kernels/block/mul_const_wgmma.cuh"

namespace bigtune::kernels::block {

constexpr uint32_t kWgPairThreads = 2 * kWgmmaThreads;

// A segment's summary (16 bytes): see the header.
struct WgSegment {
  unsigned long long carry;
  uint32_t first, ones;
};

// Shared memory of a block: WgmmaShape's A and E, a W for each warpgroup,
// two buffers of segment summaries (2 warpgroups x 64 rows x 2 halves).
struct WgmmaPairShape {
  WgmmaShape one;
  __host__ __device__ static WgmmaPairShape of(const ImmaArgs& a) { return {WgmmaShape::of(a)}; }
  __host__ __device__ uint64_t w_bytes() const { return 8ull * kWgWords; }
  __host__ __device__ uint64_t segment_bytes() const { return 2ull * 2 * kWgInstances * 2 * sizeof(WgSegment); }
  __host__ __device__ uint64_t smem_bytes() const {
    return one.a_bytes() + one.e_bytes() + 2 * w_bytes() + segment_bytes();
  }
};

// out_i gets words [out_lo, out_words) of x_i * k as mul_const_wgmma_kernel
// does. Grid: one wave of resident blocks of 256 threads (two warpgroups),
// each looping over groups of 64 instances; WgmmaPairShape::smem_bytes().
__global__ void __launch_bounds__(kWgPairThreads) mul_const_wgmma_pair_kernel(const ImmaArgs args) {
#if defined(BIGTUNE_WARP_EMULATION) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
  // As mul_const_wgmma_kernel: tiles from up to 3 words below out_lo.
  const uint32_t out_words = args.out_words;
  const uint32_t lead = min((args.out_lo - args.write_lo) % 4, args.out_lo), out_lo = args.out_lo - lead;
  const uint32_t store_lo = max(args.out_lo, args.write_lo);
  const uint64_t count = args.count;
  const WgmmaPairShape ps = WgmmaPairShape::of(args);
  const WgmmaShape& sh = ps.one;
#ifdef BIGTUNE_WARP_EMULATION
  unsigned char* smem = emu::dynamic_shared(ps.smem_bytes());
#else
  extern __shared__ __align__(128) unsigned char wg_pair_smem[];
  unsigned char* smem = wg_pair_smem;
#endif
  unsigned char* a_rows = smem;
  unsigned char* e = smem + sh.a_bytes();
  unsigned long long* w_all = reinterpret_cast<unsigned long long*>(e + sh.e_bytes());
  WgSegment* segments = reinterpret_cast<WgSegment*>(reinterpret_cast<unsigned char*>(w_all) + 2 * ps.w_bytes());
  // wg read from lane 0: ptxas then knows it is the same across the warp (a
  // branch on threadIdx.x / 128 itself counts as divergent, and it
  // serializes the wgmmas inside: its C7520)
  const uint32_t tid = threadIdx.x, wg = __shfl_sync(0xffffffffu, tid / kWgmmaThreads, 0), lane = tid % 32,
                 warp = (tid % kWgmmaThreads) / 32;
  unsigned long long* w_rows = w_all + wg * kWgWords;

  // E, once a block (the constant staged in the first W).
  uint32_t* k_stage = reinterpret_cast<uint32_t*>(w_all);
  for (uint32_t j = tid; j < sh.k_bytes / 4; j += kWgPairThreads)
    k_stage[j] = j < args.k_words ? args.k[j] : (args.add_at && j == args.add_at ? 1u : 0u);
  __syncthreads();
  const unsigned char* kb = reinterpret_cast<const unsigned char*>(k_stage);
  for (uint32_t u = tid; u < 16 * sh.e_rows; u += kWgPairThreads) {
    const int32_t idx = int32_t(u / 16) - int32_t(kWgOff) + int32_t(u % 16);
    e[u] = idx >= 0 && idx < int32_t(sh.k_bytes) ? kb[idx] : 0;
  }
  __syncthreads();
  const uint32_t e_base = shared_address(e), a_base = shared_address(a_rows);
  const uint32_t out_bytes = 4 * out_words, tiles = (out_bytes - 4 * out_lo + kWgmmaN - 1) / kWgmmaN;
  const uint64_t groups = (count + kWgInstances - 1) / kWgInstances;
  const uint32_t r = lane % 16, half = lane / 16, row = 16 * warp + r;
  const uint32_t last_word = args.top ? out_words - 1 : out_words;

  for (uint64_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const uint64_t first = group * kWgInstances, inst = first + row;
    wg_stage_a<kWgPairThreads>(args, sh, a_rows, first, false);  // (the copies not measured here)
    fence_shared_for_tensor_cores();
    __syncthreads();
    if (group + gridDim.x < groups) wg_prefetch_rows<kWgPairThreads>(args, (group + gridDim.x) * kWgInstances);

    int d[kWgmmaAcc] = {};
    // Unconditional, so that d is always defined by a wgmma (with a tile
    // past the output when there is one tile: never stored; a branch here
    // makes ptxas serialize the wgmmas, its C7515).
    wg_issue_tile(d, sh, a_base, e_base, 4 * out_lo + kWgmmaN * wg);
    unsigned long long row_carry = 0;  // into the pair's first tile
    for (uint32_t pair = 0; 2 * pair < tiles; ++pair) {
      const uint32_t t = 2 * pair + wg, c0 = 4 * out_lo + kWgmmaN * t;
      const bool mine = t < tiles;  // the last pair's second tile may not exist
      WgSegment* seg = segments + (pair % 2) * (2 * kWgInstances * 2);
      uint32_t wd[16];
      if (mine) {
        wgmma_wait_all();
        wgmma_pin(d);
        wg_word_sums(d, w_rows);
        __syncwarp();
        if (t + 2 < tiles) wg_issue_tile(d, sh, a_base, e_base, c0 + 2 * kWgmmaN);
        // The segment with no carry in, and its summary.
        const unsigned long long* src = w_rows + wg_w_row(row) + 16 * half;
        unsigned long long sum[16];
#pragma unroll
        for (uint32_t q = 0; q < 16; ++q) sum[q] = src[q];
        unsigned long long c = 0;
        uint32_t ones = 1;
#pragma unroll
        for (uint32_t q = 0; q < 16; ++q) {
          const unsigned long long v = sum[q] + c;
          wd[q] = uint32_t(v);
          c = v >> 32;
          if (q > 0) ones &= wd[q] == 0xffffffffu ? 1u : 0u;
        }
        seg[(wg * kWgInstances + row) * 2 + half] = WgSegment{c, wd[0], ones};
        __syncwarp();  // W free for the next tile's sums
      }
      __syncthreads();  // the pair's summaries
      // The row's carry through the pair's segments in order; this thread's
      // own carry in on the way.
      unsigned long long x = row_carry, mine_in = 0;
#pragma unroll
      for (uint32_t s = 0; s < 4; ++s) {
        const uint32_t sg = s / 2, sh2 = s % 2;
        if (2 * pair + sg < tiles) {
          if (sg == wg && sh2 == half) mine_in = x;
          const WgSegment v = seg[(sg * kWgInstances + row) * 2 + sh2];
          x = v.carry + (v.ones && (unsigned long long)v.first + x >= (1ull << 32) ? 1 : 0);
        }
      }
      row_carry = x;
      if (mine) {
#pragma unroll
        for (uint32_t q = 0; q < 16; ++q) {
          const unsigned long long v = (unsigned long long)wd[q] + mine_in;
          wd[q] = uint32_t(v);
          mine_in = v >> 32;
        }
        const uint32_t wbase = c0 / 4 + 16 * half;
        if (inst < count) wg_store_words(args, inst, wbase, wd, store_lo, last_word);
      }
    }
    wgmma_wait_all();  // (that one tile past the output reads A)
    __syncthreads();   // A, W and the summaries free for the next group
  }
#endif
}

}  // namespace bigtune::kernels::block
