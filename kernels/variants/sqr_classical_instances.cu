// Classical squaring (seed 000 §3): the full-product kernel reading one
// operand (mul_kernels.cuh, kSquare), 64-bit limbs, Q in {4, 8, 16} (the Q the
// full product's default plan uses). It does the same n^2 products as mul:
// the symmetric half is not skipped, so it only saves the second operand's
// global reads; the NTT squaring (ntt_instances.cu) saves a whole transform.
#include "kernels/variants/mul_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int Q>
void sqr_one(std::vector<Variant>& out) {
  using Limb = uint64_t;
  out.push_back(make_variant(Op::Sqr, "block", "classical", 64, Q, mul_max_threads<Limb, Q>(),
                             reinterpret_cast<const void*>(&mul_classical_kernel<Limb, Q, true, true>),
                             block::kClassicalShape));
}
}  // namespace

void append_sqr_classical_variants(std::vector<Variant>& out) {
  sqr_one<4>(out);
  sqr_one<8>(out);
  sqr_one<16>(out);
}

}  // namespace bigtune::kernels::variants
