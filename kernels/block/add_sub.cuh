// Block-level addition and subtraction of Q-limb chunks (seed 000 §2).
//
// Three steps, each thread on its own chunk of Q consecutive limbs:
//   1. the chunk's carry status with carry-in 0 (chunk_status);
//   2. a segmented block scan of the statuses (carry_scan.cuh);
//   3. the chunk recomputed with its incoming carry (chunk_finish).
// Step 3 recomputes instead of keeping the Q result limbs alive across the
// scan: Q fewer registers per thread, which is what lets Q = 16 run with 1024
// threads; the extra Q additions are free in a memory-bound kernel.
//
// `b_at(k)` yields limb k of the second operand's chunk (a register array or a
// shared-memory view); `emit(k, r)` receives result limb k.
#pragma once
#include <cstdint>
#include "kernels/arith/limb.cuh"
#include "kernels/block/carry_scan.cuh"

namespace bigtune::kernels::block {

// Status of a ± b over the chunk with carry-in 0: generate = carry (borrow)
// out, propagate = the result is all-ones (all-zeros for subtraction).
template <class Limb, int Q, bool kSub, class BAt>
__device__ __forceinline__ uint32_t chunk_status(const Limb (&a)[Q], BAt b_at) {
  Limb carry = 0;
  bool propagate = true;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    Limb r;
    if constexpr (kSub) {
      carry = arith::sub_limb(r, a[k], b_at(k), carry);
      propagate &= (r == Limb(0));
    } else {
      carry = arith::add_limb(r, a[k], b_at(k), carry);
      propagate &= (r == ~Limb(0));
    }
  }
  return uint32_t(carry) | (propagate ? kCarryPropagate : 0u);
}

// r = a ± b ± carry_in, limb by limb through emit(k, r_k); returns the carry out.
template <class Limb, int Q, bool kSub, class BAt, class Emit>
__device__ __forceinline__ Limb chunk_finish(const Limb (&a)[Q], BAt b_at, Limb carry, Emit emit) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    Limb r;
    if constexpr (kSub) {
      carry = arith::sub_limb(r, a[k], b_at(k), carry);
    } else {
      carry = arith::add_limb(r, a[k], b_at(k), carry);
    }
    emit(k, r);
  }
  return carry;
}

// A block of instances, each spread over consecutive threads, each thread
// holding Q limbs; `segment_start` marks the first thread of an instance.
template <class Limb, int Q, bool kSub>
class BlockAddSub {
 public:
  using TempStorage = BlockCarryScan::TempStorage;

  __device__ explicit BlockAddSub(TempStorage& storage) : storage_(storage) {}

  // a ± b across each instance, results through emit. Returns the carry
  // (borrow) out of this thread's chunk after propagation: at the last thread
  // of an instance, the instance's carry out. Contains __syncthreads(); a
  // second run() on the same storage needs a __syncthreads() in between.
  template <class BAt, class Emit>
  __device__ Limb run(const Limb (&a)[Q], BAt b_at, bool segment_start, Emit emit) {
    uint32_t status = chunk_status<Limb, Q, kSub>(a, b_at);
    if (segment_start) status &= kCarryGenerate;  // nothing flows in from the previous instance
    uint32_t inclusive;
    const uint32_t prefix = BlockCarryScan(storage_).scan(status, inclusive);
    const Limb carry_in = segment_start ? Limb(0) : Limb(prefix & kCarryGenerate);
    chunk_finish<Limb, Q, kSub>(a, b_at, carry_in, emit);
    return Limb(inclusive & kCarryGenerate);
  }

 private:
  TempStorage& storage_;
};

}  // namespace bigtune::kernels::block
