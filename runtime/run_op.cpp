#include "runtime/run_op.hpp"

namespace bigtune::runtime {

void run_op(Context& ctx, Op op, Batch& r, const Batch& a, const Batch& b, Flags* flags, uint64_t shift,
            const Plan* plan) {
  switch (op) {
    case Op::Add: ctx.add(r, a, b, flags, plan); return;
    case Op::Sub: ctx.sub(r, a, b, flags, plan); return;
    case Op::Cmp:
      if (!flags) throw Error(ErrorCode::InvalidArgument, "cmp needs flags for its results", "pass a Flags");
      ctx.cmp(*flags, a, b, plan);
      return;
    case Op::Shl: ctx.shl(r, a, shift, plan); return;
    case Op::Shr: ctx.shr(r, a, shift, plan); return;
    case Op::MulLow: ctx.mul_low(r, a, b, plan); return;
    case Op::Mul: ctx.mul(r, a, b, plan); return;
  }
}

}  // namespace bigtune::runtime
