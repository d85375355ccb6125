// `bigtune variants`: the registry, with the sizes each variant supports here.
#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"
#include "cli/device_limits.hpp"
#include "kernels/registry.hpp"

namespace bigtune::cli {

void add_variants_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("variants", "list the kernel variants and the sizes each supports");
  static std::string op_filter;
  cmd->add_option("--op", op_filter, "only this op (e.g. add, mul, divmod, powm)");
  cmd->callback([] {
    const GlobalOptions& g = global_options();
    const LimitsSource src = current_limits(g.device);
    if (!op_filter.empty() && !kernels::parse_op(op_filter))
      throw bigtune::Error(bigtune::ErrorCode::InvalidArgument, "unknown op '" + op_filter + "'",
                  "see `bigtune variants` for the ops");
    if (!src.note.empty() && !g.json) fmt::print("note: {}\n", src.note);
    if (g.json) fmt::print("[");
    else
      fmt::print("{:<26} {:<8} {:<6} {:<10} {:>5} {:>3} {:>8} {:>12} {:>6} {:>6}\n", "variant", "op", "family",
                 "algorithm", "limb", "Q", "threads", "max bits", "regs", "spill");
    bool first = true;
    for (const kernels::Variant& v : kernels::registry()) {
      if (!op_filter.empty() && op_filter != kernels::op_name(v.op)) continue;
      const uint64_t max_bits = kernels::max_operand_bits(v, src.limits);
      int regs = -1, spill = -1;
      if (src.note.empty()) {  // static facts need a device
        cudaFuncAttributes attr{};
        if (cudaFuncGetAttributes(&attr, v.kernel) == cudaSuccess) {
          regs = attr.numRegs;
          spill = int(attr.localSizeBytes);
        }
      }
      if (g.json) {
        fmt::print("{}{{\"variant\":\"{}\",\"op\":\"{}\",\"family\":\"{}\",\"algorithm\":\"{}\",\"limb_bits\":{},"
                   "\"q\":{},\"max_threads\":{},\"min_bits\":1,\"max_bits\":{},\"registers\":{},\"local_bytes\":{}}}",
                   first ? "" : ",", v.name, kernels::op_name(v.op), v.family, v.algorithm,
                   v.limb_bits, v.q, v.max_threads, max_bits, regs, spill);
      } else {
        fmt::print("{:<26} {:<8} {:<6} {:<10} {:>5} {:>3} {:>8} {:>12} {:>6} {:>6}\n", v.name, kernels::op_name(v.op),
                   v.family, v.algorithm, v.limb_bits, v.q, v.max_threads, max_bits,
                   regs < 0 ? std::string("-") : std::to_string(regs),
                   spill < 0 ? std::string("-") : std::to_string(spill));
      }
      first = false;
    }
    if (g.json) fmt::print("]\n");
    else fmt::print("valid sizes: 1 bit up to `max bits` (operand bits, one instance per block) on {}\n",
                    src.limits.name);
  });
}

}  // namespace bigtune::cli
