// Block-level addition and subtraction of Q-limb chunks (seed 000 §2).
//
// Three steps, each thread on its own chunk of Q consecutive limbs:
//   1. chunk sum (or difference) with carry-in 0, summarised as a carry status;
//   2. a segmented block scan of the statuses (carry_scan.cuh);
//   3. the incoming carry added to the chunk.
// Cost: Q limb additions twice per thread plus one block scan; the scan is
// amortised over Q limbs ("efficient sequentialization", seed 000 §2).
#pragma once
#include <cstdint>
#include "kernels/arith/limb.cuh"
#include "kernels/block/carry_scan.cuh"

namespace bigtune::kernels::block {

// r = a + b (kSub: a - b) over Q limbs with carry-in 0. Returns the status:
// generate = carry (borrow) out, propagate = r all-ones (all-zeros for kSub).
template <class Limb, int Q, bool kSub>
__device__ __forceinline__ uint32_t chunk_add_sub(Limb (&r)[Q], const Limb (&a)[Q], const Limb (&b)[Q]) {
  Limb carry = 0;
  bool propagate = true;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    if constexpr (kSub) {
      carry = arith::sub_limb(r[k], a[k], b[k], carry);
      propagate &= (r[k] == Limb(0));
    } else {
      carry = arith::add_limb(r[k], a[k], b[k], carry);
      propagate &= (r[k] == ~Limb(0));
    }
  }
  return uint32_t(carry) | (propagate ? kCarryPropagate : 0u);
}

// r += carry_in (kSub: r -= borrow_in), carry_in in {0, 1}.
template <class Limb, int Q, bool kSub>
__device__ __forceinline__ void chunk_apply_carry(Limb (&r)[Q], Limb carry_in) {
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    if constexpr (kSub) {
      carry_in = arith::sub_limb(r[k], r[k], Limb(0), carry_in);
    } else {
      carry_in = arith::add_limb(r[k], r[k], Limb(0), carry_in);
    }
  }
}

// A block of instances, each spread over consecutive threads, each thread
// holding Q limbs; `segment_start` marks the first thread of an instance.
template <class Limb, int Q, bool kSub>
class BlockAddSub {
 public:
  using TempStorage = BlockCarryScan::TempStorage;

  __device__ explicit BlockAddSub(TempStorage& storage) : storage_(storage) {}

  // r = a + b (a - b) across the instance. Returns the carry (borrow) out of
  // this thread's chunk after carry propagation: at the last thread of an
  // instance it is the instance's carry out. Contains __syncthreads().
  __device__ Limb run(Limb (&r)[Q], const Limb (&a)[Q], const Limb (&b)[Q], bool segment_start) {
    uint32_t status = chunk_add_sub<Limb, Q, kSub>(r, a, b);
    if (segment_start) status &= kCarryGenerate;  // nothing flows in from the previous instance
    uint32_t inclusive;
    const uint32_t prefix = BlockCarryScan(storage_).scan(status, inclusive);
    const Limb carry_in = segment_start ? Limb(0) : Limb(prefix & kCarryGenerate);
    chunk_apply_carry<Limb, Q, kSub>(r, carry_in);
    return Limb(inclusive & kCarryGenerate);
  }

 private:
  TempStorage& storage_;
};

}  // namespace bigtune::kernels::block
