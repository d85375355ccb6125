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

}  // namespace bigtune::runtime
