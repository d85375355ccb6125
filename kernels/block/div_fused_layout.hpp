// Shape arithmetic of the block division and fused kernels, shared by device
// code and the registry (as layout.hpp is for Kernels I): threads, the
// multiplication tile, where intermediates live, scratch per block.
#pragma once
#include <cstdint>

#include "kernels/block/div_shinv.hpp"
#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Largest dividend the division variants accept: the one-block target.
constexpr uint64_t kDivMaxBits = uint64_t(1) << 20;
// Blocks of a division or fused launch: each loops over instances (grid
// stride), so global scratch is per block, not per instance — 2^32-bit
// batches would otherwise need ~8 x the batch in scratch. At most
// kDivFusedMaxBlocks (132 SMs x 32 resident blocks fill an H100) and at most
// kScratchBudget bytes of scratch in all.
constexpr uint32_t kDivFusedMaxBlocks = 4224;
constexpr uint64_t kScratchBudget = uint64_t(3) << 30;
// Fused intermediates stay in shared memory up to this many bytes (fits the
// 227 KB opt-in of an H100 with the tile); larger ones go to global scratch.
constexpr uint64_t kFusedSmemBudget = 160 * 1024;

// Threads per instance: the largest products (n x (n/2 + 1) limbs for the
// division, n x n for fused ops) fill one tile of T*Q limbs with a few limbs to
// spare — a tile one limb short would cut the divisor's inverse into a second,
// almost empty piece that costs a whole tile; at least 64, at most `cap`.
BIGTUNE_HD constexpr uint32_t div_fused_threads(uint32_t limbs, uint32_t q, uint32_t cap, bool half) {
  const uint32_t want = round_up(ceil_div((half ? (limbs + 1) / 2 : limbs) + 8, q), 32);
  return want < 64 ? 64 : (want > cap ? cap : want);
}

// Division workspace in shared memory (variant "divmod.shinv.u64.q4.smem")
// up to this many bytes: fast, but one or two resident blocks per SM; the
// global-scratch variant keeps more blocks resident. The benchmark decides.
constexpr uint64_t kDivSmemBudget = 180 * 1024;
BIGTUNE_HD constexpr uint64_t div_smem_workspace_bytes(uint32_t m) { return div_shinv_workspace_limbs(m, m) * 8; }

// Limbs of the fused intermediates: mul_add: a*b (2M); poly: t1, t2 (2M+1
// each), t1*t2 (4M+2), a*b (2M).
BIGTUNE_HD constexpr uint64_t fused_buffer_limbs(bool poly, uint32_t m) {
  return poly ? 10ull * m + 4 : 2ull * m;
}
BIGTUNE_HD constexpr bool fused_in_smem(bool poly, uint32_t m) {
  return fused_buffer_limbs(poly, m) * 8 <= kFusedSmemBudget;
}

}  // namespace bigtune::kernels::block
