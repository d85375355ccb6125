#include "runtime/validate.hpp"

#include <string>

namespace bigtune::runtime {

kernels::Op to_kernel_op(Op op) {
  switch (op) {
    case Op::Add: return kernels::Op::Add;
    case Op::Sub: return kernels::Op::Sub;
    case Op::Cmp: return kernels::Op::Cmp;
    case Op::Shl: return kernels::Op::Shl;
    case Op::Shr: return kernels::Op::Shr;
    case Op::MulLow: return kernels::Op::MulLow;
    case Op::Mul: return kernels::Op::Mul;
  }
  throw Error(ErrorCode::Internal, "unknown op");
}

namespace {
std::string shape_text(const char* name, Shape s) {
  return std::string(name) + " has " + std::to_string(s.count) + " instances of " + std::to_string(s.bits) +
         " bits";
}
void require(bool ok, const std::string& what, const std::string& what_to_do) {
  if (!ok) throw Error(ErrorCode::InvalidArgument, what, what_to_do);
}
}  // namespace

void validate_shapes(Op op, Shape r, Shape a, Shape b) {
  const std::string name = op_name(op);
  const bool binary = op != Op::Shl && op != Op::Shr;
  require(a.count > 0 && a.bits > 0, name + ": empty operand batch", "create batches with bits >= 1 and count >= 1");
  require(r.count == a.count, name + ": result and operand counts differ (" + shape_text("result", r) + ", " +
                                  shape_text("a", a) + ")",
          "use batches with the same count");
  if (binary) {
    require(b.count == a.count, name + ": operand counts differ (" + shape_text("a", a) + ", " +
                                    shape_text("b", b) + ")",
            "use batches with the same count");
    require(b.bits == a.bits, name + ": operand bit-sizes differ (" + shape_text("a", a) + ", " +
                                  shape_text("b", b) + ")",
            "use operands of the same bit-size (zero-extend the smaller)");
  }
  switch (op) {
    case Op::Cmp: return;  // r is the flags array: only its count matters
    case Op::Mul:
      require(r.bits >= 2 * a.bits, "mul: result of " + std::to_string(r.bits) +
                                        " bits is too small for the full product of two " +
                                        std::to_string(a.bits) + "-bit operands",
              "give the result batch at least " + std::to_string(2 * a.bits) + " bits, or use mul_low");
      return;
    default:
      require(r.bits == a.bits, name + ": result has " + std::to_string(r.bits) + " bits, operands " +
                                    std::to_string(a.bits),
              "use a result batch of the operands' bit-size");
  }
}

const kernels::Variant& validate_plan(const Plan& plan, Op op, uint64_t bits, uint64_t count,
                                      const kernels::DeviceLimits& limits) {
  const kernels::Variant* v = kernels::find_variant(plan.variant);
  if (!v)
    throw Error(ErrorCode::InvalidArgument, "plan names unknown variant '" + plan.variant + "'",
                "list the variants with `bigtune variants`");
  if (v->op != to_kernel_op(op))
    throw Error(ErrorCode::InvalidArgument,
                "plan variant '" + plan.variant + "' computes " + kernels::op_name(v->op) + ", not " + op_name(op),
                "choose a variant of this op (`bigtune variants --op " + std::string(op_name(op)) + "`)");
  const std::string why = kernels::why_invalid(*v, bits, count, plan.ipb, limits);
  if (!why.empty())
    throw Error(ErrorCode::Unsupported,
                "variant '" + plan.variant + "' cannot run " + std::to_string(bits) + "-bit operands with " +
                    std::to_string(plan.ipb) + " instances per block on " + limits.name + ": " + why,
                "use another plan, or none to let bigtune choose");
  return *v;
}

}  // namespace bigtune::runtime
