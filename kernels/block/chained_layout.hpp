// Shape arithmetic of the chained (multi-block) add/sub family, shared by the
// kernel and the host-side registry (STYLE.md: no number written twice).
//
// One instance of M limbs is cut into tiles of T * Q consecutive limbs, one
// CUDA block per tile; T is the variant's tile width (threads per block), cut
// down to a multiple of 32 for instances shorter than one full tile. The carry
// goes from tile to tile by a decoupled look-back (chained_scan.cuh) through
// status words in global scratch: word 0 is the ticket counter that hands out
// tiles in order, word 1 + t the status of tile t (instance-major). Instances
// of one tile need neither, and get no scratch.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Threads of one tile: the variant's width, or fewer (a multiple of 32) when
// one tile holds the whole instance.
BIGTUNE_HD constexpr uint32_t chained_threads(uint32_t limbs, uint32_t q, uint32_t tile_threads) {
  const uint32_t need = round_up(ceil_div(limbs, q), 32);
  return need < tile_threads ? need : tile_threads;
}
BIGTUNE_HD constexpr uint32_t chained_tile_limbs(uint32_t threads, uint32_t q) { return threads * q; }
BIGTUNE_HD constexpr uint32_t chained_tiles(uint32_t limbs, uint32_t tile_limbs) { return ceil_div(limbs, tile_limbs); }
// Limbs of one staging buffer: a tile, or the whole instance when shorter.
BIGTUNE_HD constexpr uint32_t chained_buffer_limbs(uint32_t limbs, uint32_t tile_limbs) {
  return limbs < tile_limbs ? limbs : tile_limbs;
}
// 32-bit scratch words of a launch: ticket + one status per tile; none when
// every instance is one tile (the kernel then indexes tiles by blockIdx).
BIGTUNE_HD constexpr uint64_t chained_scratch_words(uint32_t tiles, uint64_t count) {
  return tiles > 1 ? 1 + uint64_t(tiles) * count : 0;
}

}  // namespace bigtune::kernels::block
