// Products by one constant shared by the batch on the integer tensor cores
// (issue 9, "mulmod with a shared modulus within 1.5x of the product"):
// r_i = x_i * k for every instance i, or words [out_lo, out_words) of it.
// Words from out_lo on drop the columns below them (their sum is below
// 2^(32 out_lo + 30)): word out_lo is then less than 2^30 low, the words
// above it at most one (tests/unit/mul_const_imma_emulation_test.cpp).
//
// Why: with a shared modulus the composed Barrett's two reduction products
// (q1 * mu_lo and q * m', kernels/modular/barrett.hpp) multiply every
// instance by the same number. Written in bytes, x * k is a Toeplitz matrix
// of k's bytes times the column of x's bytes, so a batch of them is one
// matrix product: C[i][c] = sum_j x_i[j] k[c - j], the column sums of the
// schoolbook product (seed 002's multiplication chapter). The H100's u8 MMA
// (mma.sync m16n8k32, s32 accumulators) runs 4096 byte products an
// instruction; a column sum of at most 16384 byte pairs stays below 2^31, so
// k may have up to 16384 bytes (the launcher checks).
//
// Roles in one mma (M = 16 instances, N = 8 output columns, K = 32 bytes of
// x): A = x's bytes (row major, one row an instance), B = the Toeplitz block
// B[j][c] = k[c - j] (column major: a column's 4 consecutive j are 4
// consecutive bytes of k read backwards). A byte-reversed copy of k makes
// them forward bytes; their offset modulo 4 depends only on the lane's
// column (c mod 4), so four copies shifted by 0..3 bytes give every lane one
// aligned 32-bit shared load a register. Zero margins stand for k's bytes
// outside [0, k_bytes).
//
// One block: 8 warps, 16 instances at a time (blocks stay resident, one
// wave, and loop over groups of 16: k's copies are built once a block).
// The output columns go in chunks of 512
// (8 col blocks of 8 a warp); a warp loops over the 32-byte blocks of x that
// meet its columns (the band of the Toeplitz matrix), one A fragment a
// block reused by its 8 col blocks. Then the chunk's column sums go to
// shared memory and 16 threads an instance turn them into 32-bit words:
// each thread sums its 32 columns into 8 words (a carry below 2^26 left),
// the carries move one thread up, and the 0/1 carries that can still ripple
// are resolved by one ballot (generate / propagate, as an addition of the
// two masks). The chunk's top carry is added to the next chunk's first
// column sum (two carry slots an instance, alternating by chunk, so that
// the thread that writes one never shares it with the one that reads).
//
// The composed Barrett's quotient (ImmaArgs' extras) runs in the same pass:
// x's rows staged as words [n, 2n) of t << s (q1), q1's row added to the
// product's words in the words pass, so the pass stores q = P_hi + q1 and
// its top bit (barrett.hpp; launch_barrett_imma_quotient).
#pragma once
#include <cstdint>

#include "kernels/block/mul_const_args.hpp"

