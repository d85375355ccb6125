// The registry entries of the thread-level modular family for one N (32-bit
// limbs per instance); the *_instances.cu files call this for their Ns.
//
// Order matters while runtime/default_plan.cpp has no modular rule: it takes
// the first valid variant of an op in registry order, so each N appears in
// increasing order (the smallest register array that holds the size) and,
// within an N, the powm variant expected to win first: sliding windows need
// about bits(e)/(w+1) multiplies against bits(e)/w for fixed ones (modexp.cuh),
// so sliding w5 leads for N >= 16, sliding w4 below (its 8-entry table is
// cheaper to build for short operands).
#pragma once
#include <string>
#include <vector>

#include "kernels/modular/mod_shapes.hpp"
#include "kernels/variants/mod_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {

template <int N>
void append_mod_for(std::vector<Variant>& out) {
  const ShapeRules& s = modular::kThreadModShape;
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  out.push_back(make_variant(Op::MulMod, "thread", "mont", 32, N, kModThreads, k(&mulmod_thread_kernel<N>), s));
  out.push_back(make_variant(Op::SqrMod, "thread", "mont", 32, N, kModThreads, k(&mulmod_thread_kernel<N>), s));
  struct Window {
    const char* algorithm;
    uint32_t w;
  };
  const Window big[] = {{"sliding", 5}, {"sliding", 4}, {"fixed", 4}, {"fixed", 3}};
  const Window small[] = {{"sliding", 4}, {"sliding", 5}, {"fixed", 4}, {"fixed", 3}};
  const Window* order = N >= 16 ? big : small;
  for (int i = 0; i < 4; ++i) {
    const Window& w = order[i];
    out.push_back(make_variant(Op::PowM, "thread", w.algorithm, 32, N, kModThreads, k(&powm_thread_kernel<N>), s,
                               "w" + std::to_string(w.w), w.w));
  }
  out.push_back(make_variant(Op::Gcd, "thread", "binary", 32, N, kModThreads, k(&gcd_thread_kernel<N>), s));
  out.push_back(make_variant(Op::ModInv, "thread", "binary", 32, N, kModThreads, k(&modinv_thread_kernel<N>), s));
  out.push_back(make_variant(Op::Sqrt, "thread", "bitwise", 32, N, kModThreads, k(&sqrt_thread_kernel<N>), s));
}

}  // namespace bigtune::kernels::variants
