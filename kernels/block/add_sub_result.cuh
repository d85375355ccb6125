// The result limbs and the carry flag of the add/sub kernels (scan, chained,
// stream, cluster), written once: results are reduced modulo 2^bits (limbs
// past bit `bits` are 0, the top one masked); the carry out of a + b is bit
// `bits` of the unreduced sum, which lies in limb bits / L, or past the
// stored limbs when `bits` fills them (then it is the scan's carry out); a
// borrow is the borrow out of the whole zero-padded subtraction (seed 000
// §2: the scan's carry out, always).
#pragma once
#include <cstdint>

#include "kernels/arith/limb.cuh"

namespace bigtune::kernels::block {

template <class Limb, bool kSub>
struct AddSubResult {
  static constexpr int L = arith::LimbTraits<Limb>::kBits;
  uint64_t top_limb;
  int top_bit;
  Limb top_mask;
  int flag = -1;  // the carry bit, once known to this thread; -1 otherwise

  __device__ explicit AddSubResult(uint64_t bits)
      : top_limb(bits / L), top_bit(int(bits % L)), top_mask((Limb(1) << (bits % L)) - 1) {}

  // Limb g of the instance's result, r as the scan produced it.
  __device__ Limb limb(uint64_t g, Limb r) {
    if (!kSub && g == top_limb) flag = int((r >> top_bit) & 1);
    if (g > top_limb) return 0;
    if (g == top_limb) return r & top_mask;
    return r;
  }
  // The thread holding the scan's last carry out (`holds_last`) of an
  // instance of `stored` limbs takes the flag from it where limb() cannot.
  __device__ void last_carry(bool holds_last, uint64_t stored, Limb carry_out) {
    if (holds_last && (kSub || top_limb >= stored)) flag = int(carry_out);
  }
};

}  // namespace bigtune::kernels::block
