#include "kernels/thread/thread_shapes.hpp"

#include "kernels/thread/thread_layout.hpp"

namespace bigtune::kernels::thread {

namespace {
uint32_t one_thread(const Variant&, uint64_t) { return 1; }
uint64_t region_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  return region_smem_bytes(operand_limbs(v, bits), ipb, v.limb_bits / 8);
}
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t register_cap(const Variant& v) { return uint64_t(v.q) * v.limb_bits; }
}  // namespace

const ShapeRules kRegisterShape{one_thread, region_smem, register_cap, nullptr, nullptr, false};
const ShapeRules kStreamShape{one_thread, region_smem, register_cap, nullptr, nullptr, false};
const ShapeRules kDirectShape{one_thread, no_smem, register_cap, nullptr, nullptr, false};

}  // namespace bigtune::kernels::thread
