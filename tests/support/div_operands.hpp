// Dividend/divisor pairs for division tests (the warp Newton divmod's
// emulation and GPU tests): instance i of a batch picks a divisor kind by
// i mod 10 — n/2 bits with its top bit set (the benchmark's shape), a random
// length (every length from 1 bit to n over a batch), 1, 2^k, 2^(n/2) - 1,
// one or two limbs, 0 (the zero-divisor flag), v = u, v > u, and the
// all-ones pair (2^n - 1) / (2^(n/2) - 1) — and every 17th instance is
// rebuilt as u = v q + (v - 1), the largest remainder.
#pragma once
#include <gmp.h>

#include <cstdint>

#include "tests/support/operands.hpp"

namespace bigtune::test {

enum class DivisorKind { Half, Random, One, Pow2, HalfOnes, Short, Zero, Equal, Bigger, AllOnes, kCount };

// u below 2^bits, v below 2^vbits (vbits <= bits: the divisor batch's width).
inline void make_div_case(mpz_t u, mpz_t v, gmp_randstate_t rng, uint64_t bits, uint64_t vbits, uint64_t i) {
  const uint64_t half = (bits + 1) / 2;
  make_operand(u, rng, bits, static_cast<OperandKind>((i / 3) % kOperandKinds));
  switch (static_cast<DivisorKind>(i % int(DivisorKind::kCount))) {
    case DivisorKind::Half: mpz_urandomb(v, rng, half), mpz_setbit(v, half - 1); break;
    case DivisorKind::Random: mpz_urandomb(v, rng, 1 + (i * 7919) % bits); break;
    case DivisorKind::One: mpz_set_ui(v, 1); break;
    case DivisorKind::Pow2: mpz_set_ui(v, 0), mpz_setbit(v, (i * 131) % bits); break;
    case DivisorKind::HalfOnes: mpz_set_ui(v, 0), mpz_setbit(v, half), mpz_sub_ui(v, v, 1); break;
    case DivisorKind::Short: mpz_urandomb(v, rng, 1 + i % 40); break;
    case DivisorKind::Zero: mpz_set_ui(v, 0); break;
    case DivisorKind::Equal: mpz_set(v, u); break;
    case DivisorKind::Bigger:
      mpz_urandomb(v, rng, bits), mpz_setbit(v, bits - 1);
      if (bits > 1) mpz_urandomb(u, rng, bits - 1);
      else mpz_set_ui(u, 0);
      break;
    case DivisorKind::AllOnes:
      mpz_set_ui(v, 0), mpz_setbit(v, half), mpz_sub_ui(v, v, 1);
      mpz_set_ui(u, 0), mpz_setbit(u, bits), mpz_sub_ui(u, u, 1);
      break;
    default: break;
  }
  mpz_fdiv_r_2exp(v, v, vbits);
  if (i % 17 == 5 && mpz_sgn(v) > 0) {  // u = v floor(u/v) - 1 = v q' + (v - 1): the largest remainder
    mpz_t q;
    mpz_init(q);
    mpz_fdiv_q(q, u, v);
    if (mpz_sgn(q) > 0) {
      mpz_mul(u, q, v);
      mpz_sub_ui(u, u, 1);
    }
    mpz_clear(q);
  }
}

}  // namespace bigtune::test
