// Block-level a ± b ± carry_in of one instance spread over the whole block
// (GMP's "nc": with a carry in), the step of the streaming add/sub family
// (kernels/variants/stream_kernels.cuh) that walks an instance tile by tile.
//
// Same three steps as BlockAddSub (add_sub.cuh, seed 000 §2): chunk statuses,
// one BlockCarryScan, chunks recomputed with their carry-in. The carry into
// the tile enters as an earlier status (g = carry_in, p = 0) combined into
// thread 0's own status, so the scan's inclusive prefix at the last thread is
// the tile's carry out *with* that carry-in: the next tile needs nothing else.
#pragma once
#include <cstdint>

#include "kernels/block/add_sub.cuh"
#include "kernels/block/carry_scan.cuh"

namespace bigtune::kernels::block {

template <class Limb, int Q, bool kSub>
class BlockAddSubNc {
 public:
  using TempStorage = BlockCarryScan::TempStorage;

  __device__ explicit BlockAddSubNc(TempStorage& storage) : storage_(storage) {}

  // Thread i holds limbs [iQ, iQ + Q) of the block's operand tile (a in
  // registers, b through b_at(k)); `carry_in` (0 or 1) is read in thread 0
  // only. Results go through emit(k, r). Returns the carry (borrow) out of
  // this thread's chunk, its carry-in included: at the last thread, the
  // tile's carry out. Contains __syncthreads() (BlockCarryScan): a second
  // run() on the same storage needs a __syncthreads() in between.
  template <class BAt, class Emit>
  __device__ Limb run(const Limb (&a)[Q], BAt b_at, Limb carry_in, Emit emit) {
    uint32_t status = chunk_status<Limb, Q, kSub>(a, b_at);
    if (threadIdx.x == 0) status = CarryOp()(uint32_t(carry_in) & kCarryGenerate, status);
    uint32_t inclusive;
    const uint32_t prefix = BlockCarryScan(storage_).scan(status, inclusive);
    const Limb chunk_in = threadIdx.x == 0 ? carry_in : Limb(prefix & kCarryGenerate);
    chunk_finish<Limb, Q, kSub>(a, b_at, chunk_in, emit);
    return Limb(inclusive & kCarryGenerate);
  }

 private:
  TempStorage& storage_;
};

}  // namespace bigtune::kernels::block
