#include "cli/tune_common.hpp"

#include <sstream>

#include "bigtune/error.hpp"

namespace bigtune::cli {

std::string tuner_build_id() {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  auto mix = [&](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  };
  for (const kernels::Variant& v : kernels::registry())
    mix(v.name + ":" + std::to_string(v.limb_bits) + ":" + std::to_string(v.q) + ":" + std::to_string(v.max_threads));
  mix(__DATE__ " " __TIME__);
  std::ostringstream o;
  o << "reg-" << std::hex << h;
  return o.str();
}

tuner::DeviceModel device_model_from_probe(const profiler::DeviceProbe& p) {
  tuner::DeviceModel m;
  tuner::SmLimits& s = m.sm;
  if (p.sm_count) s.sm_count = p.sm_count;
  if (p.max_threads_per_block) s.max_threads_per_block = p.max_threads_per_block;
  if (p.max_threads_per_sm) s.max_threads_per_sm = p.max_threads_per_sm;
  if (p.max_blocks_per_sm) s.max_blocks_per_sm = p.max_blocks_per_sm;
  if (p.regs_per_sm) s.regs_per_sm = p.regs_per_sm;
  if (p.regs_per_block) s.regs_per_block = p.regs_per_block;
  if (p.shared_per_sm) s.smem_per_sm = p.shared_per_sm;
  if (p.shared_per_block_optin) s.smem_per_block_optin = p.shared_per_block_optin;
  s.smem_reserved_per_block = p.reserved_shared_per_block;
  if (p.sm_clock_khz) m.clock_ghz = p.sm_clock_khz / 1e6;
  if (p.copy_bandwidth_gbs > 0) m.dram_gbs = p.copy_bandwidth_gbs;
  if (p.launch_interval_us > 0) m.launch_us = p.launch_interval_us;
  return m;
}

void apply_stored_rates(tuner::DeviceModel& m, const db::DeviceRecord& d) {
  if (auto it = d.probes.find("copy_gbps"); it != d.probes.end() && it->second > 0) m.dram_gbs = it->second;
  if (auto it = d.probes.find("launch_interval_us"); it != d.probes.end() && it->second > 0) m.launch_us = it->second;
}

std::vector<kernels::Op> parse_op_list(const std::string& text) {
  std::vector<kernels::Op> out;
  auto has_variants = [](kernels::Op op) {
    for (const kernels::Variant& v : kernels::registry())
      if (v.op == op) return true;
    return false;
  };
  if (text.empty() || text == "all") {
    // powm last: the costliest op to sample (its samples run two exponent
    // lengths); where the budget runs short it loses its largest sizes, not
    // gcd, modinv and sqrt all their samples.
    for (kernels::Op op : kernels::kAllOps)
      if (has_variants(op) && op != kernels::Op::PowM) out.push_back(op);
    if (has_variants(kernels::Op::PowM)) out.push_back(kernels::Op::PowM);
    return out;
  }
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto op = kernels::parse_op(item);
    if (!op) throw Error(ErrorCode::InvalidArgument, "unknown op '" + item + "'", "ops: add, sub, mul, ...");
    if (!has_variants(*op))
      throw Error(ErrorCode::Unsupported, std::string("no variant of ") + item + " in this build",
                  "see `bigtune variants`");
    out.push_back(*op);
  }
  return out;
}

}  // namespace bigtune::cli
