// Shape rules of the warp-level modular family (kernels/variants/
// warp_mod_kernels.cuh): L = param & 0xff lanes per instance, Q 32-bit limbs
// per lane (at most 32 L Q bits), powm's window w = param >> 8 with its table
// of 2^w entries in dynamic shared memory, and a scratch header (plus the
// shared modulus' constants) in global memory.
#pragma once
#include "kernels/registry.hpp"

namespace bigtune::kernels::warp {

extern const ShapeRules kWarpModShape;
// powm with its window table in global scratch (task modfast): no shared
// memory; scratch grows with the instance count (2^w N 4 bytes each).
extern const ShapeRules kWarpModGlobalTableShape;

constexpr uint32_t warp_mod_param(uint32_t lanes, uint32_t window) { return lanes | (window << 8); }
constexpr uint32_t warp_mod_lanes(uint32_t param) { return param & 0xffu; }
constexpr uint32_t warp_mod_window(uint32_t param) { return param >> 8; }

// The family's launch (kernels/variants/warp_mod_launch.cu): zeroes the
// scratch header, prepares a shared modulus, runs the variant's kernel, then
// the thread family's kernel of the same size on the even moduli, if any.
cudaError_t launch_warp_mod(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream);

}  // namespace bigtune::kernels::warp
