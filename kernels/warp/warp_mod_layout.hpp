// Layout constants of the warp-level modular family, shared by its kernels
// (kernels/variants/warp_mod_kernels.cuh) and its host shape rules
// (warp_mod_shapes.cpp), so the two cannot disagree.
#pragma once
#include <cstdint>

#if defined(__CUDACC__) || defined(BIGTUNE_WARP_EMULATION)
#define BIGTUNE_WARP_MOD_HD __host__ __device__
#else
#define BIGTUNE_WARP_MOD_HD
#endif

namespace bigtune::kernels::warp {

// Scratch: header words (0: some modulus is even, 1: -m^-1 mod 2^32 of a
// shared modulus, 2: its kind, 3: the host's even check above 64 limbs,
// warp_mod_launch.cu), then a shared modulus' m, R mod m, R^2 mod m.
constexpr uint32_t kWarpModHeaderWords = 8;

BIGTUNE_WARP_MOD_HD constexpr uint64_t warp_mod_scratch_words(uint32_t lanes, uint32_t q) {
  return kWarpModHeaderWords + 3 * uint64_t(lanes) * q;
}

// powm's table: words between two instances of a block (2^w entries of
// lanes * q limbs, plus an L-word skew that puts the segments of one warp on
// different shared-memory banks).
BIGTUNE_WARP_MOD_HD constexpr uint64_t warp_mod_table_stride(uint32_t lanes, uint32_t q, uint32_t window) {
  return (uint64_t(1) << window) * lanes * q + lanes;
}

// powm with the table in global memory (powm_warp_global_kernel, task
// modfast): the tables follow the header and the shared modulus' constants,
// from a 32-word boundary, one per instance: 2^w entries of lanes * q limbs.
BIGTUNE_WARP_MOD_HD constexpr uint64_t warp_mod_global_table_offset(uint32_t lanes, uint32_t q) {
  return (warp_mod_scratch_words(lanes, q) + 31) / 32 * 32;
}
BIGTUNE_WARP_MOD_HD constexpr uint64_t warp_mod_global_table_words(uint32_t lanes, uint32_t q, uint32_t window) {
  return (uint64_t(1) << window) * lanes * q;
}
// The launch runs a batch in chunks of at most kWarpModGlobalChunkBlocks
// blocks (of at most kWarpModGlobalChunkThreads / 2048 = 256 threads), each
// chunk reusing the same tables: the scratch is bounded (2048 x 256 threads
// = 2^19 lanes, 2^19 x 2^w x 8 words: 512 MB at w = 5 whatever the size)
// instead of growing as 2^w times the batch (16 GB at w = 5 for a
// 2^32-bit batch). 2048 blocks are ~8 waves of resident blocks on an H100
// at 2 blocks per SM, so a chunk's last wave costs a few per cent at most.
constexpr uint64_t kWarpModGlobalChunkBlocks = 2048;
constexpr uint64_t kWarpModGlobalChunkThreads = kWarpModGlobalChunkBlocks * 256;
BIGTUNE_WARP_MOD_HD constexpr uint64_t warp_mod_global_table_slots(uint32_t lanes, uint64_t count) {
  return count < kWarpModGlobalChunkThreads / lanes ? count : kWarpModGlobalChunkThreads / lanes;
}

}  // namespace bigtune::kernels::warp
