// Explicit instances of classical mul_low and mul with 64-bit limbs,
// Q in {1, 2, 4, 8, 16} (each thread computes 2Q result limbs).
#include "kernels/variants/mul_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int Q>
void mul_pair(std::vector<Variant>& out) {
  using Limb = uint64_t;
  constexpr uint32_t threads = mul_max_threads<Limb, Q>();
  out.push_back(make_variant(Op::MulLow, "block", "classical", 64, Q, threads,
                             reinterpret_cast<const void*>(&mul_classical_kernel<Limb, Q, false>), block::kClassicalShape));
  out.push_back(make_variant(Op::Mul, "block", "classical", 64, Q, threads,
                             reinterpret_cast<const void*>(&mul_classical_kernel<Limb, Q, true>), block::kClassicalShape));
}
}  // namespace

void append_mul_u64_variants(std::vector<Variant>& out) {
  mul_pair<1>(out);
  mul_pair<2>(out);
  mul_pair<4>(out);
  mul_pair<8>(out);
  mul_pair<16>(out);
}

}  // namespace bigtune::kernels::variants
