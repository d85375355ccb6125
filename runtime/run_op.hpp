// One entry for "run op on these batches": the dispatch from an Op value to
// the Context method, for code that iterates over ops (bigtune check, the
// benchmark, the GPU tests, the tuner), and the batch layout each op takes.
#pragma once
#include <cstdint>

#include "bigtune/bigtune.hpp"

namespace bigtune::runtime {

// The bit-sizes of one call's batches for operands of `bits` bits, as bigtune
// check, the benchmark and the tests lay them out: full products and squares
// 2n, divmod n / (n/2) (seed 001's and TARGETS.md's shape), fused ops exact,
// modular ops all n with one modulus per instance, powm with an n-bit
// exponent, sqrt ceil(n/2). 0: the op takes no such batch.
struct OpLayout {
  uint64_t r_bits = 0;   // result (quotient for divmod); 0 for cmp
  uint64_t r2_bits = 0;  // divmod's remainder
  uint64_t b_bits = 0;   // second operand: divisor, exponent, addend's partner
  uint64_t c_bits = 0;   // mul_add's addend
  uint64_t m_bits = 0;   // modulus
  // One modulus for the whole batch (count 1) where plans are measured:
  // mulmod and sqrmod. The selector's plans for them serve calls with a
  // shared modulus only; a modulus per instance takes the plan
  // runtime/context_ops.cpp picks by its measured rule. powm's plans serve
  // both and are measured with a modulus per instance (the RSA-like batch).
  bool one_modulus = false;
  bool flags = false;    // carries, borrows, cmp results, zero divisors, missing inverses
};
OpLayout op_layout(Op op, uint64_t bits);

// The batches of one call; what the op does not take stays null.
struct OpBatches {
  Batch* r = nullptr;
  Batch* r2 = nullptr;
  const Batch* a = nullptr;
  const Batch* b = nullptr;
  const Batch* c = nullptr;
  const Batch* m = nullptr;
  Flags* flags = nullptr;
  uint64_t shift = 0;  // shl, shr
};

void run_op(Context& ctx, Op op, const OpBatches& batches, const Plan* plan = nullptr);

// The Kernels I form: `b` is ignored by shifts, `shift` by the rest; `flags`
// receives carries, borrows or the cmp result.
void run_op(Context& ctx, Op op, Batch& r, const Batch& a, const Batch& b, Flags* flags, uint64_t shift,
            const Plan* plan = nullptr);

}  // namespace bigtune::runtime
