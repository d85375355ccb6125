#include "runtime/run_op.hpp"

#include <string>

namespace bigtune::runtime {

OpLayout op_layout(Op op, uint64_t n) {
  OpLayout l;
  switch (op) {
    case Op::Add:
    case Op::Sub: l.r_bits = n, l.b_bits = n, l.flags = true; break;
    case Op::Cmp: l.b_bits = n, l.flags = true; break;
    case Op::Shl:
    case Op::Shr: l.r_bits = n; break;
    case Op::MulLow: l.r_bits = n, l.b_bits = n; break;
    case Op::Mul: l.r_bits = 2 * n, l.b_bits = n; break;
    case Op::Sqr: l.r_bits = 2 * n; break;
    case Op::DivMod: l.r_bits = n, l.b_bits = (n + 1) / 2, l.r2_bits = (n + 1) / 2, l.flags = true; break;
    case Op::MulAdd: l.r_bits = 2 * n + 1, l.b_bits = n, l.c_bits = 2 * n; break;
    case Op::Poly: l.r_bits = 4 * n + 2, l.b_bits = n; break;
    case Op::MulMod: l.r_bits = n, l.b_bits = n, l.m_bits = n, l.one_modulus = true; break;
    case Op::SqrMod: l.r_bits = n, l.m_bits = n, l.one_modulus = true; break;
    case Op::PowM: l.r_bits = n, l.b_bits = n, l.m_bits = n; break;
    case Op::Gcd: l.r_bits = n, l.b_bits = n; break;
    case Op::ModInv: l.r_bits = n, l.m_bits = n, l.flags = true; break;
    case Op::Sqrt: l.r_bits = (n + 1) / 2; break;
  }
  return l;
}

namespace {
template <class T>
T& need(T* p, Op op, const char* what) {
  if (!p)
    throw Error(ErrorCode::InvalidArgument, std::string(op_name(op)) + " needs the batch '" + what + "'",
                "fill that field of OpBatches (see op_layout)");
  return *p;
}
}  // namespace

void run_op(Context& ctx, Op op, const OpBatches& x, const Plan* plan) {
  switch (op) {
    case Op::Add: ctx.add(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), x.flags, plan); return;
    case Op::Sub: ctx.sub(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), x.flags, plan); return;
    case Op::Cmp: ctx.cmp(need(x.flags, op, "flags"), need(x.a, op, "a"), need(x.b, op, "b"), plan); return;
    case Op::Shl: ctx.shl(need(x.r, op, "r"), need(x.a, op, "a"), x.shift, plan); return;
    case Op::Shr: ctx.shr(need(x.r, op, "r"), need(x.a, op, "a"), x.shift, plan); return;
    case Op::MulLow: ctx.mul_low(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), plan); return;
    case Op::Mul: ctx.mul(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), plan); return;
    case Op::Sqr: ctx.sqr(need(x.r, op, "r"), need(x.a, op, "a"), plan); return;
    case Op::DivMod:
      ctx.divmod(need(x.r, op, "r"), need(x.r2, op, "r2"), need(x.a, op, "a"), need(x.b, op, "b"), x.flags, plan);
      return;
    case Op::MulAdd:
      ctx.mul_add(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), need(x.c, op, "c"), plan);
      return;
    case Op::Poly: ctx.poly(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), plan); return;
    case Op::MulMod:
      ctx.mulmod(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), need(x.m, op, "m"), plan);
      return;
    case Op::SqrMod: ctx.sqrmod(need(x.r, op, "r"), need(x.a, op, "a"), need(x.m, op, "m"), plan); return;
    case Op::PowM:
      ctx.powm(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), need(x.m, op, "m"), plan);
      return;
    case Op::Gcd: ctx.gcd(need(x.r, op, "r"), need(x.a, op, "a"), need(x.b, op, "b"), plan); return;
    case Op::ModInv: ctx.modinv(need(x.r, op, "r"), need(x.a, op, "a"), need(x.m, op, "m"), x.flags, plan); return;
    case Op::Sqrt: ctx.sqrt(need(x.r, op, "r"), need(x.a, op, "a"), plan); return;
  }
}

void run_op(Context& ctx, Op op, Batch& r, const Batch& a, const Batch& b, Flags* flags, uint64_t shift,
            const Plan* plan) {
  OpBatches x;
  x.r = &r;
  x.a = &a;
  x.b = &b;
  x.flags = flags;
  x.shift = shift;
  run_op(ctx, op, x, plan);
}

}  // namespace bigtune::runtime
