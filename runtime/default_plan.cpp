// Rules (to be replaced by measured decisions, issue 6/7):
// - 64-bit limbs: the seed's best (seed 000 §6.3) and the fewest instructions
//   per bit for both addition and multiplication;
// - the smallest Q in the preference list that can hold the size, so blocks
//   stay wide (latency hiding) without running out of threads;
// - enough instances per block to give ~256 threads (scan) or ~128 threads
//   (classical), never more instances than the batch has.
#include "runtime/default_plan.hpp"

#include <algorithm>
#include <string>

#include "runtime/validate.hpp"

namespace bigtune::runtime {

std::optional<Plan> default_plan(Op op, uint64_t bits, uint64_t count, const kernels::DeviceLimits& limits) {
  const kernels::Op kop = to_kernel_op(op);
  const bool classical = op == Op::Mul || op == Op::MulLow;
  const uint32_t q_order[] = {4, 8, 16, 2, 1};
  const uint32_t target_threads = classical ? 128 : 256;
  for (uint32_t limb_bits : {64u, 32u}) {
    for (uint32_t q : q_order) {
      for (const kernels::Variant& v : kernels::registry()) {
        if (v.op != kop || v.q != q || v.limb_bits != limb_bits) continue;
        const uint32_t tpi = kernels::threads_per_instance(v, bits);
        uint64_t ipb = std::max<uint64_t>(1, target_threads / std::max<uint32_t>(tpi, 1));
        ipb = std::min<uint64_t>(ipb, std::max<uint64_t>(count, 1));
        while (ipb > 1 && !kernels::why_invalid(v, bits, count, uint32_t(ipb), limits).empty()) ipb /= 2;
        if (kernels::why_invalid(v, bits, count, uint32_t(ipb), limits).empty())
          return Plan{v.name, uint32_t(ipb), "default", 0.0};
      }
    }
  }
  return std::nullopt;
}

}  // namespace bigtune::runtime
