// The division of both Barrett pipelines' preparation, mu = floor((2^(2N) - 1)
// / m') (kernels/modular/barrett.hpp): which registered division runs and its
// launch, shared by the composed pipeline (barrett_instances.cu) and the
// fused NTT powm (nttbarrett_instances.cu) instead of a copy in each. Host
// code only.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"
#include "kernels/preferred_plans.hpp"
#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

struct BarrettDivision {
  const Variant* v = nullptr;
  uint32_t ipb = 1;
};

// The division at bits2 = 2N bits for count_m moduli: the measured preference
// (kernels/preferred_plans.hpp), else the block shifted inverse (to 2^20
// bits); v null if neither holds the size.
inline BarrettDivision barrett_mu_division(uint64_t bits2, uint64_t count_m) {
  const DeviceLimits limits = DeviceLimits::h100();
  if (const auto p = preferred_plan(Op::DivMod, bits2, count_m, limits)) return {p->variant, p->ipb};
  const Variant* v = find_variant("divmod.shinv.u64.q4");
  if (v && why_invalid(*v, bits2, count_m, 1, limits).empty()) return {v, 1};
  return {};
}

// quot = floor(dividend / divisor) at 2N bits for count_m moduli, laid out as
// barrett_prep_body writes them (dividend 2^(2N) - 1 of 2n words, divisor m'
// of n words per modulus: the layout of divmod's own tests and benchmark;
// the composed mulmod with moduli per instance divides a*b by m the same way);
// rem and flags are the division's other outputs, scratch its own
// (scratch_bytes(*div.v, 2N, count_m) bytes; unused when that is 0).
inline cudaError_t launch_barrett_mu_division(const BarrettDivision& div, uint64_t big_n, uint64_t count_m,
                                              const uint64_t* dividend, const uint64_t* divisor, uint64_t* quot,
                                              uint64_t* rem, uint32_t* flags, void* scratch, cudaStream_t stream) {
  const Variant& dv = *div.v;
  const uint64_t bits2 = 2 * big_n;
  KernelArgs da{};
  da.r = quot;
  da.r2 = rem;
  da.a = dividend;
  da.b = divisor;
  da.flags = flags;
  da.count = count_m;
  da.bits = bits2;
  da.limbs = operand_limbs(dv, bits2);
  da.b_limbs = block::limbs_for_bits(big_n, dv.limb_bits);
  da.out_limbs = block::limbs_for_bits(bits2, dv.limb_bits);
  da.r2_limbs = da.b_limbs;
  da.scratch = scratch_bytes(dv, bits2, count_m) ? scratch : nullptr;
  const Geometry dg = geometry(dv, bits2, count_m, div.ipb, DeviceLimits::h100());
  da.threads_per_instance = dg.threads_per_instance;
  da.ipb = dg.ipb;
  da.stage_buffers = dg.stage_buffers;
  return launch(dv, da, dg, stream);
}

}  // namespace bigtune::kernels::variants
