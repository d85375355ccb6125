// The product by one constant shared by the batch (mul_const_imma.cuh: the
// same ImmaArgs, the same results) on Hopper's warpgroup MMA: wgmma
// m64n128k32 .u8 with both operands in shared memory, the band of each
// 128-column tile issued back to back. sm_90a only (kernels/block/wgmma_u8.cuh).
// bench/notes/tcbarrett-bound.md ("wgmma, worked out on paper") has the
// layout argument, the wgmma probe (tests/gpu/wgmma_probe_test.cu) checked
// it on the H200:
//  - B, the Toeplitz band of k: with A's bytes reversed in each 32-byte block
//    (K' = 31 - j), B[K'][c] = k[c - 31 - 32 b + K'] depends on c + K' alone,
//    so one expanded array E[r 16 + i] = k[r - kWgOff + i] (16 bytes a row)
//    holds every tile: tile (b, c0) starts at row c0 - 32 b - 31 + kWgOff,
//    core matrices 256 bytes apart along K (LBO) and 128 along N (SBO).
//  - A, 64 instances' x: each row byte-reversed (xr[u] = x[X - 1 - u], X the
//    row padded to 32 bytes), stored as 16-byte slices of the 64 rows
//    (slice u / 16 of row i at 1024 (u / 16) + 16 i): x block b is xr's
//    bytes [X - 32 - 32 b, X - 32 b), LBO 1024, SBO 128.
// A block is one warpgroup (128 threads) and takes groups of 64 instances in
// turn (resident blocks, one wave): E once a block, A once a group (16-byte
// loads, four in flight a thread; the next group's rows asked of L2 while
// this group's tiles run). The tiles are pipelined: as soon as tile t's
// column sums are out of the accumulators, tile t + 1's wgmmas are issued,
// and tile t's words are formed while the tensor cores run. A warp forms
// the words of its own 16 rows, so a tile needs no block barrier:
//  1. each thread takes its two adjacent column sums of one row and, by a
//     shuffle, its neighbour's two of the same row: one 4-column word sum
//     (below 2^57, four multiply-adds) into the warp's slice of W (shared
//     memory);
//  2. thread (row, half) reads 16 word sums of its row, carries through them,
//     takes the first half's carry by a shuffle, keeps the tile's top carry
//     for the next tile, and stores (16-byte stores where aligned).
// ImmaArgs' q1 (add_at) comes with the product: wgmma_const_words.
// Smem at 8 Kbit ~103 KB (two blocks an SM), at 16 Kbit ~183 KB (one); 128
// registers. H200, session 21: each product of an 8 Kbit mulmod 1.24-1.34 ms
// for 524288 instances (the mma.sync kernel: 2.58 / 2.93 ms), tensor pipe
// 34-44 % active; bench/notes/tcbarrett-bound.md has the steps.
#pragma once
#include <cstdint>

#include "kernels/block/borrow_chains.cuh"
#include "kernels/block/mul_const_args.hpp"
#include "kernels/block/wgmma_u8.cuh"

