// The registry entries of the warp-level modular family for one (L, Q); the
// warp_mod_instances_*.cu files call this for their shapes. Named
// "<op>.mont.u32.q<Q>.l<L>" and "powm.fixed.u32.q<Q>.l<L>.w<w>".
#pragma once
#include <string>
#include <vector>

#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_mod_kernels.cuh"
#include "kernels/warp/warp_mod_shapes.hpp"

namespace bigtune::kernels::variants {

template <int L, int Q>
void append_warp_mod_for(std::vector<Variant>& out, std::initializer_list<uint32_t> windows) {
  const ShapeRules& s = warp::kWarpModShape;
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  const std::string lanes = "l" + std::to_string(L);
  const uint32_t t = kWarpModMaxThreads;
  out.push_back(make_variant(Op::MulMod, "warp", "mont", 32, Q, t, k(&mulmod_warp_kernel<L, Q>), s, lanes,
                             warp::warp_mod_param(L, 0)));
  out.push_back(make_variant(Op::SqrMod, "warp", "mont", 32, Q, t, k(&mulmod_warp_kernel<L, Q>), s, lanes,
                             warp::warp_mod_param(L, 0)));
  for (uint32_t w : windows)
    out.push_back(make_variant(Op::PowM, "warp", "fixed", 32, Q, t, k(&powm_warp_kernel<L, Q>), s,
                               lanes + ".w" + std::to_string(w), warp::warp_mod_param(L, w)));
}

}  // namespace bigtune::kernels::variants
