#include "kernels/block/block_shapes.hpp"

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

namespace {
bool is_full_mul(const Variant& v) { return v.op == Op::Mul || v.op == Op::Sqr; }

uint32_t scan_threads(const Variant& v, uint64_t bits) {
  return scan_threads_per_instance(operand_limbs(v, bits), v.q);
}
uint64_t scan_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  return smem_bytes_padded(scan_smem_logical(operand_limbs(v, bits), ipb), v.limb_bits / 8);
}
uint32_t classical_threads(const Variant& v, uint64_t bits) {
  return mul_threads_per_instance(operand_limbs(v, bits), v.q, is_full_mul(v));
}
uint64_t classical_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  return smem_bytes_padded(mul_smem_logical(operand_limbs(v, bits), v.q, is_full_mul(v), ipb), v.limb_bits / 8);
}
}  // namespace

const ShapeRules kScanShape{scan_threads, scan_smem, nullptr, nullptr, nullptr, true};
const ShapeRules kClassicalShape{classical_threads, classical_smem, nullptr, nullptr, nullptr, false};

}  // namespace bigtune::kernels::block
