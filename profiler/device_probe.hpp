// What a device is and what it can do (issue 5, item 4): properties from the
// runtime, plus a few fast (about a second each, at most), repeatable
// micro-benchmarks of what the tuner's model needs. A plain struct; the db
// stores it (to_json()).
#pragma once
#include <cstdint>
#include <string>

namespace bigtune::profiler {

struct DeviceProbe {
  // Properties.
  int device = 0;
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it
  std::string chip;  // CUPTI's chip name ("GH100"); empty when CUPTI cannot tell
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0, memory_clock_khz = 0;  // peak clocks
  int memory_bus_bits = 0;
  std::uint64_t global_memory_bytes = 0;
  int l2_bytes = 0;
  int warp_size = 32;
  int max_threads_per_block = 0, max_threads_per_sm = 0, max_blocks_per_sm = 0;
  int regs_per_block = 0, regs_per_sm = 0;
  int shared_per_block = 0, shared_per_block_optin = 0, shared_per_sm = 0;
  int reserved_shared_per_block = 0;
  int driver_version = 0, runtime_version = 0;  // e.g. 13000

  // Micro-benchmarks (0 when not run). Each is the median of several timed runs.
  bool benchmarked = false;
  double copy_bandwidth_gbs = 0;       // device-to-device copy, bytes read + written, GB/s (1e9)
  double shared_bandwidth_gbs = 0;     // shared-memory loads + stores, whole device, GB/s
  double mul32_gops = 0;               // 32-bit integer multiplies (lo), whole device, 1e9/s
  double mul64_gops = 0;               // 64-bit integer multiplies (lo), whole device, 1e9/s
  double launch_interval_us = 0;       // back-to-back empty kernels: time per launch on the GPU
  double launch_sync_us = 0;           // host: launch + synchronize, one empty kernel
  double benchmark_seconds = 0;        // wall time of all benchmarks

  std::string to_json() const;
};

struct ProbeOptions {
  int device = 0;
  bool benchmarks = true;  // false: properties only (instant)
  int repetitions = 7;     // timed runs per benchmark (median reported)
};

// Throws bigtune::Error (NoDevice when there is no usable GPU).
DeviceProbe probe_device(const ProbeOptions& options = {});

}  // namespace bigtune::profiler