namespace bigtune::kernels::block {

constexpr uint32_t kImmaWarps = 8;
constexpr uint32_t kImmaThreads = 32 * kImmaWarps;
constexpr uint32_t kImmaInstances = 16;              // the mma's M
constexpr uint32_t kImmaColBlocks = 8;               // col blocks of 8 a warp a chunk
constexpr uint32_t kImmaChunk = kImmaWarps * kImmaColBlocks * 8;  // 512 output bytes a chunk
constexpr uint32_t kImmaSumStride = kImmaChunk + kImmaChunk / 32;  // skewed rows, = 16 mod 32 words
constexpr uint32_t kImmaMargin = 96;                 // zero bytes each side of k's reversed copy

// Shared memory of one block for x_words-word operands and a k_words-word
// constant (words of 32 bits): the four shifted copies of k reversed, x of
// 16 instances (rows of row_words, = 4 mod 32 for conflict-free A loads),
// the chunk's column sums and the carries between chunks.
struct ImmaShape {
  uint32_t k_bytes, copy_bytes, row_words, x_blocks, pivot;
  __host__ __device__ static ImmaShape of(uint32_t x_words, uint32_t k_words) {
    ImmaShape s{};
    s.k_bytes = 4 * k_words;
    s.pivot = s.k_bytes + kImmaMargin;  // byte u of copy o is k[pivot - u - o]
    // = 32 mod 128 bytes: the four copies start 8 banks apart.
    s.copy_bytes = (s.pivot + kImmaMargin + 8 + 127) / 128 * 128 + 32;
    s.x_blocks = (4 * x_words + 31) / 32;
    s.row_words = (8 * s.x_blocks + 31) / 32 * 32 + 4;
    return s;
  }
  __host__ __device__ uint64_t smem_bytes() const {
    return 4ull * copy_bytes + 4ull * kImmaInstances * row_words + 4ull * kImmaInstances * kImmaSumStride +
           16ull * kImmaInstances;
  }
};

// rows[r stride + i] = word off + i of instance first + r's operand (src:
// `words` words an instance, src_stride apart; zero outside [0, words) and
// for instances past count, and for i >= valid), r < 16, i < len. Every thread keeps its 16
// rows' loads in flight at once: the loads, not their latency, set the time
// (one load at a time left the block waiting on each).
__device__ inline void imma_stage_rows(uint32_t* rows, uint32_t stride, const uint32_t* src, uint32_t src_stride,
                                       uint32_t words, uint64_t first, uint64_t count, int64_t off, uint32_t len,
                                       uint32_t valid) {
  for (uint32_t i0 = 0; i0 < len; i0 += kImmaThreads) {
    const uint32_t i = i0 + threadIdx.x;
    const int64_t k = off + int64_t(i);
    const bool in = i < valid && k >= 0 && k < int64_t(words);
    uint32_t v[kImmaInstances];
#pragma unroll
    for (uint32_t r = 0; r < kImmaInstances; ++r)
      v[r] = in && first + r < count ? src[(first + r) * src_stride + uint64_t(k)] : 0;
    if (i < len) {
#pragma unroll
      for (uint32_t r = 0; r < kImmaInstances; ++r) rows[r * stride + i] = v[r];
    }
  }
}

// As imma_stage_rows for words off + i of src << (32 ws + bs) (the
// Barrett q1 of t << s): two source words a row word.
__device__ inline void imma_stage_shifted(uint32_t* rows, uint32_t stride, const uint32_t* src, uint32_t src_stride,
                                          uint32_t words, uint64_t first, uint64_t count, int64_t off, uint32_t len,
                                          uint32_t valid, uint32_t ws, uint32_t bs) {
  for (uint32_t i0 = 0; i0 < len; i0 += kImmaThreads) {
    const uint32_t i = i0 + threadIdx.x;
    const int64_t k = off + int64_t(i) - int64_t(ws);
    const bool hi_in = i < valid && k >= 0 && k < int64_t(words);
    const bool lo_in = i < valid && k >= 1 && k - 1 < int64_t(words);
    uint32_t v[kImmaInstances];
#pragma unroll
    for (uint32_t r = 0; r < kImmaInstances; ++r) {
      const uint32_t* row = src + (first + r) * src_stride;
      const bool live = first + r < count;
      const uint32_t hi = live && hi_in ? row[k] : 0, lo = live && lo_in ? row[k - 1] : 0;
      v[r] = bs ? (hi << bs) | (lo >> (32 - bs)) : hi;
    }
    if (i < len) {
#pragma unroll
      for (uint32_t r = 0; r < kImmaInstances; ++r) rows[r * stride + i] = v[r];
    }
  }
}

__device__ __forceinline__ void imma_u8(int (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
#ifdef BIGTUNE_WARP_EMULATION
  emu::mma_m16n8k32_u8(c, a, b0, b1);  // the CPU tests' warp (tests/support/warp_emulation.hpp)
#else
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// out_i (out_stride words) gets words [out_lo, out_words) of x_i * k (and
// ImmaArgs' extras), exact for out_lo = 0, else from the columns at and
// above word out_lo alone (less than 2^30 low at word out_lo, at most one
// above it: the high half of a Barrett quotient). Grid: one wave of resident
// blocks of 256 threads (each loops over groups of 16 instances),
// ImmaShape::smem_bytes() of dynamic shared memory.
__global__ void __launch_bounds__(kImmaThreads) mul_const_imma_kernel(const ImmaArgs args) {
  const uint32_t x_words = args.x_words, k_words = args.k_words, out_lo = args.out_lo, out_words = args.out_words;
  const uint32_t* k = args.k;
  const uint64_t count = args.count;
  const ImmaShape sh = ImmaShape::of(x_words, k_words);
#ifdef BIGTUNE_WARP_EMULATION
  unsigned char* imma_smem = emu::dynamic_shared(sh.smem_bytes());
#else
  extern __shared__ __align__(16) unsigned char imma_smem[];
#endif
  unsigned char* copies = imma_smem;
  uint32_t* xs = reinterpret_cast<uint32_t*>(imma_smem + 4 * sh.copy_bytes);
  uint32_t* sums = xs + kImmaInstances * sh.row_words;
  unsigned long long* carry = reinterpret_cast<unsigned long long*>(sums + kImmaInstances * kImmaSumStride);
  const uint32_t tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t4 = lane % 4;

  // k's words to shared memory (through the sums buffer, free until the
  // products), then k reversed, four copies shifted by 0..3 bytes: once a
  // block, which then takes groups of 16 instances in turn (the copies'
  // cost, like the block's start, amortized over its groups).
  for (uint32_t j = tid; j < k_words; j += kImmaThreads) sums[j] = k[j];
  __syncthreads();
  const unsigned char* kb = reinterpret_cast<const unsigned char*>(sums);
  for (uint32_t u = tid; u < 4 * sh.copy_bytes; u += kImmaThreads) {
    const int32_t idx = int32_t(sh.pivot) - int32_t(u % sh.copy_bytes) - int32_t(u / sh.copy_bytes);
    copies[u] = idx >= 0 && idx < int32_t(sh.k_bytes) ? kb[idx] : 0;
  }

  // This lane's copy of k and the word of it for col block 0, x block 0.
  const uint32_t o = (sh.pivot - g) & 3;
  const uint32_t* kl = reinterpret_cast<const uint32_t*>(copies + o * sh.copy_bytes);
  const int32_t kbase = int32_t(sh.pivot - g - o) / 4 + int32_t(t4);
  const uint32_t* xa = xs + g * sh.row_words + t4;
  const uint32_t* xb = xa + 8 * sh.row_words;
  const uint32_t out_bytes = 4 * out_words;
  const uint64_t groups = (count + kImmaInstances - 1) / kImmaInstances;

  for (uint64_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const uint64_t first = group * kImmaInstances;
    // x's rows, with 16 loads in flight a thread (the previous group's last
    // chunk ended at a barrier: xs and sums are free).
    if (args.shift) {
      const uint32_t sbits = args.shift[0];
      imma_stage_shifted(xs, sh.row_words, args.x, args.x_stride, args.x_src_words, first, count, args.x_lo,
                         sh.row_words, x_words, sbits / 32, sbits % 32);
    } else {
      imma_stage_rows(xs, sh.row_words, args.x, args.x_stride, args.x_src_words, first, count, args.x_lo,
                      sh.row_words, x_words);
    }
    if (tid < kImmaInstances) carry[tid] = 0;  // slot 0: into chunk 0
    __syncthreads();

    for (uint32_t c0 = 4 * out_lo, slot = 0; c0 < out_bytes; c0 += kImmaChunk, slot ^= kImmaInstances) {
      // Columns [cmin, cmin + 64) of this warp; the x blocks that meet them.
      const uint32_t cmin = c0 + 64 * warp, cmax = cmin + 63;
      const uint32_t kb_lo = cmin >= sh.k_bytes ? (cmin - sh.k_bytes + 1) / 32 : 0;
      // A warp whose columns all lie past the output sums nothing (its
      // column sums stay zero): the chunk that holds the product's last
      // words would otherwise run the full band for columns it drops (the
      // composed Barrett's q m' keeps n + 1 of 2n words: at 8 Kbit its last
      // chunk holds 8 columns and cost as much as a full one).
      const uint32_t kb_hi = cmin >= out_bytes ? kb_lo : min(sh.x_blocks, cmax / 32 + 1);
      int acc[kImmaColBlocks][4];
#pragma unroll
      for (uint32_t j = 0; j < kImmaColBlocks; ++j) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0;
      // B's words of x block b: col block j takes kl[kw - 2j] and
      // kl[kw - 2j + 4] (its rows 16 further), ten distinct words win[i] =
      // kl[kw + 4 - 2i]; x block b + 1 (kw + 8) shifts them by four, so a
      // block loads four new ones (and A's four) for its eight mma, not 20.
      int32_t kw = kbase + int32_t(8 * kb_lo) - int32_t(cmin / 4);
      uint32_t win[kImmaColBlocks + 2];
      if (kb_lo < kb_hi) {
#pragma unroll
        for (uint32_t i = 0; i < kImmaColBlocks + 2; ++i) win[i] = kl[kw + 4 - 2 * int32_t(i)];
      }
      for (uint32_t b = kb_lo; b < kb_hi; ++b, kw += 8) {
        const uint32_t a[4] = {xa[8 * b], xb[8 * b], xa[8 * b + 4], xb[8 * b + 4]};
        // The next block's four new words, loaded before this block's mma.
        uint32_t next[4] = {0, 0, 0, 0};
        if (b + 1 < kb_hi) {
#pragma unroll
          for (uint32_t i = 0; i < 4; ++i) next[i] = kl[kw + 12 - 2 * int32_t(i)];
        }
#pragma unroll
        for (uint32_t j = 0; j < kImmaColBlocks; ++j) imma_u8(acc[j], a, win[j + 2], win[j]);
#pragma unroll
        for (uint32_t i = 0; i + 4 < kImmaColBlocks + 2; ++i) win[kImmaColBlocks + 1 - i] = win[kImmaColBlocks - 3 - i];
#pragma unroll
        for (uint32_t i = 0; i < 4; ++i) win[i] = next[i];
      }
      // Column sums: instance g (and g + 8), columns 2 t4 and 2 t4 + 1 of each
      // col block; rows skewed by one word every 32 columns.
#pragma unroll
      for (uint32_t j = 0; j < kImmaColBlocks; ++j) {
        const uint32_t col = 64 * warp + 8 * j + 2 * t4, at = col + col / 32;
        sums[g * kImmaSumStride + at] = uint32_t(acc[j][0]);
        sums[g * kImmaSumStride + at + 1] = uint32_t(acc[j][1]);
        sums[(g + 8) * kImmaSumStride + at] = uint32_t(acc[j][2]);
        sums[(g + 8) * kImmaSumStride + at + 1] = uint32_t(acc[j][3]);
      }
      __syncthreads();

      // Words: thread u of instance row (16 a row, two rows a warp) takes
      // columns [32 u, 32 u + 32) of the chunk = 8 words.
      {
        const uint32_t row = tid / 16, u = tid % 16, half = (lane / 16) * 16;
        const uint32_t* srow = sums + row * kImmaSumStride + 32 * u + u;
        uint32_t w[8];
        unsigned long long c = u == 0 ? carry[slot + row] : 0;
        const uint32_t wbase = c0 / 4 + 8 * u;
#pragma unroll
        for (uint32_t q = 0; q < 8; ++q) {
          // q = P_hi + q1: x's row word (wbase + q - add_at) joins the sum.
          const uint32_t xj = wbase + q - args.add_at;
          const uint32_t addend = args.add_at && wbase + q >= args.add_at && xj < x_words ? xs[row * sh.row_words + xj] : 0;
          const unsigned long long v = (unsigned long long)srow[4 * q] + ((unsigned long long)srow[4 * q + 1] << 8) +
                                       ((unsigned long long)srow[4 * q + 2] << 16) +
                                       ((unsigned long long)srow[4 * q + 3] << 24) + addend + c;
          w[q] = uint32_t(v);
          c = v >> 32;
        }
        // The carry out of thread u goes into thread u + 1's words.
        unsigned long long cin = __shfl_up_sync(0xffffffffu, c, 1, 16);
        if (u == 0) cin = 0;
        bool all_ones = true;
#pragma unroll
        for (uint32_t q = 0; q < 8; ++q) {
          const unsigned long long v = (unsigned long long)w[q] + cin;
          w[q] = uint32_t(v);
          cin = v >> 32;
          all_ones = all_ones && w[q] == 0xffffffffu;
        }
        // 0/1 carries across the row's 16 threads: generate (this thread's
        // words overflowed) and propagate (they are all ones) masks, carries =
        // (G + (G | P)) ^ P, the carries of adding the two masks.
        const uint32_t gen = __ballot_sync(0xffffffffu, cin != 0) >> half & 0xffffu;
        const uint32_t prop = __ballot_sync(0xffffffffu, all_ones) >> half & 0xffffu;
        const uint32_t carries = (gen + (gen | prop)) ^ prop;
        uint32_t in = (carries >> u) & 1;
#pragma unroll
        for (uint32_t q = 0; q < 8; ++q) {
          const uint32_t v = w[q] + in;
          in = in && v == 0;
          w[q] = v;
        }
        if (u == 15) carry[(slot ^ kImmaInstances) + row] = c + ((carries >> 16) & 1);
        const uint64_t inst = first + row;
        if (inst < count) {
          uint32_t* dst = args.out + inst * args.out_stride;
#pragma unroll
          for (uint32_t q = 0; q < 8; ++q) {
            const uint32_t at = wbase + q;
            if (args.top && at + 1 == out_words)
              args.top[inst] = w[q];
            else if (at >= args.write_lo && at < out_words)
              dst[at - args.write_lo] = w[q];
          }
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace bigtune::kernels::block
