#include "kernels/warp/warp_rounds_shapes.hpp"

namespace bigtune::kernels::warp {

namespace {
uint32_t lanes(const Variant& v, uint64_t) { return v.param; }
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t register_cap(const Variant& v) { return uint64_t(v.param) * v.q * v.limb_bits; }

// The one-round geometry (registry's geometry(): ceil(count / ipb) blocks of
// ipb * L threads) with the grid divided by the rounds: block b covers the
// instances [b R ipb, (b + 1) R ipb).
cudaError_t rounds_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  KernelArgs copy = args;
  void* params[] = {&copy};
  const uint32_t grid = (g.grid + kWarpRounds - 1) / kWarpRounds;
  return cudaLaunchKernel(v.kernel, dim3(grid), dim3(g.block), params, g.smem_bytes, stream);
}
}  // namespace

const ShapeRules kWarpRoundsShape{lanes, no_smem, register_cap, nullptr, rounds_launch, false};

}  // namespace bigtune::kernels::warp
