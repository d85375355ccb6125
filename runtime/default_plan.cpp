// The built-in plan, until the tuner's selector has a decision for a size.
//
// Rules read off the benchmark (H100, 2026-11-22, bench/results/
// 2026-11-22-h100.md: best variant and instances per block per size):
// - 64-bit limbs everywhere (seed 000 §6.3 found the same on an A100);
// - add/sub/cmp/shifts: Q = 8 up to 2^18 bits, Q = 16 above (two 512-thread
//   blocks per SM: 97 % of the copy bandwidth at 2^19 against 85 % with Q = 8),
//   and instances per block for ~512-thread blocks — wide blocks keep many
//   loads in flight at small sizes;
// - mul_low: Q = 4 below 8 Kbit, else 8; mul (full): Q = 4 below 4 Kbit,
//   else 8; instances per block for ~128 threads with Q = 4 and ~64 with Q = 8
//   (more instances per block only add registers per SM, not speed).
// Where the preferred Q cannot hold the size, the next in the list is used.
//
// Named preferences come first: the measured fastest variant per op and
// size (kernels/preferred_plans.cpp, with the measurements); these rules
// cover the sizes and ops it has no entry for.
#include "runtime/default_plan.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/preferred_plans.hpp"
#include "runtime/validate.hpp"

namespace bigtune::runtime {

namespace {
struct Rule {
  std::vector<uint32_t> q_order;
  uint32_t target_threads_q4, target_threads_other;
};

Rule rule_for(Op op, uint64_t bits) {
  switch (op) {
    case Op::MulLow: return bits < 8192 ? Rule{{4, 8, 16, 2, 1}, 128, 64} : Rule{{8, 16, 4, 2, 1}, 128, 64};
    case Op::Mul:
    case Op::Sqr: return bits < 4096 ? Rule{{4, 8, 16, 2, 1}, 128, 64} : Rule{{8, 16, 4, 2, 1}, 128, 64};
    default: return bits <= 262144 ? Rule{{8, 16, 4, 2, 1}, 512, 512} : Rule{{16, 8, 4, 2, 1}, 512, 512};
  }
}

}  // namespace

std::optional<Plan> default_plan(Op op, uint64_t bits, uint64_t count, const kernels::DeviceLimits& limits) {
  const kernels::Op kop = to_kernel_op(op);
  if (const auto p = kernels::preferred_plan(kop, bits, count, limits))
    return Plan{p->variant->name, p->ipb, "default", 0.0};
  const Rule rule = rule_for(op, bits);
  for (uint32_t limb_bits : {64u, 32u}) {
    for (uint32_t q : rule.q_order) {
      for (const kernels::Variant& v : kernels::registry()) {
        if (v.op != kop || v.q != q || v.limb_bits != limb_bits) continue;
        const uint32_t target = q == 4 ? rule.target_threads_q4 : rule.target_threads_other;
        const uint32_t tpi = kernels::threads_per_instance(v, bits);
        uint64_t ipb = std::max<uint64_t>(1, target / std::max<uint32_t>(tpi, 1));
        ipb = std::min<uint64_t>(ipb, std::max<uint64_t>(count, 1));
        while (ipb > 1 && !kernels::why_invalid(v, bits, count, uint32_t(ipb), limits).empty()) ipb /= 2;
        if (kernels::why_invalid(v, bits, count, uint32_t(ipb), limits).empty())
          return Plan{v.name, uint32_t(ipb), "default", 0.0};
      }
    }
  }
  // Ops and families without a rule yet (the tuner's decisions replace this):
  // the first valid variant in registry order, ~128 threads per block.
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != kop) continue;
    const uint32_t tpi = kernels::threads_per_instance(v, bits);
    uint64_t ipb = std::min<uint64_t>(std::max<uint64_t>(1, 128 / std::max<uint32_t>(tpi, 1)), std::max<uint64_t>(count, 1));
    while (ipb > 1 && !kernels::why_invalid(v, bits, count, uint32_t(ipb), limits).empty()) ipb /= 2;
    if (kernels::why_invalid(v, bits, count, uint32_t(ipb), limits).empty())
      return Plan{v.name, uint32_t(ipb), "default", 0.0};
  }
  return std::nullopt;
}

// H200, session 18 run G (bench/results/2026-11-28-h200-session18.md),
// mulmod with a modulus per instance, rem against the best other variant:
// 1.25x / 1.47x / 2.29x / 1.62x / 2.52x / 3.85x / 5.14x at 128 / 256 / 512
// bits and 1 / 2 / 4 / 8 Kbit; at 64 bits preinv stays ahead, 1.65x. 128
// instances a block for preinv, as its default plan (preferred_plans.cpp).
std::optional<Plan> per_instance_modulus_plan(Op op, uint64_t bits) {
  if (op != Op::MulMod && op != Op::SqrMod) return std::nullopt;
  if (bits <= 64) return Plan{std::string(op_name(op)) + ".preinv.u64.q1", 128, "moduli per instance", 0.0};
  return Plan{std::string(op_name(op)) + ".rem.u64.q1", 1, "moduli per instance", 0.0};
}

// H200, session 22 (bench/results/2026-11-29-h200-session22.md), powm with
// a shared odd modulus, full exponents, 16896 instances, against the best
// powm kernel (dfmat): 1.06-1.09x at 8 Kbit, 1.64-1.73x at 12 Kbit,
// 1.30-1.38x at 16 Kbit (1.37x there on 8448 instances too, one wave of the
// tensor-core blocks: 64 instances, one or two an SM). Above 16 Kbit, since
// its reduction products take x in two wgmma parts (session 29,
// bench/results/2026-12-02-h200-session29.md), against the NTT Montgomery
// powm (nttmont.sw9, the best there): 384 / 255 powm/s at 20000 bits, 254 /
// 208 at 24576, 210 / 154 at 32768. Past ~34.5 Kbit the quotient needs
// three parts (with at most two it ran on mma.sync: 103 powm/s at 36000
// bits); nttmont was not timed there, so the rule stops at 32 Kbit, the
// last size measured against it. Smaller batches leave SMs without a block
// and were not measured: the selector keeps them.
std::optional<Plan> shared_modulus_powm_plan(uint64_t bits, uint64_t count, const kernels::DeviceLimits& limits) {
  const uint64_t one_wave = 64 * uint64_t(std::max(limits.sm_count, 1));
  if (bits < 8192 || bits > 32768 || count < one_wave) return std::nullopt;
  return Plan{"powm.tcbarrett.u64.q1.w6", 1, "shared modulus", 0.0};
}

}  // namespace bigtune::runtime
