// The one argument block every bigtune kernel takes, and the launch geometry
// the registry computes for it. Plain data: host and device see the same bytes.
#pragma once
#include <cstdint>

namespace bigtune::kernels {

struct KernelArgs {
  void* r = nullptr;          // output batch (out_limbs per instance)
  const void* a = nullptr;    // first operand (limbs per instance)
  const void* b = nullptr;    // second operand, if any
  uint32_t* flags = nullptr;  // per-instance carry/borrow or cmp result (int32 bits), may be null
  uint64_t count = 0;         // instances
  uint64_t bits = 0;          // result bit-size: results are reduced modulo 2^bits
  uint64_t shift = 0;         // shl/shr: bits to shift by
  uint32_t limbs = 0;         // limbs per operand instance (M)
  uint32_t out_limbs = 0;     // limbs per result instance
  uint32_t threads_per_instance = 0;
  uint32_t ipb = 1;           // instances per block
  uint32_t stage_buffers = 1; // scan family: 2 = both operands staged at once
  // Operands and results beyond (r, a, b), for the ops that have them.
  void* r2 = nullptr;         // second result (divmod: remainder)
  const void* c = nullptr;    // third operand (mul_add: addend)
  const void* m = nullptr;    // modulus (mulmod, sqrmod, powm, modinv)
  const void* e = nullptr;    // exponent (powm)
  void* scratch = nullptr;    // global scratch, ShapeRules::scratch_bytes of it
  uint32_t b_limbs = 0;       // limbs per instance of b when it differs from a (divmod divisor)
  uint32_t c_limbs = 0;
  uint32_t r2_limbs = 0;
  uint32_t m_limbs = 0;
  uint32_t e_limbs = 0;
  uint32_t m_shared = 0;      // 1: one modulus for the whole batch
  uint32_t e_shared = 0;      // 1: one exponent for the whole batch
};

struct Geometry {
  uint32_t grid = 0;
  uint32_t block = 0;
  uint32_t smem_bytes = 0;
  uint32_t threads_per_instance = 0;
  uint32_t ipb = 0;
  uint32_t stage_buffers = 1;
};

}  // namespace bigtune::kernels
