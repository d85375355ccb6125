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

}  // namespace bigtune::runtime
