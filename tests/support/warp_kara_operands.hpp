// Operand pairs (mpz) for Karatsuba products split at bit `half_bits` (the
// warp Karatsuba, kernels/variants/warp_kara.cuh). tests/support/
// kara_operands.hpp does the same in 64-bit words for the block Karatsuba,
// one kind per pair; here 3/4 of the pairs are test::make_pair's edge mix and
// the rest add the case it lacks (both differences negative). The mix plus
// the cases that steer the subtractive form's signs and differences:
// a0 = a1 (|a0 - a1| = 0), a0 < a1 with b0 > b1 (Pm added), a0 < a1 and
// b0 < b1 (both differences negated, Pm subtracted), a1 = 0 below an
// all-ones a0, and all-ones halves against one-limb halves.
#pragma once
#include <gmp.h>

#include <cstdint>

#include "tests/support/operands.hpp"

namespace bigtune::test {

// x = hi * 2^half + lo, reduced below 2^bits.
inline void join_halves(mpz_t x, const mpz_t hi, const mpz_t lo, uint64_t half, uint64_t bits) {
  mpz_mul_2exp(x, hi, half);
  mpz_add(x, x, lo);
  mpz_fdiv_r_2exp(x, x, bits);
}

// For instance i: make_pair for i % 16 < 12, else one of the cases above
// (when bits > half_bits; otherwise make_pair).
inline void make_split_pair(mpz_t a, mpz_t b, gmp_randstate_t rng, uint64_t bits, uint64_t half_bits, uint64_t i) {
  if (i % 16 < 12 || bits <= half_bits) return make_pair(a, b, rng, bits, i);
  const uint64_t hb = bits - half_bits;  // bits of the high halves
  mpz_t lo, hi, lo2, hi2;
  mpz_inits(lo, hi, lo2, hi2, nullptr);
  switch (i % 16) {
    case 12:  // a0 = a1 (as far as a1 reaches), b uniform
      make_operand(lo, rng, hb, OperandKind::Uniform);
      join_halves(a, lo, lo, half_bits, bits);
      make_operand(b, rng, bits, OperandKind::Uniform);
      break;
    case 13:  // a0 < a1, b0 > b1: (a0 - a1)(b0 - b1) < 0, Pm added
      make_operand(lo, rng, half_bits - 1, OperandKind::Uniform);
      make_operand(hi, rng, hb, OperandKind::HighBitOnly);
      join_halves(a, hi, lo, half_bits, bits);
      make_operand(lo2, rng, half_bits, OperandKind::AllOnes);
      make_operand(hi2, rng, hb, OperandKind::Uniform);
      join_halves(b, hi2, lo2, half_bits, bits);
      break;
    case 14:  // a0 < a1 and b0 < b1: both differences negative
      make_operand(lo, rng, hb > 1 ? hb - 1 : 1, OperandKind::Runs);
      make_operand(hi, rng, hb, OperandKind::AllOnes);
      join_halves(a, hi, lo, half_bits, bits);
      make_operand(lo2, rng, 1, OperandKind::One);
      make_operand(hi2, rng, hb, OperandKind::Uniform);
      mpz_setbit(hi2, hb - 1);
      join_halves(b, hi2, lo2, half_bits, bits);
      break;
    default:  // a1 = 0 under an all-ones a0; b all-ones halves
      make_operand(lo, rng, half_bits, OperandKind::AllOnes);
      mpz_set_ui(hi, 0);
      join_halves(a, hi, lo, half_bits, bits);
      make_operand(b, rng, bits, OperandKind::AllOnes);
      break;
  }
  mpz_clears(lo, hi, lo2, hi2, nullptr);
}

}  // namespace bigtune::test
