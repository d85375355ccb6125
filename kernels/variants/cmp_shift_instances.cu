// Explicit instances of cmp, shl and shr: limb {u32, u64} x Q {1, 2, 4, 8, 16}.
#include "kernels/variants/scan_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
template <class Limb, int Q>
void cmp_shift_triple(std::vector<Variant>& out) {
  constexpr uint32_t bits = sizeof(Limb) * 8;
  out.push_back(make_variant(Op::Cmp, "block", "scan", bits, Q, 1024,
                             reinterpret_cast<const void*>(&cmp_kernel<Limb, Q>), block::kScanShape));
  out.push_back(make_variant(Op::Shl, "block", "scan", bits, Q, 1024,
                             reinterpret_cast<const void*>(&shift_kernel<Limb, Q, true>), block::kScanShape));
  out.push_back(make_variant(Op::Shr, "block", "scan", bits, Q, 1024,
                             reinterpret_cast<const void*>(&shift_kernel<Limb, Q, false>), block::kScanShape));
}
template <class Limb>
void cmp_shift_all_q(std::vector<Variant>& out) {
  cmp_shift_triple<Limb, 1>(out);
  cmp_shift_triple<Limb, 2>(out);
  cmp_shift_triple<Limb, 4>(out);
  cmp_shift_triple<Limb, 8>(out);
  cmp_shift_triple<Limb, 16>(out);
}
}  // namespace

void append_cmp_shift_variants(std::vector<Variant>& out) {
  cmp_shift_all_q<uint32_t>(out);
  cmp_shift_all_q<uint64_t>(out);
}

}  // namespace bigtune::kernels::variants
