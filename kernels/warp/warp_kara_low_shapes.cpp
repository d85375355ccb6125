#include "kernels/warp/warp_kara_low_shapes.hpp"

namespace bigtune::kernels::warp {

namespace {
uint32_t lanes(const Variant& v, uint64_t) { return v.param; }
// Static shared memory (8 KB at Q = 16 for the one-warp block): nothing dynamic.
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t register_cap(const Variant& v) { return 2ull * v.param * v.q * v.limb_bits; }
}  // namespace

const ShapeRules kWarpKaraLowShape{lanes, no_smem, register_cap, nullptr, nullptr, false};

}  // namespace bigtune::kernels::warp
