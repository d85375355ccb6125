#include "kernels/warp/warp_mod_shapes.hpp"

#include "kernels/warp/warp_mod_layout.hpp"

namespace bigtune::kernels::warp {

namespace {

uint32_t lanes(const Variant& v, uint64_t) { return warp_mod_lanes(v.param); }
uint64_t table_smem(const Variant& v, uint64_t, uint32_t ipb) {
  if (v.op != Op::PowM) return 0;
  // Every segment of the block's warps runs the kernel (full-mask shuffles),
  // the padding ones past ipb too, and each writes its table: whole warps.
  const uint64_t l = warp_mod_lanes(v.param), segments = (uint64_t(ipb) * l + 31) / 32 * 32 / l;
  return segments * warp_mod_table_stride(uint32_t(l), v.q, warp_mod_window(v.param)) * 4;
}
uint64_t register_cap(const Variant& v) { return uint64_t(warp_mod_lanes(v.param)) * v.q * 32; }
uint64_t header_and_modulus(const Variant& v, uint64_t, uint64_t) {
  return warp_mod_scratch_words(warp_mod_lanes(v.param), v.q) * 4;
}
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
// powm_warp_global_kernel: the header, the shared modulus, then one table per
// instance (warp_mod_layout.hpp).
uint64_t header_modulus_tables(const Variant& v, uint64_t, uint64_t count) {
  const uint32_t l = warp_mod_lanes(v.param);
  return (warp_mod_global_table_offset(l, v.q) +
          warp_mod_global_table_slots(l, count) * warp_mod_global_table_words(l, v.q, warp_mod_window(v.param))) *
         4;
}
}  // namespace

const ShapeRules kWarpModShape{lanes, table_smem, register_cap, header_and_modulus, launch_warp_mod, false};
const ShapeRules kWarpModGlobalTableShape{lanes, no_smem, register_cap, header_modulus_tables, launch_warp_mod, false};

}  // namespace bigtune::kernels::warp
