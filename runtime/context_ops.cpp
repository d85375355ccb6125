// The Context methods of Kernels II-IV: squaring, division, fused and modular
// operations. Each checks its batches (validate.hpp) and hands the launch to
// Context::Impl; which kernels run is the registry's and the selector's matter.
#include <algorithm>
#include <optional>
#include <string>

#include "bigtune/bigtune.hpp"
#include "bigtune/detail/cuda_check.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/default_plan.hpp"
#include "runtime/validate.hpp"

namespace bigtune {

namespace {
void set_modulus(kernels::KernelArgs& k, const Batch& m, ExtraBits& extra) {
  k.m = m.device_data();
  k.m_shared = m.count() == 1 ? 1 : 0;
  extra.m = m.bits();
}

// The runtime's rules where the plan key (op, bits, count) cannot say what
// the kernels need, because it does not say whether the modulus is shared
// (default_plan.hpp says why each is chosen here, where that is known):
// mulmod and sqrmod with a modulus per instance (the selector's plans are
// measured with one for the batch), powm with one for the batch (the
// selector's are measured with one per instance). The caller's plan wins;
// null: the selector decides.
const Plan* modulus_rule_plan(Op op, const Batch& a, const Batch& m, const Plan* plan, Plan& own,
                              const kernels::DeviceLimits& limits) {
  if (plan) return plan;
  std::optional<Plan> p;
  if (m.count() != 1) p = runtime::per_instance_modulus_plan(op, a.bits());
  else if (op == Op::PowM) p = runtime::shared_modulus_powm_plan(a.bits(), a.count(), limits);
  if (!p) return plan;
  own = *p;
  // As the default plans do: no more instances a block than the batch has.
  own.ipb = uint32_t(std::min<uint64_t>(own.ipb, std::max<uint64_t>(a.count(), 1)));
  return &own;
}
}  // namespace

void Context::sqr(Batch& r, const Batch& a, const Plan* plan) {
  runtime::validate_shapes(Op::Sqr, shape_of(r), shape_of(a), {});
  impl_->launch(Op::Sqr, plan, a.bits(), a.count(), r.bits(), args_for(r.device_data(), a.device_data(), nullptr));
}

void Context::divmod(Batch& q, Batch& r, const Batch& u, const Batch& v, Flags* zero_divisor, const Plan* plan) {
  runtime::validate_divmod(shape_of(q), shape_of(r), shape_of(u), shape_of(v));
  check_flags("divmod", zero_divisor, u.count());
  // Without the caller's array the zero-divisor marks land in our own, which
  // is read back below: a zero divisor is an error, never a silent result.
  std::unique_ptr<Flags> own;
  if (!zero_divisor) own = std::make_unique<Flags>(*this, u.count());
  Flags& marks = zero_divisor ? *zero_divisor : *own;
  kernels::KernelArgs k = args_for(q.device_data(), u.device_data(), v.device_data());
  k.r2 = r.device_data();
  k.flags = marks.device_data();
  ExtraBits extra;
  extra.b = v.bits();
  extra.r2 = r.bits();
  impl_->launch(Op::DivMod, plan, u.bits(), u.count(), q.bits(), k, extra);
  if (own) {
    const std::vector<int32_t> z = own->download();
    for (size_t i = 0; i < z.size(); ++i)
      if (z[i])
        throw Error(ErrorCode::DivisionByZero, "divmod: instance " + std::to_string(i) + " has divisor 0",
                    "pass a Flags to divmod to get q = r = 0 and a mark for such instances instead");
  }
}

void Context::mul_add(Batch& r, const Batch& a, const Batch& b, const Batch& c, const Plan* plan) {
  runtime::validate_mul_add(shape_of(r), shape_of(a), shape_of(b), shape_of(c));
  kernels::KernelArgs k = args_for(r.device_data(), a.device_data(), b.device_data());
  k.c = c.device_data();
  ExtraBits extra;
  extra.c = c.bits();
  impl_->launch(Op::MulAdd, plan, a.bits(), a.count(), r.bits(), k, extra);
}

void Context::poly(Batch& r, const Batch& a, const Batch& b, const Plan* plan) {
  runtime::validate_shapes(Op::Poly, shape_of(r), shape_of(a), shape_of(b));
  impl_->launch(Op::Poly, plan, a.bits(), a.count(), r.bits(), args_for(r.device_data(), a.device_data(), b.device_data()));
}

void Context::mulmod(Batch& r, const Batch& a, const Batch& b, const Batch& m, const Plan* plan) {
  runtime::validate_modular(Op::MulMod, shape_of(r), shape_of(a), shape_of(b), shape_of(m));
  kernels::KernelArgs k = args_for(r.device_data(), a.device_data(), b.device_data());
  ExtraBits extra;
  set_modulus(k, m, extra);
  Plan own;
  impl_->launch(Op::MulMod, modulus_rule_plan(Op::MulMod, a, m, plan, own, impl_->limits), a.bits(), a.count(), r.bits(), k, extra);
}

void Context::sqrmod(Batch& r, const Batch& a, const Batch& m, const Plan* plan) {
  runtime::validate_modular(Op::SqrMod, shape_of(r), shape_of(a), {}, shape_of(m));
  kernels::KernelArgs k = args_for(r.device_data(), a.device_data(), nullptr);
  ExtraBits extra;
  set_modulus(k, m, extra);
  Plan own;
  impl_->launch(Op::SqrMod, modulus_rule_plan(Op::SqrMod, a, m, plan, own, impl_->limits), a.bits(), a.count(), r.bits(), k, extra);
}

void Context::powm(Batch& r, const Batch& x, const Batch& e, const Batch& m, const Plan* plan) {
  runtime::validate_modular(Op::PowM, shape_of(r), shape_of(x), shape_of(e), shape_of(m));
  kernels::KernelArgs k = args_for(r.device_data(), x.device_data(), nullptr);
  k.e = e.device_data();
  k.e_shared = e.count() == 1 ? 1 : 0;
  ExtraBits extra;
  extra.e = e.bits();
  set_modulus(k, m, extra);
  Plan own;
  impl_->launch(Op::PowM, modulus_rule_plan(Op::PowM, x, m, plan, own, impl_->limits), x.bits(), x.count(), r.bits(), k,
                extra);
}

void Context::gcd(Batch& r, const Batch& a, const Batch& b, const Plan* plan) {
  runtime::validate_modular(Op::Gcd, shape_of(r), shape_of(a), shape_of(b), shape_of(b));
  impl_->launch(Op::Gcd, plan, a.bits(), a.count(), r.bits(), args_for(r.device_data(), a.device_data(), b.device_data()));
}

void Context::modinv(Batch& r, const Batch& a, const Batch& m, Flags* no_inverse, const Plan* plan) {
  runtime::validate_modular(Op::ModInv, shape_of(r), shape_of(a), {}, shape_of(m));
  if (!no_inverse)
    throw Error(ErrorCode::InvalidArgument, "modinv: no Flags for the instances without an inverse",
                "pass a Flags of the batch's count");
  check_flags("modinv", no_inverse, a.count());
  kernels::KernelArgs k = args_for(r.device_data(), a.device_data(), nullptr);
  k.flags = no_inverse->device_data();
  ExtraBits extra;
  set_modulus(k, m, extra);
  impl_->launch(Op::ModInv, plan, a.bits(), a.count(), r.bits(), k, extra);
}

void Context::sqrt(Batch& r, const Batch& a, const Plan* plan) {
  runtime::validate_shapes(Op::Sqrt, shape_of(r), shape_of(a), {});
  impl_->launch(Op::Sqrt, plan, a.bits(), a.count(), r.bits(), args_for(r.device_data(), a.device_data(), nullptr));
}

}  // namespace bigtune
