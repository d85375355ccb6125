#include "runtime/validate.hpp"

#include <string>

namespace bigtune::runtime {

kernels::Op to_kernel_op(Op op) {
  static_assert(int(Op::Sqrt) == int(kernels::Op::Sqrt) && int(Op::PowM) == int(kernels::Op::PowM),
                "bigtune::Op mirrors kernels::Op value for value");
  if (int(op) < 0 || int(op) > int(Op::Sqrt)) throw Error(ErrorCode::Internal, "unknown op");
  return static_cast<kernels::Op>(static_cast<int>(op));
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

// Every launch validates its shapes; building the messages of the checks
// that pass (a dozen std::string concatenations) cost a few microseconds of
// host time per call, which a synchronous caller and the benchmark's event
// timing see: ~1 % of an add at 2^20 bits (bench/notes/add-cluster.md).
bool shapes_valid(Op op, Shape r, Shape a, Shape b) {
  const bool binary = op != Op::Shl && op != Op::Shr && op != Op::Sqr && op != Op::Sqrt;
  if (!(a.count > 0 && a.bits > 0) || r.count != a.count) return false;
  if (binary && (b.count != a.count || b.bits != a.bits)) return false;
  switch (op) {
    case Op::Cmp:
    case Op::Poly: return true;
    case Op::Mul:
    case Op::Sqr: return r.bits >= 2 * a.bits;
    case Op::Sqrt: return r.bits >= (a.bits + 1) / 2;
    default: return r.bits == a.bits;
  }
}

void validate_shapes(Op op, Shape r, Shape a, Shape b) {
  if (shapes_valid(op, r, a, b)) return;
  validate_shapes_reporting(op, r, a, b);
}

void validate_shapes_reporting(Op op, Shape r, Shape a, Shape b) {
  const std::string name = op_name(op);
  const bool binary = op != Op::Shl && op != Op::Shr && op != Op::Sqr && op != Op::Sqrt;
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
    case Op::Sqr:
      require(r.bits >= 2 * a.bits, name + ": result of " + std::to_string(r.bits) +
                                        " bits is too small for the full product of two " +
                                        std::to_string(a.bits) + "-bit operands",
              "give the result batch at least " + std::to_string(2 * a.bits) + " bits, or use mul_low");
      return;
    case Op::Poly: return;  // reduced modulo 2^r.bits
    case Op::Sqrt:
      require(r.bits >= (a.bits + 1) / 2, "sqrt: result of " + std::to_string(r.bits) + " bits cannot hold the root of a " +
                                              std::to_string(a.bits) + "-bit operand",
              "give the result batch at least " + std::to_string((a.bits + 1) / 2) + " bits");
      return;
    default:
      require(r.bits == a.bits, name + ": result has " + std::to_string(r.bits) + " bits, operands " +
                                    std::to_string(a.bits),
              "use a result batch of the operands' bit-size");
  }
}

void validate_divmod(Shape q, Shape r, Shape u, Shape v) {
  require(u.count > 0 && u.bits > 0 && v.bits > 0, "divmod: empty operand batch",
          "create batches with bits >= 1 and count >= 1");
  require(v.count == u.count && q.count == u.count && r.count == u.count,
          "divmod: batch counts differ (" + shape_text("u", u) + ", " + shape_text("v", v) + ", " +
              shape_text("q", q) + ", " + shape_text("r", r) + ")",
          "use batches with the same count");
  require(v.bits <= u.bits, "divmod: divisor of " + std::to_string(v.bits) + " bits is longer than the dividend's " +
                                std::to_string(u.bits),
          "zero-extend the dividend to the divisor's bit-size");
  require(q.bits == u.bits, "divmod: quotient has " + std::to_string(q.bits) + " bits, dividend " +
                                std::to_string(u.bits),
          "give the quotient batch the dividend's bit-size");
  require(r.bits == v.bits, "divmod: remainder has " + std::to_string(r.bits) + " bits, divisor " +
                                std::to_string(v.bits),
          "give the remainder batch the divisor's bit-size");
}

void validate_mul_add(Shape r, Shape a, Shape b, Shape c) {
  validate_shapes(Op::Poly, r, a, b);  // same counts and operand sizes; result reduced
  require(c.count == a.count, "mul_add: addend count differs (" + shape_text("c", c) + ", " + shape_text("a", a) + ")",
          "use batches with the same count");
  require(c.bits <= r.bits, "mul_add: addend of " + std::to_string(c.bits) + " bits is wider than the result's " +
                                std::to_string(r.bits),
          "give the result at least the addend's bit-size");
}

void validate_modular(Op op, Shape r, Shape a, Shape b, Shape m) {
  const std::string name = op_name(op);
  require(a.count > 0 && a.bits > 0, name + ": empty operand batch", "create batches with bits >= 1 and count >= 1");
  require(m.count == 1 || m.count == a.count,
          name + ": " + shape_text("m", m) + " for " + std::to_string(a.count) + " instances",
          "give one modulus for the whole batch (count 1) or one per instance");
  require(m.bits == a.bits && r.bits == a.bits,
          name + ": operands, result and modulus need one bit-size (" + shape_text("a", a) + ", " +
              shape_text("m", m) + ", " + shape_text("result", r) + ")",
          "zero-extend all of them to the modulus' bit-size");
  require(r.count == a.count, name + ": result and operand counts differ", "use batches with the same count");
  if (op == Op::PowM) {
    require(b.count == 1 || b.count == a.count,
            "powm: " + shape_text("e", b) + " for " + std::to_string(a.count) + " instances",
            "give one exponent for the whole batch (count 1) or one per instance");
    require(b.bits > 0, "powm: empty exponent batch", "create the exponents with bits >= 1");
  } else if (op == Op::MulMod || op == Op::Gcd) {
    require(b.count == a.count && b.bits == a.bits,
            name + ": operands differ (" + shape_text("a", a) + ", " + shape_text("b", b) + ")",
            "use operands of the same count and bit-size");
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
