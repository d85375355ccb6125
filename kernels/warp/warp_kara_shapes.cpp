#include "kernels/warp/warp_kara_shapes.hpp"
#include "kernels/warp/warp_kara_low_shapes.hpp"

namespace bigtune::kernels::warp {

namespace {
uint32_t lanes(const Variant& v, uint64_t) { return v.param; }
// The kernel's shared memory is static (12 KB at Q = 16 for the one-warp
// block): nothing dynamic to request.
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t register_cap(const Variant& v) { return 2ull * v.param * v.q * v.limb_bits; }
}  // namespace

const ShapeRules kWarpKaraShape{lanes, no_smem, register_cap, nullptr, nullptr, false};
// The warp low half by halves (mul_low.wlow) has the same rules (its static
// shared memory is 8 KB at Q = 16); its own object lets the tests and the
// tuner tell the two kernels apart.
const ShapeRules kWarpKaraLowShape{lanes, no_smem, register_cap, nullptr, nullptr, false};

}  // namespace bigtune::kernels::warp
