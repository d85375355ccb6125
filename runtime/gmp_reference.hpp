// What each bigtune op computes, written with GMP: the oracle `bigtune check`
// and the differential tests compare the GPU against. Deliberately simple and
// sharing no code with the kernels (STYLE.md, "reference code").
#pragma once
#include <gmp.h>

#include <cstdint>

#include "bigtune/bigtune.hpp"

namespace bigtune::runtime {

// r = op(a, b) for operands of `bits` bits (b ignored for shifts, `shift` for
// the others); *flag = carry (add), borrow (sub), -1/0/1 (cmp), else 0.
// For cmp, r is left untouched.
void gmp_reference(Op op, uint64_t bits, uint64_t shift, const mpz_t a, const mpz_t b, mpz_t r, int* flag);

// True when bigtune's result (value; flag for add, sub and cmp) is what GMP
// computes for op(a, b); `want` and `want_flag` receive GMP's, for reports.
bool matches_gmp(Op op, uint64_t bits, uint64_t shift, const mpz_t a, const mpz_t b, const mpz_t value, int flag,
                 mpz_t want, int* want_flag);

// Every op, with the batches of op_layout (run_op.hpp): a and b (divisor,
// exponent), c (addend), m (modulus) as the op takes them; `r_bits` is the
// result batch's bit-size (fused results are reduced modulo 2^r_bits).
// r2 receives divmod's remainder; *flag: carry, borrow, cmp, zero divisor
// (divmod: q = r = 0), no inverse (modinv: r = 0), else 0.
struct RefOperands {
  mpz_srcptr a = nullptr, b = nullptr, c = nullptr, m = nullptr;
  uint64_t shift = 0;
};
void gmp_reference(Op op, uint64_t bits, uint64_t r_bits, const RefOperands& in, mpz_ptr r, mpz_ptr r2, int* flag);

// Which parts of a result an op defines: the value (all but cmp), the second
// value (divmod) and the flag (add, sub, cmp, divmod, modinv).
bool op_has_value(Op op);
bool op_has_second_value(Op op);
bool op_has_flag(Op op);

}  // namespace bigtune::runtime
