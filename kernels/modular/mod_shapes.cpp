#include "kernels/modular/mod_shapes.hpp"

namespace bigtune::kernels::modular {

namespace {
uint32_t one_thread(const Variant&, uint64_t) { return 1; }
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
// The register arrays hold q 32-bit limbs: the operand, modulus and result
// must fit them.
uint64_t limb_capacity(const Variant& v) { return uint64_t(v.q) * 32; }
uint64_t modulus_scratch(const Variant& v, uint64_t, uint64_t) {
  const bool uses_modulus = v.op == Op::MulMod || v.op == Op::SqrMod || v.op == Op::PowM;
  return uses_modulus ? prepared_modulus_bytes(v.q) : 0;
}
}  // namespace

const ShapeRules kThreadModShape{one_thread, no_smem, limb_capacity, modulus_scratch, launch_thread_mod, false};

}  // namespace bigtune::kernels::modular
