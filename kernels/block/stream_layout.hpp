// Shape arithmetic of the streaming add/sub family (kernels/variants/
// stream_kernels.cuh), shared by the kernel and the host-side registry
// (STYLE.md: no number written twice).
//
// One block per instance walks its instance tile by tile; a tile is T * Q
// consecutive limbs, T the block's threads. The tile cut is the chained
// family's (chained_layout.hpp: chained_threads, chained_tile_limbs,
// chained_tiles, chained_buffer_limbs), reused as is: only the carry between
// tiles differs (a register of the same block here, a look-back there).
//
// Shared memory: S stages (S = 2: double buffering; 3: two tiles ahead), each
// an a-buffer and a b-buffer of one tile (the whole instance when it is
// shorter than a tile); stage s holds a at logical 2*s*buf and b at
// (2*s+1)*buf. An instance of fewer tiles than S needs only one stage per tile.
#pragma once
#include <cstdint>

#include "kernels/block/chained_layout.hpp"
#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Stages a launch uses: the variant's S, or fewer when the instance has fewer tiles.
BIGTUNE_HD constexpr uint32_t stream_stages(uint32_t tiles, uint32_t stages) {
  return tiles < stages ? tiles : stages;
}

// Logical limbs of shared memory for an instance of `limbs` limbs with tiles
// of `tile_limbs` and S = `stages`.
BIGTUNE_HD constexpr uint64_t stream_smem_logical(uint32_t limbs, uint32_t tile_limbs, uint32_t stages) {
  return uint64_t(2) * stream_stages(chained_tiles(limbs, tile_limbs), stages) *
         chained_buffer_limbs(limbs, tile_limbs);
}

// Dynamic shared memory of a full-width block (T threads, Q limbs each).
BIGTUNE_HD constexpr uint64_t stream_full_smem_bytes(uint32_t threads, uint32_t q, uint32_t stages,
                                                     uint32_t limb_bytes) {
  return smem_bytes_padded(uint64_t(2) * stages * threads * q, limb_bytes);
}

// Blocks of the full width one H100 SM holds (228 KB of shared memory, 1 KB
// reserved per block plus ~0.2 KB of static scan storage; 2048 threads): the
// __launch_bounds__ minimum, so that registers never cut residency below what
// shared memory allows.
BIGTUNE_HD constexpr uint32_t stream_min_blocks(uint32_t threads, uint32_t q, uint32_t stages, uint32_t limb_bytes) {
  const uint64_t by_smem = 233472 / (stream_full_smem_bytes(threads, q, stages, limb_bytes) + 1024 + 256);
  const uint64_t by_threads = 2048 / threads;
  const uint64_t n = by_smem < by_threads ? by_smem : by_threads;
  return n < 1 ? 1 : uint32_t(n);
}

}  // namespace bigtune::kernels::block
