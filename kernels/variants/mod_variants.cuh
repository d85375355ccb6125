// The registry entries of the thread-level modular family for one N (32-bit
// limbs per instance); the *_instances.cu files call this for their Ns.
//
// Order matters while runtime/default_plan.cpp has no modular rule: it takes
// the first valid variant of an op in registry order, so each N appears in
// increasing order (the smallest register array that holds the size) and,
// within an N, the powm variant that won on the H100 (2026-11-22,
// bench/results/2026-11-22-h100-mod.md): fixed w4 at 1024 and 2048 bits with
// one exponent per instance; sliding windows lose 3x there (warp divergence),
// and stay for shared exponents, where the tuner may pick them.
#pragma once
#include <string>
#include <vector>

#include "kernels/modular/mod_shapes.hpp"
#include "kernels/variants/mod_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {

// kMontgomery = false: gcd, modinv and sqrt only. Thread-level Montgomery
// with 128 and 256 limbs (4 and 8 Kbit) kept its arrays in local memory and
// never won: 5.8e6 mulmod/s at 4 Kbit and 8.1e5 at 8 Kbit
// (bench/results/2026-11-22-h100-mod.md) against the warp `bmont` kernels'
// 1.5e7 and more, the tuner never got counters for them (0.3-7.7 s per
// launch), and their samples took a third of mulmod's and sqrmod's tuning
// time (bench/results/2026-11-22-h100-session4-tune-f.log). Warp variants
// hold those sizes.
// mulmod and sqrmod (one kernel) for N limbs.
template <int N>
void append_mulmod_for(std::vector<Variant>& out) {
  const void* k = reinterpret_cast<const void*>(&mulmod_thread_kernel<N>);
  out.push_back(make_variant(Op::MulMod, "thread", "mont", 32, N, kModThreads, k, modular::kThreadModShape));
  out.push_back(make_variant(Op::SqrMod, "thread", "mont", 32, N, kModThreads, k, modular::kThreadModShape));
}

template <int N, bool kMontgomery = true>
void append_mod_for(std::vector<Variant>& out) {
  const ShapeRules& s = modular::kThreadModShape;
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  if constexpr (kMontgomery) {
    append_mulmod_for<N>(out);
    struct Window {
      const char* algorithm;
      uint32_t w;
    };
    const Window order[] = {{"fixed", 4}, {"fixed", 3}, {"sliding", 5}, {"sliding", 4}};
    for (const Window& w : order) {
      out.push_back(make_variant(Op::PowM, "thread", w.algorithm, 32, N, kModThreads, k(&powm_thread_kernel<N>), s,
                                 "w" + std::to_string(w.w), w.w));
    }
  }
  out.push_back(make_variant(Op::Gcd, "thread", "binary", 32, N, kModThreads, k(&gcd_thread_kernel<N>), s));
  out.push_back(make_variant(Op::ModInv, "thread", "binary", 32, N, kModThreads, k(&modinv_thread_kernel<N>), s));
  out.push_back(make_variant(Op::Sqrt, "thread", "bitwise", 32, N, kModThreads, k(&sqrt_thread_kernel<N>), s));
}

}  // namespace bigtune::kernels::variants
