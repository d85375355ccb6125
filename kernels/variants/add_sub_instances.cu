// Explicit instances of add and sub: limb {u32, u64} x Q {1, 2, 4, 8, 16}.
#include "kernels/variants/scan_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
template <class Limb, int Q>
void add_sub_pair(std::vector<Variant>& out) {
  constexpr uint32_t bits = sizeof(Limb) * 8;
  out.push_back(make_variant(Op::Add, "block", "scan", bits, Q, 1024,
                             reinterpret_cast<const void*>(&add_sub_kernel<Limb, Q, false>), block::kScanShape));
  out.push_back(make_variant(Op::Sub, "block", "scan", bits, Q, 1024,
                             reinterpret_cast<const void*>(&add_sub_kernel<Limb, Q, true>), block::kScanShape));
}
template <class Limb>
void add_sub_all_q(std::vector<Variant>& out) {
  add_sub_pair<Limb, 1>(out);
  add_sub_pair<Limb, 2>(out);
  add_sub_pair<Limb, 4>(out);
  add_sub_pair<Limb, 8>(out);
  add_sub_pair<Limb, 16>(out);
}
}  // namespace

void append_add_sub_variants(std::vector<Variant>& out) {
  add_sub_all_q<uint32_t>(out);
  add_sub_all_q<uint64_t>(out);
}

}  // namespace bigtune::kernels::variants
