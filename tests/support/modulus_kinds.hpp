// Moduli for the Barrett tests (the fused warp Barrett kernels' CPU
// emulation tests): ten kinds, chosen by kind % 10, below 2^bits.
#pragma once
#include <gmp.h>

#include <cstdint>

namespace bigtune::test {

// full-width odd and even, 2^b - 1, 2^(b-1) + 1, 2^(b-1), 1, 2, a short odd
// one (operands >> m), long runs of ones and zeros, 3.
inline void make_modulus_of_kind(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint32_t kind) {
  mpz_set_ui(m, 0);
  switch (kind % 10) {
    case 0: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;  // full odd
    case 1: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_clrbit(m, 0); break;  // full even
    case 2: mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;                              // 2^b - 1
    case 3: mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;                          // 2^(b-1) + 1
    case 4: mpz_setbit(m, bits - 1); break;                                               // 2^(b-1)
    case 5: mpz_set_ui(m, 1); break;
    case 6: mpz_set_ui(m, 2); break;
    case 7: mpz_urandomb(m, rng, 1 + bits / 3), mpz_setbit(m, 0); break;  // short: operands >> m
    case 8: mpz_rrandomb(m, rng, bits); break;                           // long runs of ones and zeros
    default: mpz_set_ui(m, 3); break;
  }
  mpz_tdiv_r_2exp(m, m, bits);
  if (mpz_sgn(m) == 0) mpz_set_ui(m, 1);
}

}  // namespace bigtune::test
