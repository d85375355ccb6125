// addmul_1 on a register window: r[0 .. Q) += a[0 .. Q) * b, top digit
// returned (GMP's mpn_addmul_1 shape), 32-bit digits, one PTX carry chain of
// 2Q + 1 instructions (generated: gen_addmul_1_rows.py).
//
// ROT is the register rotation of the window: logical digit k lives in
// r[(k + ROT) % Q]. Callers that shift the window by one digit per step (the
// warp sum-rotate product, seed 002 §3 Alg. 3) advance ROT instead of moving
// registers. Preconditions: Q in {2, 4, 8, 16}; 0 <= ROT < Q. The result
// r + a * b < 2^(32(Q+1)), so the top digit never overflows.
#pragma once
#include <cstdint>

namespace bigtune::kernels::arith {

#if defined(__CUDA_ARCH__)
#include "kernels/arith/addmul_1_rows.inc"
#endif

template <int Q, int ROT>
__device__ __forceinline__ uint32_t addmul_1(uint32_t (&r)[Q], const uint32_t (&a)[Q], uint32_t b) {
  static_assert(Q == 2 || Q == 4 || Q == 8 || Q == 16, "addmul_1 chains are generated for Q in {2, 4, 8, 16}");
  static_assert(ROT >= 0 && ROT < Q, "rotation out of range");
#if defined(__CUDA_ARCH__)
  return AddMul1Row<Q>::template apply<ROT>(r, a, b);
#else
  // Host build (the warp emulation test, tests/unit/warp_emulation_test.cpp):
  // the same arithmetic in portable C++.
  uint64_t carry = 0;
  for (int k = 0; k < Q; ++k) {
    const uint64_t t = uint64_t(a[k]) * b + r[(k + ROT) % Q] + carry;
    r[(k + ROT) % Q] = uint32_t(t);
    carry = t >> 32;
  }
  return uint32_t(carry);
#endif
}

}  // namespace bigtune::kernels::arith