namespace bigtune::kernels::block {

constexpr uint32_t kWgInstances = 64;                  // wgmma's M
constexpr uint32_t kWgOff = 160;                       // E's row r holds k[r - 160 ..]
constexpr uint32_t kWgEZeroTail = 144;                 // E's zero rows past k's end (WgmmaShape::e_rows)
static_assert(kWgOff >= 144 + 15, "a tile of E's first rows reads zeros (wg_issue_tile)");
constexpr uint32_t kWgTileWords = kWgmmaN / 4;         // 32 words a tile row
// W's row, in 64-bit sums: 34 keeps the rows 16-byte aligned, so that step
// 2 reads its 16 sums by eight conflict-free LDS.128 (33 took 16 LDS.64 and
// the same bank conflicts, ncu, session 27).
constexpr uint32_t kWgRowStride = kWgTileWords + 2;
constexpr uint32_t kWgMaxConstBytes = kImmaMaxConstBytes;  // column sums below 2^31
// Rows 8-15 of each warp's 16 sit kWgSkew sums (64 bytes, half the banks)
// further on, so that step 1's 64-bit stores, which put rows g and g + 8 in
// one half-warp, meet 16 distinct bank pairs (with the plain stride rows g
// and g + 8 share theirs: 2-way conflicts on every store); step 2's LDS.128
// take rows 0-7 and 8-15 in separate quarter-warps, conflict-free either way.
// H200, session 28, 2 Kbit mulmod (ncu): shared bank conflicts 16.6 M -> 3.9 M
// in the quotient kernel and 14.2 M -> 1.7 M in the remainder kernel.
// Each warp's 16 rows take kWgWarpWords sums, the skew included, so that a
// warp's rows 8-15 end before the next warp's rows begin (session 28: with
// the skew inside the plain 16 x 34 sums, row 15 ran 6 sums into the next
// warp's row 0; racecheck found it on the H200, the host emulation did not).
constexpr uint32_t kWgSkew = 8;
constexpr uint32_t kWgWarpWords = 16 * kWgRowStride + kWgSkew;
constexpr uint32_t kWgWords = kWgInstances / 16 * kWgWarpWords;  // W, in 64-bit sums
// Row r's first sum in W.
__host__ __device__ constexpr uint32_t wg_w_row(uint32_t r) {
  return r / 16 * kWgWarpWords + r % 16 * kWgRowStride + (r % 16 >= 8 ? kWgSkew : 0);
}
static_assert(wg_w_row(7) + kWgTileWords <= wg_w_row(8) && wg_w_row(15) + kWgTileWords <= wg_w_row(16),
              "W's rows do not overlap");
static_assert(wg_w_row(kWgInstances - 1) + kWgTileWords <= kWgWords, "W holds its rows");
static_assert(kWgWarpWords * 8 % 16 == 0, "rows stay 16-byte aligned for step 2's LDS.128");
constexpr uint32_t kWgMaxStagedWords = 2 * kWgWords;  // W holds the constant while E is built
static_assert(4 * kWgMaxStagedWords >= kImmaMaxConstBytes + 4, "W stages the constant");

// Shared memory of one block: A (64 rows of X bytes), E, W (the word sums
// of a tile).
struct WgmmaShape {
  uint32_t x_pad, k_bytes, e_rows;
  __host__ __device__ static WgmmaShape of(uint32_t x_words, uint32_t k_words) {
    WgmmaShape s{};
    s.x_pad = (4 * x_words + 31) / 32 * 32;
    s.k_bytes = 4 * k_words;
    // Tiles that meet the band start at rows >= 2 and read 144 rows on
    // (16 N rows of 8, one more K slice): k_bytes + kWgOff + kWgEZeroTail rows.
    s.e_rows = s.k_bytes + kWgOff + kWgEZeroTail;
    return s;
  }
  __host__ __device__ static WgmmaShape of(const ImmaArgs& a);
  __host__ __device__ uint64_t a_bytes() const { return uint64_t(kWgInstances) * x_pad; }
  __host__ __device__ uint64_t e_bytes() const { return 16ull * e_rows; }
  __host__ __device__ uint64_t smem_bytes() const {
    return a_bytes() + e_bytes() + 8ull * kWgWords;
  }
};

// The constant the kernel multiplies by (imma_const_words): k, and for the
// composed Barrett's quotient k + 2^(32 add_at) (q = P_hi + q1: mu with its
// top word, 1), so that the words pass adds nothing. Its column sums stay
// below 2^31: the one more nonzero byte (1) adds at most 255 to a column.
__host__ __device__ inline uint32_t wgmma_const_words(const ImmaArgs& a) { return imma_const_words(a); }
__host__ __device__ inline WgmmaShape WgmmaShape::of(const ImmaArgs& a) { return of(a.x_words, wgmma_const_words(a)); }

// The byte offset in A of xr's 4 bytes [u0, u0 + 4) of row i (u0 % 4 = 0).
__device__ inline uint32_t wg_a_offset(uint32_t i, uint32_t u0) { return 1024 * (u0 / 16) + 16 * i + u0 % 16; }

#if defined(BIGTUNE_WARP_EMULATION) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
// The device pieces of the kernel (the instructions exist only in sm_90a's
// device pass).
// Four words to a 16-byte aligned address: one store (the compiler, left
// to itself, splits the uint4 store of the aligned branch into words).
__device__ inline void wg_store4(uint32_t* p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
#ifdef BIGTUNE_WARP_EMULATION
  p[0] = a, p[1] = b, p[2] = c, p[3] = d;
#else
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
#endif
}

// 16 bytes from global to shared memory without registers (cp.async; both
// 16-byte aligned), complete for this thread at wg_copies_wait().
__device__ inline void wg_copy16_async(void* smem, const void* gmem) {
#ifdef BIGTUNE_WARP_EMULATION
  *static_cast<uint4*>(smem) = *static_cast<const uint4*>(gmem);
#else
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(smem)), "l"(gmem) : "memory");
#endif
}
__device__ inline void wg_copies_wait() {
#ifndef BIGTUNE_WARP_EMULATION
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

// Words m0 .. m0 + 3 of a row of the group (words [x_lo + m] of x_i << s),
// zero past the row, the source or the batch: the general case.
__device__ inline uint4 wg_x_words(const ImmaArgs& args, const uint32_t* row, uint32_t m0, int64_t k0, uint32_t bs) {
  uint32_t w[5];  // source words k0 - 1 .. k0 + 3
#pragma unroll
  for (uint32_t j = 0; j < 5; ++j) {
    const int64_t k = k0 - 1 + j;
    w[j] = row != nullptr && k >= 0 && k < int64_t(args.x_src_words) ? row[k] : 0;
  }
  uint32_t out[4];
#pragma unroll
  for (uint32_t j = 0; j < 4; ++j) out[j] = m0 + j < args.x_words ? __funnelshift_l(w[j], w[j + 1], bs) : 0;
  return make_uint4(out[0], out[1], out[2], out[3]);
}

// Slice s of A's row i: x's words m0 + 3 .. m0 byte-reversed.
__device__ inline void wg_store_slice(unsigned char* a_rows, uint32_t s, uint32_t i, const uint4& x) {
  *reinterpret_cast<uint4*>(a_rows + 1024 * s + 16 * i) = make_uint4(
      __byte_perm(x.w, 0, 0x0123), __byte_perm(x.z, 0, 0x0123), __byte_perm(x.y, 0, 0x0123), __byte_perm(x.x, 0, 0x0123));
}

// A for the group from instance `first` on: slice s of row i (xr's bytes
// [16 s, 16 s + 16) = x's words m0 + 3 .. m0 reversed, m0 = X / 4 - 4 - 4 s)
// is one 16-byte store; consecutive threads take consecutive rows (thread t
// row t % 64, slices t / 64, + 2, ...). With copy_async, where the row is
// 16-byte aligned and unshifted, its inside slices (all but the top ones,
// for most shapes) are copied by cp.async in x's word order, all of a
// thread's at once, and the thread then reverses its own slices in place:
// one wait on L2 for the whole row instead of one per four slices (the
// remainder kernel's warps waited on these loads for a sixth of their stall
// samples at 8 Kbit, ncu, session 26; the copies alone: mulmod 1.022x at
// 8 Kbit, but powm, one group a block, 0.986x). Otherwise they are loaded
// four at a time into registers.
template <uint32_t Threads = kWgmmaThreads>
__device__ inline void wg_stage_a(const ImmaArgs& args, const WgmmaShape& sh, unsigned char* a_rows, uint64_t first,
                                  bool copy_async) {
  constexpr uint32_t kStep = Threads / kWgInstances, kBatch = 4;
  const uint32_t sbits = args.shift ? args.shift[0] : 0, ws = sbits / 32, bs = sbits % 32;
  // Register loads (one group a block, the pair kernel): thread t takes row
  // t / kStep and its slices t % kStep, + kStep, ..., so that the kStep
  // threads of a row are adjacent lanes and one load instruction reads whole
  // 32-byte sectors of a row (session 27: powm 1.010-1.017x, mulmod at 12-16
  // Kbit 1.006-1.020x). The copies keep thread t on row t % 64, slices
  // t / 64, + kStep, ...: taken row by row they ran 0.98-0.99x at 2-8 Kbit.
  const uint32_t i = copy_async ? threadIdx.x % kWgInstances : (threadIdx.x / kStep) % kWgInstances;
  const uint32_t slices = sh.x_pad / 16;
  const uint32_t* row = first + i < args.count ? args.x + (first + i) * args.x_stride : nullptr;
  // Slice s is inside when its words and their sources (one below for a bit
  // shift) exist: m0 + 3 < x_words, k0 >= (bs ? 1 : 0), k0 + 3 < x_src_words.
  const int64_t k_of_m = int64_t(args.x_lo) - ws;  // k0 = m0 + k_of_m
  const auto source = [&](uint32_t s) { return row + (sh.x_pad / 4 - 4 - 4 * s) + k_of_m; };  // x's word m0
  auto inside = [&](uint32_t s) {
    const uint32_t m0 = sh.x_pad / 4 - 4 - 4 * s;
    const int64_t k0 = m0 + k_of_m;
    return row != nullptr && m0 + 3 < args.x_words && k0 >= (bs ? 1 : 0) && k0 + 3 < int64_t(args.x_src_words);
  };
  const auto one = [&](uint32_t s) {  // slice s word by word (the general case)
    const uint32_t m0 = sh.x_pad / 4 - 4 - 4 * s;
    wg_store_slice(a_rows, s, i, wg_x_words(args, row, m0, int64_t(m0) + k_of_m, bs));
  };
  const bool vec = row != nullptr && bs == 0 && ((reinterpret_cast<uintptr_t>(row + k_of_m) & 15) == 0);
  const bool copy = vec && copy_async;
  uint32_t s = copy_async ? threadIdx.x / kWgInstances : threadIdx.x % kStep;
  // Slices grow toward x's low words; the inside ones form one run, after
  // the top ones that reach into the row's padding to 32 bytes (m0 + 3 >=
  // x_words: the composed Barrett's quotient where w + g is not a multiple of 8).
  for (; s < slices && sh.x_pad / 4 - 4 * s > args.x_words; s += kStep) one(s);
  if (copy) {
    const uint32_t run = s;
    for (; s < slices && inside(s); s += kStep) wg_copy16_async(a_rows + 1024 * s + 16 * i, source(s));
    const uint32_t run_end = s;
    for (; s < slices; s += kStep) one(s);  // (below the row's start: zeros, while the copies fly)
    wg_copies_wait();
    for (uint32_t u = run; u < run_end; u += kStep)
      wg_store_slice(a_rows, u, i, *reinterpret_cast<const uint4*>(a_rows + 1024 * u + 16 * i));
    return;
  }
  for (; s + kStep * (kBatch - 1) < slices && inside(s) && inside(s + kStep * (kBatch - 1)); s += kStep * kBatch) {
    uint4 x[kBatch];
    if (vec) {
#pragma unroll
      for (uint32_t u = 0; u < kBatch; ++u) x[u] = *reinterpret_cast<const uint4*>(source(s + kStep * u));
    } else {
      uint32_t lo[kBatch];
#pragma unroll
      for (uint32_t u = 0; u < kBatch; ++u) {
        const uint32_t* p = source(s + kStep * u);
        lo[u] = bs ? p[-1] : 0;
        x[u] = make_uint4(p[0], p[1], p[2], p[3]);
      }
#pragma unroll
      for (uint32_t u = 0; u < kBatch; ++u)
        x[u] = make_uint4(__funnelshift_l(lo[u], x[u].x, bs), __funnelshift_l(x[u].x, x[u].y, bs),
                          __funnelshift_l(x[u].y, x[u].z, bs), __funnelshift_l(x[u].z, x[u].w, bs));
    }
#pragma unroll
    for (uint32_t u = 0; u < kBatch; ++u) wg_store_slice(a_rows, s + kStep * u, i, x[u]);
  }
  for (; s < slices; s += kStep) one(s);
}

// Asks L2 for the rows of the group from instance `first` on (the next
// group's A, fetched while this group's tiles run).
template <uint32_t Threads = kWgmmaThreads>
__device__ inline void wg_prefetch_rows(const ImmaArgs& args, uint64_t first) {
  const uint32_t i = threadIdx.x % kWgInstances;
  if (first + i >= args.count) return;
  const uint32_t sbits = args.shift ? args.shift[0] : 0;
  const int64_t lo = int64_t(args.x_lo) - sbits / 32 - 1;
  const int64_t from = lo < 0 ? 0 : lo, to = min(int64_t(args.x_src_words), int64_t(args.x_lo) + args.x_words);
  const uint32_t* row = args.x + (first + i) * args.x_stride;
  for (int64_t k = from + 32 * (threadIdx.x / kWgInstances); k < to; k += 32 * (Threads / kWgInstances)) {
#ifndef BIGTUNE_WARP_EMULATION
    asm volatile("prefetch.global.L2 [%0];" ::"l"(row + k));
#endif
  }
}

// Issues the wgmmas of the tile of columns [c0, c0 + 128): the x blocks that
// meet them, d = their sum (zero when none does). Committed, not waited for.
__device__ inline void wg_issue_tile(int (&d)[kWgmmaAcc], const WgmmaShape& sh, uint32_t a_base, uint32_t e_base,
                                     uint32_t c0) {
  const uint32_t x_blocks = sh.x_pad / 32;
  const uint32_t kb_lo = c0 >= sh.k_bytes ? (c0 - sh.k_bytes + 1) / 32 : 0;
  const uint32_t kb_hi = min(x_blocks, (c0 + kWgmmaN - 1) / 32 + 1);
  wgmma_pin(d);
  wgmma_fence();
  // No x block meets these columns (past the product's end): d = A times
  // E's first 144 rows, which are zero (row r holds k[r - kWgOff ..]).
  if (kb_lo >= kb_hi) wgmma_m64n128k32_u8_ss(d, wgmma_descriptor(a_base, 1024, 128), wgmma_descriptor(e_base, 256, 128), 0);
  // x block b + 1 starts 2048 bytes below block b in A, its B tile 512
  // below in E: the descriptors' start fields (16-byte units) step down.
  uint64_t da = wgmma_descriptor(a_base + 1024 * ((sh.x_pad - 32 - 32 * kb_lo) / 16), 1024, 128);
  uint64_t db = wgmma_descriptor(e_base + 16 * (c0 - 32 * kb_lo - 31 + kWgOff), 256, 128);
  for (uint32_t b = kb_lo; b < kb_hi; ++b, da -= 2048 / 16, db -= 512 / 16) wgmma_m64n128k32_u8_ss(d, da, db, b != kb_lo);
  wgmma_commit();
}

// Step 1: the tile's column sums (this thread's accumulators) as 64-bit
// sums of 4-column words of one row each, into W. Thread (g, t) holds
// columns 8 j + 2 t, + 1 of rows g and g + 8 (of the warp's 16); it keeps
// row g + 8 (t & 1) and swaps the other row's two sums with thread t ^ 1,
// so the pair (t & ~1, t | 1) makes word 2 j + t / 2 of both rows: four
// multiply-adds a word (the even thread's columns weigh 1 and 2^8, the odd
// one's 2^16 and 2^24).
__device__ inline void wg_word_sums(const int (&d)[kWgmmaAcc], unsigned long long* w_rows) {
  // (the warp's index in its warpgroup: blocks of two warpgroups, each its own W)
  const uint32_t w = (threadIdx.x % kWgmmaThreads) / 32, g = (threadIdx.x % 32) / 4, tq = threadIdx.x % 4, odd = tq & 1;
  unsigned long long* dst = w_rows + wg_w_row(16 * w + g + 8 * odd) + tq / 2;
  const uint32_t mine_weight = odd ? 1u << 16 : 1u, their_weight = odd ? 1u : 1u << 16;
#pragma unroll
  for (uint32_t j = 0; j < kWgmmaAcc / 4; ++j) {
    // (selects, not d[4 j + 2 odd]: an index the compiler cannot resolve
    // puts d in local memory)
    const uint32_t r00 = uint32_t(d[4 * j]), r01 = uint32_t(d[4 * j + 1]);
    const uint32_t r10 = uint32_t(d[4 * j + 2]), r11 = uint32_t(d[4 * j + 3]);
    const uint32_t m0 = odd ? r10 : r00, m1 = odd ? r11 : r01, s0 = odd ? r00 : r10, s1 = odd ? r01 : r11;
    const uint32_t t0 = __shfl_xor_sync(0xffffffffu, s0, 1), t1 = __shfl_xor_sync(0xffffffffu, s1, 1);
    dst[2 * j] = (unsigned long long)m0 * mine_weight + (unsigned long long)m1 * (mine_weight << 8) +
                 (unsigned long long)t0 * their_weight + (unsigned long long)t1 * (their_weight << 8);
  }
}

// One quad of instance inst's output row, words [at0, at0 + 4) to dst (the
// row's word at0): one 16-byte store where the quad lies in [store_lo,
// last_word) and dst is aligned (`aligned`: the row's start is, and at0 is a
// multiple of 4 from it), else word by word within [store_lo, out_words),
// the top word to args.top where the caller keeps it apart (last_word =
// out_words - 1 then; top_bits added where it is 0), words below store_lo to
// args.low where set. The one store rule of both wgmma product kernels
// (wg_store_words, wg_store_tile).
__device__ inline void wg_store_quad(const ImmaArgs& args, uint64_t inst, uint32_t at0, uint32_t* dst, bool aligned,
                                     uint32_t v0, uint32_t v1, uint32_t v2, uint32_t v3, uint32_t store_lo,
                                     uint32_t last_word, uint32_t top_bits) {
  if (aligned && at0 >= store_lo && at0 + 4 <= last_word) {
    wg_store4(dst, v0, v1, v2, v3);
    return;
  }
  const uint32_t v[4] = {v0, v1, v2, v3};
#pragma unroll
  for (uint32_t u = 0; u < 4; ++u) {
    const uint32_t at = at0 + u;
    if (args.top && at + 1 == args.out_words)
      args.top[inst] = v[u] | (v[u] == 0 ? top_bits : 0u);
    else if (at >= store_lo && at < args.out_words)
      dst[u] = v[u];
    else if (args.low && at >= args.low_lo && at < store_lo)
      args.low[inst * args.low_stride + (at - args.low_lo)] = v[u];
  }
}

// A thread's 16 words of instance inst from word wbase on, a quad at a time
// (wg_store_quad).
__device__ inline void wg_store_words(const ImmaArgs& args, uint64_t inst, uint32_t wbase, const uint32_t (&wd)[16],
                                      uint32_t store_lo, uint32_t last_word) {
  uint32_t* dst = args.out + inst * args.out_stride + (int64_t(wbase) - int64_t(args.write_lo));
  const bool aligned = (reinterpret_cast<uintptr_t>(dst) & 15) == 0;
#pragma unroll
  for (uint32_t q = 0; q < 16; q += 4)
    wg_store_quad(args, inst, wbase + q, dst + q, aligned, wd[q], wd[q + 1], wd[q + 2], wd[q + 3], store_lo, last_word,
                  0u);
}

// The 32 words [c0w, c0w + 32) of a tile row, 16 a thread (half 0 the
// lower), rearranged between the row's two threads (8 shuffles) so that
// quad[4 j .. 4 j + 3] is words 8 j + 4 half .. 8 j + 4 half + 3 of the
// tile row: the pair's j-th 16-byte stores then fill sector j whole in one
// instruction. A thread's own four stores would leave every sector half
// written by each of two instructions: at 2 Kbit the quotient kernel stored
// 3.5x q's sectors and L2 took 1.4x more writes than that (ncu, session 27).
// Every lane of the warp calls it.
__device__ inline void wg_pair_quads(uint32_t half, const uint32_t (&wd)[16], uint32_t (&quad)[16]) {
  // Half 0 gives its words 4-7 and 12-15, half 1 its 0-3 and 8-11 (the
  // row's 16-19 and 24-27).
  uint32_t v[8];
#pragma unroll
  for (uint32_t k = 0; k < 8; ++k) {
    const uint32_t at = (k / 4) * 8 + k % 4;  // 0-3, 8-11
    v[k] = __shfl_xor_sync(0xffffffffu, half ? wd[at] : wd[at + 4], 16);
  }
#pragma unroll
  for (uint32_t k = 0; k < 4; ++k) {
    // Sectors 0 and 1 (words 0-15): half 0 its own, half 1 what it got;
    // sectors 2 and 3 (words 16-31): half 0 what it got, half 1 its own.
    quad[k] = half ? v[k] : wd[k];
    quad[4 + k] = half ? v[4 + k] : wd[8 + k];
    quad[8 + k] = half ? wd[4 + k] : v[k];
    quad[12 + k] = half ? wd[12 + k] : v[4 + k];
  }
}

// The tile row to row_dst (word c0w of the row) where both threads of the
// row pass `whole` (the same for both: one row, one tile), by whole
// sectors (wg_pair_quads). Returns whether it stored; every lane of the warp
// calls it.
__device__ inline bool wg_store_tile_row(uint32_t* row_dst, bool whole, uint32_t half, const uint32_t (&wd)[16]) {
  uint32_t quad[16];
  wg_pair_quads(half, wd, quad);
  if (!whole) return false;
#pragma unroll
  for (uint32_t j = 0; j < 4; ++j)
    wg_store4(row_dst + 8 * j + 4 * half, quad[4 * j], quad[4 * j + 1], quad[4 * j + 2], quad[4 * j + 3]);
  return true;
}

// The product pass's tile row c0w of instance inst, any tile: by whole
// sectors (wg_pair_quads) where the row's quads lie in [store_lo,
// last_word) and 16-byte aligned, the rest as wg_store_quad says. The first
// and last tiles of a row hold words outside the stored range: the composed
// Barrett's quotient at 2 Kbit stored their 17 words a row one by one, 32
// rows' sectors an instruction, and wrote 3x q's sectors in all. With these
// stores (ncu, H200, session 28): 50.6 M -> 17.0 M store sectors, the kernel
// 1.25 -> 0.98 ms. Every lane of the warp calls it.
__device__ inline void wg_store_tile(const ImmaArgs& args, uint64_t inst, uint32_t c0w, uint32_t half,
                                     const uint32_t (&wd)[16], uint32_t store_lo, uint32_t last_word,
                                     uint32_t top_bits) {
  uint32_t quad[16];
  wg_pair_quads(half, wd, quad);
  if (inst >= args.count) return;
  uint32_t* row_dst = args.out + inst * args.out_stride + (int64_t(c0w) - int64_t(args.write_lo));
  const bool aligned = (reinterpret_cast<uintptr_t>(row_dst) & 15) == 0;
#pragma unroll
  for (uint32_t j = 0; j < 4; ++j)
    wg_store_quad(args, inst, c0w + 8 * j + 4 * half, row_dst + 8 * j + 4 * half, aligned, quad[4 * j],
                  quad[4 * j + 1], quad[4 * j + 2], quad[4 * j + 3], store_lo, last_word, top_bits);
}

// add_to_out: the 16 words [wbase, wbase + 16) that instance inst's out
// row holds where wg_store_tile would store them (top[inst] for the top word
// where the caller keeps it apart, args.low below store_lo), zero elsewhere
// and outside [args.held_lo, args.held_end).
__device__ inline void wg_load_out16(const ImmaArgs& args, uint64_t inst, uint32_t wbase, uint32_t store_lo,
                                     uint32_t last_word, uint32_t (&ex)[16]) {
  const bool live = inst < args.count;
  const uint32_t* row = live ? args.out + inst * args.out_stride + (int64_t(wbase) - int64_t(args.write_lo)) : nullptr;
  if (live && wbase >= max(store_lo, args.held_lo) && wbase + 16 <= min(last_word, args.held_end) &&
      (reinterpret_cast<uintptr_t>(row) & 15) == 0) {
#pragma unroll
    for (uint32_t q = 0; q < 16; q += 4) {
      const uint4 v = *reinterpret_cast<const uint4*>(row + q);
      ex[q] = v.x, ex[q + 1] = v.y, ex[q + 2] = v.z, ex[q + 3] = v.w;
    }
    return;
  }
  const uint32_t* low = live && args.low ? args.low + inst * args.low_stride : nullptr;
#pragma unroll
  for (uint32_t q = 0; q < 16; ++q) {
    const uint32_t at = wbase + q;
    ex[q] = !live || at >= args.held_end || at < args.held_lo ? 0u
            : args.top && at + 1 == args.out_words ? args.top[inst]
            : at >= store_lo && at < args.out_words ? row[q]
            : low && at >= args.low_lo && at < store_lo ? low[at - args.low_lo]
                                                    : 0u;
  }
}

// x += y + c (c in {0, 1}); returns the carry out.
__device__ inline uint32_t wg_add16(uint32_t (&x)[16], const uint32_t (&y)[16], uint32_t c) {
#pragma unroll
  for (uint32_t q = 0; q < 16; ++q) {
    const uint64_t v = uint64_t(x[q]) + y[q] + c;
    x[q] = uint32_t(v);
    c = uint32_t(v >> 32);
  }
  return c;
}

// ---- The composed Barrett's finish in its q m' pass (barrett_rem_wgmma_kernel) ----
// The rows form of the finish (kernels/modular/barrett_kernels.cuh) reads t
// and q m' back from memory, writes r and r - m' and reads one of them again:
// ~6 words of traffic a word, 0.93 ms of a 7.4 ms mulmod at 8 Kbit (H200).
// Here r = t - q m' is formed where q m''s words are (step 2 of a tile: t's
// words read once), and the corrections run on the group's rows while they
// are in L2: bench/notes/tcbarrett-bound.md ("Session 23"). H200, session 23:
// mulmod 1.10x / 1.07x / 1.07x / 1.01x at 2 / 3 / 4 / 8 Kbit (sqrmod alike),
// powm with a shared modulus 1.05x / 1.04x at 4 / 8 Kbit; at 8 Kbit this
// kernel took 2.09 ms (2.17 before the carry-flag chains, session 24)
// against the product's 1.25 ms and the finish's 0.93 (ncu): there its
// extra work costs about what the finish did. It is latency-bound (two warps
// a scheduler, a third of the waits on global loads): with t and the
// corrections' words loaded ahead (session 25) it takes 1.93 ms. The
// corrections were a quarter of its stall samples; since the quotient has
// guard words (kernels/modular/barrett.hpp, session 26) r < m' but for
// ~2^-30 of the rows, the decision reads r's top words and nearly no row
// takes a pass: 1.51 ms.

// 16 words from p on, those from `valid` on zero (none when !live): four
// 16-byte loads where all 16 are valid and p is aligned.
__device__ inline void wg_load16(const uint32_t* p, bool live, uint32_t valid, uint32_t (&v)[16]) {
  if (live && valid >= 16 && (reinterpret_cast<uintptr_t>(p) & 15) == 0) {
#pragma unroll
    for (uint32_t q = 0; q < 16; q += 4) {
      const uint4 x = *reinterpret_cast<const uint4*>(p + q);
      v[q] = x.x, v[q + 1] = x.y, v[q + 2] = x.z, v[q + 3] = x.w;
    }
  } else {
#pragma unroll
    for (uint32_t q = 0; q < 16; ++q) v[q] = live && q < valid ? p[q] : 0;
  }
}
// 16 words to p on, those from `valid` on left as they are.
__device__ inline void wg_store16(uint32_t* p, uint32_t valid, const uint32_t (&v)[16]) {
  if (valid >= 16 && (reinterpret_cast<uintptr_t>(p) & 15) == 0) {
#pragma unroll
    for (uint32_t q = 0; q < 16; q += 4) wg_store4(p + q, v[q], v[q + 1], v[q + 2], v[q + 3]);
  } else {
#pragma unroll
    for (uint32_t q = 0; q < 16; ++q)
      if (q < valid) p[q] = v[q];
  }
}

// t's words [wbase, wbase + 16) of instance inst, zero from word w + 1 on
// (and past its row): the words a thread's part of a tile subtracts from.
__device__ inline void wg_rem_load_t(const ImmaArgs& args, uint64_t inst, uint32_t wbase, uint32_t (&tw)[16]) {
  const bool live = inst < args.count;
  const uint32_t* t = live ? args.rem_t + inst * args.rem_t_stride + wbase : nullptr;
  const uint32_t t_end = min(args.rem_words + 1, args.rem_t_stride);
  wg_load16(t, live && wbase < t_end, t_end - min(wbase, t_end), tw);
}

// r = t - P on a thread's 16 words [wbase, wbase + 16) (tw: t's words,
// wg_rem_load_t, loaded a tile ahead; P: the product's words wd, plus q's
// bit N times m'[0] at word w = rem_words, r's top word); the borrow runs as
// the carry does (half 0 from the tile below, half 1 after a shuffle).
// Words [0, w) go to the remainder's row, word w (at most 5: r < 6 m' <
// 6 2^N) to r_top.
__device__ inline void wg_rem_tile(const ImmaArgs& args, uint64_t inst, uint32_t wbase,
                                   const uint32_t (&wd)[16], uint32_t (&tw)[16],
                                   uint32_t half, uint32_t lane, uint32_t& row_borrow, uint32_t dk0,
                                   uint32_t* r_top) {
  const uint32_t w = args.rem_words;
  const bool live = inst < args.count;
  // r = t - P in tw (one borrow chain; q's bit N at word w below, as
  // nothing above word w is kept).
  const uint32_t b = sub16_borrow(tw, wd, half == 0 ? row_borrow : 0u);
  uint32_t bin = __shfl_xor_sync(0xffffffffu, b, 16);  // the first half's borrow into the second's words
  if (half == 0) bin = 0;
  const uint32_t b2 = sub16_word(tw, bin);
  row_borrow = __shfl_sync(0xffffffffu, b + b2, lane | 16);  // the second half's, into the next tile
  // The row's 32 words of the tile at once where they lie below word w,
  // 16-byte aligned (wg_store_tile_row); else each thread its own.
  const uint32_t c0w = wbase - 16 * half;
  uint32_t* row_dst = live ? args.rem + inst * w + c0w : nullptr;
  const bool whole = live && c0w + 32 <= w && (reinterpret_cast<uintptr_t>(row_dst) & 15) == 0;
  const bool stored = wg_store_tile_row(row_dst, whole, half, tw);
  if (!live || wbase > w) return;
  if (!stored) wg_store16(args.rem + inst * w + wbase, w - min(wbase, w), tw);
  if (w < wbase + 16) {
#pragma unroll
    for (uint32_t q = 0; q < 16; ++q)
      if (wbase + q == w) *r_top = tw[q] - dk0;  // (mod 2^32: r's top word)
  }
}

// How many m' to take off r (top word `top`, words [0, w) at rr) next:
// c = floor(R / (M + 1)) <= floor(r / m') from r's and m''s top bits (R =
// r >> 32 (w - 2), M = m' >> 32 (w - 2), m' >= 2^(N-1) for s = 0), so r - c m'
// >= 0; c = 0 and R < M: r < m', done; c = 0 and R = M: only a whole
// comparison tells, a trial subtraction (mode 2) that stores nothing.
struct WgRemStep {
  uint32_t mode, c;  // mode 0: done, 1: subtract c m', 2: try one m'
};
__device__ inline WgRemStep wg_rem_decide(const uint32_t* rr, uint32_t w, uint32_t top, unsigned long long m_top) {
  const unsigned __int128 r_top = (unsigned __int128)top << 64 | (unsigned long long)rr[w - 1] << 32 | rr[w - 2];
  const unsigned __int128 m1 = (unsigned __int128)m_top + 1;
  uint32_t c = 0;  // at most 5 (r < 6 m'); the cap keeps a bad r from looping long
  while (c < 8 && r_top >= m1 * (c + 1)) ++c;
  if (c) return {1, c};
  return {r_top >= m_top ? 2u : 0u, 1};
}

// The corrections of the group's rows once all their words are stored:
// rows of a warp in lock step (a warp runs a pass while any of its rows
// needs one), each row's two threads over 32-word chunks as in a tile, the
// borrow of up to c + 1 through signed 64-bit sums. With the guard words'
// quotient (r < 2 m') nearly no row takes a pass; any quotient up to five
// short is still finished here (at most three passes, below).
__device__ inline void wg_rem_corrections(const ImmaArgs& args, uint64_t inst, uint32_t half, uint32_t lane,
                                          const uint32_t* r_top) {
  const uint32_t w = args.rem_words;
  const bool live = inst < args.count;
  uint32_t* rr = live ? args.rem + inst * w : nullptr;
  const uint32_t* k = args.k;
  const unsigned long long m_top = (unsigned long long)k[w - 1] << 32 | k[w - 2];
  uint32_t top = live ? *r_top : 0;
  WgRemStep step = live ? wg_rem_decide(rr, w, top, m_top) : WgRemStep{0, 0};
  // At most three passes store: c m' (c at most one short), then m' or a
  // trial and m'; a last trial may follow. The cap keeps a bad r from
  // looping forever.
  for (uint32_t pass = 0; pass < 6 && __any_sync(0xffffffffu, step.mode != 0); ++pass) {
    const int64_t c = step.mode ? int64_t(step.c) : 0;
    uint32_t b_row = 0;  // the borrow into the chunk (half 0's threads)
    // r's and m''s words of the thread's next chunk, loaded a chunk ahead:
    // the chunks' borrows run one after another, and each chunk's r words
    // come from L2 (stored by this group's tiles or the pass before).
    uint32_t x_next[16], y_next[16];
    const auto load_chunk = [&](uint32_t from) {  // r's and m''s words [from, from + 16) into x_next, y_next
      const bool in = step.mode && from < w;
      wg_load16(rr + from, in, w - min(from, w), x_next);
      wg_load16(k + from, in, w - min(from, w), y_next);
    };
    load_chunk(16 * half);
    for (uint32_t cb = 0; cb < w; cb += 32) {
      const uint32_t base = cb + 16 * half;
      const uint32_t valid = w - min(base, w);
      uint32_t x[16], y[16];
#pragma unroll
      for (uint32_t q = 0; q < 16; ++q) x[q] = x_next[q], y[q] = y_next[q];
      if (cb + 32 < w) load_chunk(base + 32);  // a next chunk
      uint32_t b = half == 0 ? b_row : 0;
      const bool whole = valid >= 16;  // else the row ends in these words: the borrow out of word w - 1
      if (whole) {
        b = submul16(x, y, uint32_t(c), b);
      } else {
#pragma unroll
        for (uint32_t q = 0; q < 16; ++q) {
          if (q < valid) {
            const int64_t a = int64_t(x[q]) - c * int64_t(y[q]) - int64_t(b);
            x[q] = uint32_t(a);
            b = uint32_t(-(a >> 32));
          }
        }
      }
      uint32_t bin = __shfl_xor_sync(0xffffffffu, b, 16);
      if (half == 0) bin = 0;
      if (whole) {
        bin = sub16_word(x, bin);
      } else {
#pragma unroll
        for (uint32_t q = 0; q < 16; ++q) {
          if (q < valid) {
            const int64_t a = int64_t(x[q]) - int64_t(bin);
            x[q] = uint32_t(a);
            bin = uint32_t(-(a >> 32));
          }
        }
      }
      b_row = __shfl_sync(0xffffffffu, b + bin, lane | 16);
      if (step.mode == 1 && base < w) wg_store16(rr + base, valid, x);
    }
    __syncwarp();  // the row's new top words, stored by either half
    const int64_t left = int64_t(top) - int64_t(b_row);  // r's top word after the pass
    if (step.mode == 1) {
      top = uint32_t(left);
      step = wg_rem_decide(rr, w, top, m_top);
    } else if (step.mode == 2) {
      step = left >= 0 ? WgRemStep{1, 1} : WgRemStep{0, 0};
    }
  }
}
#endif

// The remainder kernel's shared memory: the product's and r's top word of
// each row of the group.
__host__ __device__ inline uint64_t wg_rem_smem_bytes(const ImmaArgs& a) {
  return WgmmaShape::of(a).smem_bytes() + 4ull * kWgInstances + 4ull * kWgmmaThreads / 32;  // r_top, exact_votes
}

// The fused Barrett kernel's on-chip q (barrett_fused_wgmma.cuh): the
// quotient pass writes q's words into a_q, the remainder pass's A (q's row
// i byte-reversed as wg_stage_a stages it, q_pad = 4 w bytes a row), and
// q's top word (bit N, kQuotientExact) to q_top[row] as well as to
// args.top; the remainder pass then reads q_top[row] instead of
// args.rem_q_top and stages nothing.
struct WgOnChipQ {
  unsigned char* a_q = nullptr;
  uint32_t* q_top = nullptr;
  uint32_t q_pad = 0;
};

#if defined(BIGTUNE_WARP_EMULATION) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
// One product pass of a block (a kernel has one; the fused Barrett kernel,
// barrett_fused_wgmma.cuh, two): its arguments, A and E in shared memory,
// and the tile range. The tiles start up to 7 words below out_lo, so that a
// tile row's 32 words lie 32-byte aligned against write_lo
// (wg_store_tile_row: whole sectors where the rows allow; the quotient
// pass's tiles began 16 bytes off, session 27); the words from out_lo on lose
// no more to the columns below the first tile than they did.
struct WgPass {
  ImmaArgs args;
  WgmmaShape sh;
  unsigned char* a_rows;
  uint32_t a_base, e_base;           // A's and E's shared addresses (the descriptors')
  uint32_t out_lo, store_lo;         // the first tile's word; the words stored: [store_lo, out_words)
  uint32_t last_word;                // words stored in rows: [store_lo, last_word), the top word apart
  bool unshifted;                    // (the quotient marks q exact only there)
  bool rem;                          // the remainder for this launch (Rem and s = 0)
};

// E for args (the constant's words staged in W: k, and the word 1 at add_at
// where asked, wgmma_const_words; then the rows), and the pass's fields.
// Every thread of the block calls it; it ends with a barrier.
template <bool Rem>
__device__ inline WgPass wg_pass_setup(const ImmaArgs& args, unsigned char* a_rows, unsigned char* e,
                                       unsigned long long* w_rows) {
  WgPass p;
  p.args = args;
  p.sh = WgmmaShape::of(args);
  p.a_rows = a_rows;
  p.out_lo = wgmma_first_tile_word(args);
  p.store_lo = max(args.out_lo, args.write_lo);
  p.last_word = args.top ? args.out_words - 1 : args.out_words;
  p.unshifted = args.shift == nullptr || args.shift[0] == 0;
  p.rem = Rem && args.rem_shift[0] == 0;  // (the same for the whole launch)
  const uint32_t tid = threadIdx.x % kWgmmaThreads;
  uint32_t* k_stage = reinterpret_cast<uint32_t*>(w_rows);
  __syncthreads();  // (W free: a pass before may still read it)
  for (uint32_t j = tid; j < p.sh.k_bytes / 4; j += kWgmmaThreads)
    k_stage[j] = j < args.k_words ? args.k[j] : (args.add_at && j == args.add_at ? 1u : 0u);
  __syncthreads();
  const unsigned char* kb = reinterpret_cast<const unsigned char*>(k_stage);
  for (uint32_t u = tid; u < 16 * p.sh.e_rows; u += kWgmmaThreads) {
    const int32_t idx = int32_t(u / 16) - int32_t(kWgOff) + int32_t(u % 16);
    e[u] = idx >= 0 && idx < int32_t(p.sh.k_bytes) ? kb[idx] : 0;
  }
  __syncthreads();
  p.e_base = shared_address(e), p.a_base = shared_address(a_rows);
  return p;
}

// The quotient's 16 words of a thread (from word wbase of the product) to
// a_q: q's word j = word write_lo + j; each quad of q's words (j a multiple
// of 4: the tiles lie 8-word aligned against write_lo) is one slice of its
// row, one 16-byte store (quarter-warps of rows 16 bytes apart: no bank
// conflict). Words outside q (the guard words below, the top word and past
// it) are not stored here.
__device__ inline void wg_quads_to_a(const WgPass& p, const WgOnChipQ& oq, uint32_t row, uint32_t wbase,
                                     const uint32_t (&wd)[16]) {
  const uint32_t q_words = p.last_word - p.args.write_lo;  // w
#pragma unroll
  for (uint32_t u = 0; u < 16; u += 4) {
    const uint32_t j0 = wbase + u - p.args.write_lo;  // (wraps below write_lo: skipped)
    if (j0 < q_words)
      wg_store_slice(oq.a_q, (oq.q_pad / 4 - 4 - j0) / 4, row, make_uint4(wd[u], wd[u + 1], wd[u + 2], wd[u + 3]));
  }
}

// The pass's tiles for the group from instance `first` on (Rem: the
// composed Barrett's remainder instead where p.rem, imma_barrett_remainder_args;
// Add: args.add_to_out, the parts of a split product after the first;
// OnChip: the fused kernel's q, WgOnChipQ). A, unless OnChip && Rem, is
// staged here from args.x (copy_async: by cp.async); the rows of the group
// from next_first on (none where it is 0) are asked of L2 meanwhile. Every
// thread of the block calls it; it ends with a barrier (A and W free).
template <bool Rem, bool Add, bool OnChip>
__device__ __forceinline__ void wg_pass_group(const WgPass& p, unsigned long long* w_rows, uint32_t* r_top,
                                              uint32_t* exact_votes, uint64_t first, uint64_t next_first,
                                              bool copy_async, const WgOnChipQ& oq) {
  const ImmaArgs& args = p.args;
  const uint64_t count = args.count;
  const uint32_t tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  // Step 2's thread: row r of the warp's 16, words [16 half, 16 half + 16) of a tile.
  const uint32_t r = lane % 16, half = lane / 16, row = 16 * warp + r;
  const uint64_t inst = first + row;
  const bool rem = p.rem;
  // Rem: q's top word (bit 0: q's bit N; kQuotientExact: q = floor(x /
  // m'), so r < m'). Where every row of the group has q exact, r is x -
  // q m' mod 2^N: the tiles stop at word w, and neither r's top word nor
  // the corrections are needed (at 2 Kbit one tile of three, and the one
  // with the most x blocks). The decision is the group's (wgmma is the
  // warpgroup's): a warp's vote in exact_votes, read after the barrier.
  const uint32_t q_top = !rem || inst >= count ? kQuotientExact : OnChip ? oq.q_top[row] : args.rem_q_top[inst];
  if (rem) {
    const unsigned votes = __ballot_sync(0xffffffffu, (q_top & kQuotientExact) != 0);
    if (lane == 0) exact_votes[warp] = votes == 0xffffffffu ? 1u : 0u;
  }
  if (!(OnChip && Rem)) {
    wg_stage_a(args, p.sh, p.a_rows, first, copy_async);
    fence_shared_for_tensor_cores();
  }
  __syncthreads();
  if (!(OnChip && Rem) && next_first) wg_prefetch_rows(args, next_first);
  const bool exact = rem && (exact_votes[0] & exact_votes[1] & exact_votes[2] & exact_votes[3]) != 0;
  const uint32_t end_bytes = exact ? 4 * args.rem_words : 4 * args.out_words;
  const uint32_t out_lo = p.out_lo, store_lo = p.store_lo, last_word = p.last_word;

  int d[kWgmmaAcc] = {};
  wg_issue_tile(d, p.sh, p.a_base, p.e_base, 4 * out_lo);
  uint32_t row_carry = 0;            // into this tile's first word (half 0's threads; below 2^26)
  uint32_t row_borrow = 0;           // Rem: r's borrow, likewise
  uint32_t row_add_carry = 0;        // add_to_out: the addition's carry, likewise
  uint32_t row_inexact = 0;          // the quotient (exact_word): word w + g says q may be one short
  const uint32_t dk0 = q_top & 1u ? args.k[0] : 0u;  // Rem: q's bit N times m'[0]
  // Rem: t's words of this thread's part of the tile, loaded a tile ahead
  // (issued with the next tile's wgmmas), so that step 2 finds them in
  // registers: at 8 Kbit the kernel waited on these loads (ncu, session 24).
  uint32_t t_next[16];
  if (rem) wg_rem_load_t(args, inst, out_lo + 16 * half, t_next);
  for (uint32_t c0 = 4 * out_lo; c0 < end_bytes; c0 += kWgmmaN) {
    wgmma_wait_all();
    wgmma_pin(d);
    wg_word_sums(d, w_rows);
    __syncwarp();
    if (c0 + kWgmmaN < end_bytes) wg_issue_tile(d, p.sh, p.a_base, p.e_base, c0 + kWgmmaN);
    uint32_t tw[16];
    if (rem) {
#pragma unroll
      for (uint32_t q = 0; q < 16; ++q) tw[q] = t_next[q];
      if (c0 + kWgmmaN < end_bytes) wg_rem_load_t(args, inst, (c0 + kWgmmaN) / 4 + 16 * half, t_next);
    }

    // Step 2, while the next tile's wgmmas run.
    const unsigned long long* src = w_rows + wg_w_row(row) + 16 * half;
    const uint32_t wbase = c0 / 4 + 16 * half;
    // The word sums' halves: word q is lo[q] + hi[q - 1] + the carry, one
    // carry-flag chain (add16_split), as hi[q] < 2^25 (sums below 2^57).
    uint32_t lo[16], hi[16];
#pragma unroll
    for (uint32_t q = 0; q < 16; ++q) {
      const unsigned long long v = src[q];
      lo[q] = uint32_t(v), hi[q] = uint32_t(v >> 32);
    }
    uint32_t wd[16];
    const uint32_t c = add16_split(wd, lo, hi, half == 0 ? row_carry : 0u);
    // The first half's carry into the second half's words.
    uint32_t cin = __shfl_xor_sync(0xffffffffu, c, 16);
    if (half == 0) cin = 0;
    const uint32_t c2 = add16_word(wd, cin);
    row_carry = __shfl_sync(0xffffffffu, c + c2, lane | 16);  // the second half's top carry, into the next tile
    __syncwarp();  // W free for the next tile's sums
    if (Add) {
      // The words out holds added, one carry through the row: half 0's
      // from the tile below, half 1's after a shuffle (Rem: the q m'
      // words the high part of q stored, before r = t - q m').
      uint32_t ex[16];
      wg_load_out16(args, inst, wbase, store_lo, last_word, ex);
      const uint32_t ca = wg_add16(wd, ex, half == 0 ? row_add_carry : 0u);
      uint32_t ain = __shfl_xor_sync(0xffffffffu, ca, 16);
      if (half == 0) ain = 0;
      const uint32_t ca2 = add16_word(wd, ain);
      row_add_carry = __shfl_sync(0xffffffffu, ca + ca2, lane | 16);
    }
    if (rem) {
      wg_rem_tile(args, inst, wbase, wd, tw, half, lane, row_borrow, dk0, r_top + row);
    } else {
      if (args.exact_word && args.exact_word - c0 / 4 < kWgTileWords) {
        // The quotient: word w + g (in the first tile: the tiles start at
        // most 7 words below out_lo = w + g - 1) decides whether q is exact.
        // Only the tile that holds it looks (the same for the warp; H200,
        // session 29: the 2 Kbit quotient kernel 1.01 -> 1.00 ms, ncu).
        uint32_t v = 0;
#pragma unroll
        for (uint32_t q = 0; q < 16; ++q) v = wbase + q == args.exact_word ? wd[q] : v;
        const uint32_t mine = args.exact_word - wbase < 16 && v >= kQuotientExactLimit ? 1u : 0u;
        row_inexact |= mine | __shfl_xor_sync(0xffffffffu, mine, 16);
      }
      const bool q_exact = args.exact_word && !row_inexact && args.exact_word >= out_lo && p.unshifted;
      if (OnChip && !Rem) {
        wg_quads_to_a(p, oq, row, wbase, wd);
        if (args.out_words - 1 - wbase < 16) {  // q's top word: to the remainder pass, and to args.top
          uint32_t v = 0;
#pragma unroll
          for (uint32_t q = 0; q < 16; ++q) v = wbase + q + 1 == args.out_words ? wd[q] : v;
          v |= v == 0 && q_exact ? kQuotientExact : 0u;
          oq.q_top[row] = v;
          if (inst < count) args.top[inst] = v;
        }
      } else {
        wg_store_tile(args, inst, c0 / 4, half, wd, store_lo, last_word, q_exact ? kQuotientExact : 0u);
      }
    }
  }
  wgmma_wait_all();  // (the last tile's were waited for in the loop; this tells ptxas so)
  wgmma_pin(d);
  if (rem && !exact) {
    __syncthreads();  // every row's words of r stored, its top word in r_top
    wg_rem_corrections(args, inst, half, lane, r_top + row);
  }
  __syncthreads();  // A and W free for the next group
}

#endif

// out_i gets words [out_lo, out_words) of x_i * k as mul_const_imma_kernel
// does (Rem: the composed Barrett's remainder instead where args.rem_shift[0]
// is 0, imma_barrett_remainder_args; Add: args.add_to_out, the parts of a
// split product after the first). Grid: one wave of resident blocks of
// 128 threads, each looping over groups of 64 instances;
// WgmmaShape::smem_bytes() of dynamic shared memory (wg_rem_smem_bytes).
template <bool Rem, bool Add>
__device__ __forceinline__ void mul_const_wgmma_body(const ImmaArgs args) {
#if defined(BIGTUNE_WARP_EMULATION) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
  const WgmmaShape sh = WgmmaShape::of(args);
#ifdef BIGTUNE_WARP_EMULATION
  unsigned char* smem = emu::dynamic_shared(sh.smem_bytes());
#else
  extern __shared__ __align__(128) unsigned char wg_smem[];
  unsigned char* smem = wg_smem;
#endif
  unsigned char* a_rows = smem;
  unsigned char* e = smem + sh.a_bytes();
  unsigned long long* w_rows = reinterpret_cast<unsigned long long*>(e + sh.e_bytes());
  uint32_t* r_top = reinterpret_cast<uint32_t*>(smem + sh.smem_bytes());  // Rem: r's top word of each row
  uint32_t* exact_votes = r_top + kWgInstances;                           // Rem: a word a warp
  const WgPass p = wg_pass_setup<Rem>(args, a_rows, e, w_rows);
  const uint64_t groups = (args.count + kWgInstances - 1) / kWgInstances;
  // A by cp.async where blocks take more than one group (a mulmod's batch;
  // not a powm step's one wave of groups, where it ran 0.986x).
  const bool copy_async = groups > gridDim.x;
  for (uint64_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const uint64_t next = group + gridDim.x < groups ? (group + gridDim.x) * kWgInstances : 0;
    wg_pass_group<Rem, Add, false>(p, w_rows, r_top, exact_votes, group * kWgInstances, next, copy_async, WgOnChipQ{});
  }
#endif
}

__global__ void __launch_bounds__(kWgmmaThreads) mul_const_wgmma_kernel(const ImmaArgs args) {
  mul_const_wgmma_body<false, false>(args);
}
// The parts of a split product after the first (args.add_to_out): an
// instantiation of its own, so that the others carry no add code (behind a
// launch-wide branch it made mul_const_wgmma_kernel's PTX 2497 -> 3103
// instructions; on its own the 2 Kbit quotient ran 1.00 -> 0.9996 ms, ncu,
// H200, session 30: not what had slowed it in session 29).
__global__ void __launch_bounds__(kWgmmaThreads) mul_const_wgmma_add_kernel(const ImmaArgs args) {
  mul_const_wgmma_body<false, true>(args);
}
// The composed Barrett's q m' pass and its finish (launch_barrett_imma_remainder).
__global__ void __launch_bounds__(kWgmmaThreads) barrett_rem_wgmma_kernel(const ImmaArgs args) {
  mul_const_wgmma_body<true, false>(args);
}
// The same where q m' does not fit whole (imma_barrett_rem_low_part_args):
// q's low words' product plus the words the high part stored, then r.
__global__ void __launch_bounds__(kWgmmaThreads) barrett_rem_wgmma_add_kernel(const ImmaArgs args) {
  mul_const_wgmma_body<true, true>(args);
}

}  // namespace bigtune::kernels::block
