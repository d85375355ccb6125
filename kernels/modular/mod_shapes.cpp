#include "kernels/modular/mod_shapes.hpp"

#include "kernels/modular/mod64.cuh"

namespace bigtune::kernels::modular {

namespace {
uint32_t one_thread(const Variant&, uint64_t) { return 1; }
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
// The register arrays hold q limbs: the operand, modulus and result must fit
// them.
uint64_t limb_capacity(const Variant& v) { return uint64_t(v.q) * v.limb_bits; }
uint64_t modulus_scratch(const Variant& v, uint64_t, uint64_t) {
  const bool uses_modulus = v.op == Op::MulMod || v.op == Op::SqrMod || v.op == Op::PowM;
  return uses_modulus ? prepared_modulus_bytes(v.q) : 0;
}
uint64_t divisor_scratch(const Variant& v, uint64_t, uint64_t) {
  const bool uses_modulus = v.op == Op::MulMod || v.op == Op::SqrMod || v.op == Op::PowM;
  return uses_modulus ? sizeof(Divisor64) : 0;
}
}  // namespace

const ShapeRules kThreadModShape{one_thread, no_smem, limb_capacity, modulus_scratch, launch_thread_mod, false};
const ShapeRules kThreadMod64Shape{one_thread, no_smem, limb_capacity, divisor_scratch, launch_thread_mod64, false};

}  // namespace bigtune::kernels::modular
