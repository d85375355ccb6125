#include "runtime/gmp_reference.hpp"

namespace bigtune::runtime {

void gmp_reference(Op op, uint64_t bits, uint64_t shift, const mpz_t a, const mpz_t b, mpz_t r, int* flag) {
  *flag = 0;
  switch (op) {
    case Op::Add:
      mpz_add(r, a, b);
      *flag = mpz_tstbit(r, bits);
      mpz_fdiv_r_2exp(r, r, bits);
      return;
    case Op::Sub:
      *flag = mpz_cmp(a, b) < 0;
      mpz_sub(r, a, b);
      mpz_fdiv_r_2exp(r, r, bits);  // two's complement modulo 2^bits
      return;
    case Op::Cmp: {
      const int c = mpz_cmp(a, b);
      *flag = (c > 0) - (c < 0);
      return;
    }
    case Op::Shl:
      if (shift >= bits) {
        mpz_set_ui(r, 0);
      } else {
        mpz_mul_2exp(r, a, shift);
        mpz_fdiv_r_2exp(r, r, bits);
      }
      return;
    case Op::Shr:
      if (shift >= bits) mpz_set_ui(r, 0);
      else mpz_fdiv_q_2exp(r, a, shift);
      return;
    case Op::MulLow:
      mpz_mul(r, a, b);
      mpz_fdiv_r_2exp(r, r, bits);
      return;
    case Op::Mul:
      mpz_mul(r, a, b);
      return;
  }
}

bool matches_gmp(Op op, uint64_t bits, uint64_t shift, const mpz_t a, const mpz_t b, const mpz_t value, int flag,
                 mpz_t want, int* want_flag) {
  gmp_reference(op, bits, shift, a, b, want, want_flag);
  const bool has_flag = op == Op::Add || op == Op::Sub || op == Op::Cmp;
  const bool value_ok = op == Op::Cmp || mpz_cmp(want, value) == 0;
  return value_ok && (!has_flag || flag == *want_flag);
}

}  // namespace bigtune::runtime
