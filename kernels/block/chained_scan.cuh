// Carry passing between the blocks of one instance: the single-pass decoupled
// look-back of Merrill & Garland ("Single-pass Parallel Prefix Scan with
// Decoupled Look-back", NVIDIA TR 2016-002), applied to seed 000 §2's carry
// statuses (carry_scan.cuh: generate g, propagate p).
//
// Every tile owns one 32-bit status word in global scratch, zero before the
// launch. A tile first publishes its *aggregate* (the status of its own limbs
// with carry-in 0), then, once it knows its carry-in, its *inclusive* carry
// (the carry out of everything up to and including it). The first tile of an
// instance publishes its inclusive carry at once. A tile finds its carry-in by
// walking back over its predecessors:
//   - inclusive found: that carry is the answer;
//   - aggregate with p = 0: the predecessor's carry out does not depend on its
//     carry-in, so it is its g — the answer, without waiting;
//   - aggregate with p = 1 (every limb all-ones, or all-zeros for sub): the
//     carry passes through unchanged; look one tile further back.
// With random operands a p = 1 tile practically never happens, so the walk
// ends at the direct predecessor as soon as it has its aggregate: tiles do not
// wait for each other's complete prefixes, which is what lets a 2^20-bit
// instance stream through four blocks as fast as four independent ones.
//
// No deadlock: tiles are handed out by an atomic ticket in increasing order,
// so the tiles a block waits for belong to blocks that already run (they took
// smaller tickets) and that themselves only wait for smaller ones.
//
// Each status word is the whole message (state and carry bits in one 32-bit
// store), so relaxed device-scope atomics suffice: no payload is published
// through another location and no fence is needed.
#pragma once
#include <cuda/atomic>

#include <cstdint>

#include "kernels/block/carry_scan.cuh"

namespace bigtune::kernels::block {

// Status word: bits 0-1 the carry status (kCarryGenerate, kCarryPropagate),
// bits 2-3 the state. 0 = not yet published (the launch zeroes the words).
constexpr uint32_t kTileAggregate = 1u << 2;
constexpr uint32_t kTileInclusive = 2u << 2;
constexpr uint32_t kTileStateMask = 3u << 2;

__device__ __forceinline__ void tile_publish(uint32_t* word, uint32_t state, uint32_t status) {
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(*word).store(state | status, cuda::memory_order_relaxed);
}

__device__ __forceinline__ uint32_t tile_read(uint32_t* word) {
  return cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(*word).load(cuda::memory_order_relaxed);
}

// The carry (0 or 1) into tile `id` (not the first tile of its instance), from
// the status words of the tiles before it. Called by one thread.
__device__ __forceinline__ uint32_t tile_look_back(uint32_t* status, uint32_t id) {
  for (uint32_t j = id - 1;; --j) {
    uint32_t w = tile_read(&status[j]);
    while ((w & kTileStateMask) == 0) {
      __nanosleep(32);  // the predecessor is still loading: do not hammer L2
      w = tile_read(&status[j]);
    }
    if ((w & kTileStateMask) == kTileInclusive) return w & kCarryGenerate;
    if ((w & kCarryPropagate) == 0) return w & kCarryGenerate;
    // p = 1 (then g = 0): this tile passes its carry-in through; look further.
  }
}

}  // namespace bigtune::kernels::block
