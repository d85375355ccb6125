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

}  // namespace bigtune::runtime
