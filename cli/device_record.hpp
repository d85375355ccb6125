// The tuning database's device row from a probe: properties, limits and
// (when benchmarked) the measured rates the tuner's model reads. Shared by
// `bigtune probe` (which stores it) and tune / validate (which key their
// samples by it). Inline: the profiler tests build cmd_probe.cpp alone.
#pragma once
#include "db/records.hpp"
#include "profiler/device_probe.hpp"

namespace bigtune::cli {

inline db::DeviceRecord device_record(const profiler::DeviceProbe& p) {
  db::DeviceRecord d;
  d.uuid = p.uuid.empty() ? "model:" + p.name : p.uuid;
  d.name = p.name;
  d.cc_major = p.cc_major;
  d.cc_minor = p.cc_minor;
  d.sm_count = p.sm_count;
  d.max_threads_per_block = p.max_threads_per_block;
  d.smem_per_block_optin = p.shared_per_block_optin;
  d.regs_per_block = p.regs_per_block;
  d.global_memory_bytes = int64_t(p.global_memory_bytes);
  if (p.benchmarked)
    d.probes = {{"copy_gbps", p.copy_bandwidth_gbs},       {"shared_gbps", p.shared_bandwidth_gbs},
                {"mul32_gops", p.mul32_gops},              {"mul64_gops", p.mul64_gops},
                {"launch_interval_us", p.launch_interval_us}, {"launch_sync_us", p.launch_sync_us}};
  return d;
}

}  // namespace bigtune::cli
