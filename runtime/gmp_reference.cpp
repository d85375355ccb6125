#include "runtime/gmp_reference.hpp"

#include <string>

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
    default:
      throw Error(ErrorCode::Internal, std::string("gmp_reference: ") + op_name(op) + " needs the RefOperands form");
  }
}

void gmp_reference(Op op, uint64_t bits, uint64_t r_bits, const RefOperands& in, mpz_ptr r, mpz_ptr r2,
                   int* flag) {
  *flag = 0;
  switch (op) {
    case Op::Add:
    case Op::Sub:
    case Op::Cmp:
    case Op::Shl:
    case Op::Shr:
    case Op::MulLow:
    case Op::Mul: gmp_reference(op, bits, in.shift, in.a, in.b, r, flag); return;
    case Op::Sqr: mpz_mul(r, in.a, in.a); return;
    case Op::DivMod:
      if (mpz_sgn(in.b) == 0) {
        mpz_set_ui(r, 0);
        mpz_set_ui(r2, 0);
        *flag = 1;
      } else {
        mpz_tdiv_qr(r, r2, in.a, in.b);
      }
      return;
    case Op::MulAdd:
      mpz_mul(r, in.a, in.b);
      mpz_add(r, r, in.c);
      mpz_fdiv_r_2exp(r, r, r_bits);
      return;
    case Op::Poly: {
      mpz_t t;
      mpz_init(t);
      mpz_mul(r, in.a, in.a);  // a*a + b
      mpz_add(r, r, in.b);
      mpz_mul(t, in.b, in.b);  // b*b + b
      mpz_add(t, t, in.b);
      mpz_mul(r, r, t);
      mpz_mul(t, in.a, in.b);
      mpz_add(r, r, t);
      mpz_fdiv_r_2exp(r, r, r_bits);
      mpz_clear(t);
      return;
    }
    case Op::MulMod:
      mpz_mul(r, in.a, in.b);
      mpz_mod(r, r, in.m);
      return;
    case Op::SqrMod:
      mpz_mul(r, in.a, in.a);
      mpz_mod(r, r, in.m);
      return;
    case Op::PowM: mpz_powm(r, in.a, in.b, in.m); return;  // x^0 mod 1 = 0, as GMP
    case Op::Gcd: mpz_gcd(r, in.a, in.b); return;
    case Op::ModInv:
      if (!mpz_invert(r, in.a, in.m)) {
        mpz_set_ui(r, 0);
        *flag = 1;
      }
      return;
    case Op::Sqrt: mpz_sqrt(r, in.a); return;
  }
}

bool op_has_value(Op op) { return op != Op::Cmp; }
bool op_has_second_value(Op op) { return op == Op::DivMod; }
bool op_has_flag(Op op) {
  return op == Op::Add || op == Op::Sub || op == Op::Cmp || op == Op::DivMod || op == Op::ModInv;
}

bool matches_gmp(Op op, uint64_t bits, uint64_t shift, const mpz_t a, const mpz_t b, const mpz_t value, int flag,
                 mpz_t want, int* want_flag) {
  gmp_reference(op, bits, shift, a, b, want, want_flag);
  const bool has_flag = op == Op::Add || op == Op::Sub || op == Op::Cmp;
  const bool value_ok = op == Op::Cmp || mpz_cmp(want, value) == 0;
  return value_ok && (!has_flag || flag == *want_flag);
}

}  // namespace bigtune::runtime
