// `bigtune probe`: what the device is (properties, limits) and what it can do
// (copy and shared-memory bandwidth, integer multiply throughput, launch
// overhead), as a table or JSON. About a second with benchmarks.
#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.hpp"
#include "cli/device_record.hpp"
#include "db/paths.hpp"
#include "db/records.hpp"
#include "db/store.hpp"
#include "profiler/device_probe.hpp"

namespace bigtune::cli {
namespace {

struct ProbeArgs {
  bool json = false;
  bool no_bench = false;
  bool no_db = false;
  int repetitions = 7;
};

std::string mib(double bytes) { return fmt::format("{:.0f} MiB", bytes / (1 << 20)); }
std::string kib(double bytes) { return fmt::format("{:.0f} KiB", bytes / 1024); }

void print_table(const profiler::DeviceProbe& p) {
  auto row = [](const char* key, const std::string& value) { fmt::print("  {:<28} {}\n", key, value); };
  fmt::print("device {}: {}\n", p.device, p.name);
  row("uuid", p.uuid);
  row("chip (CUPTI)", p.chip.empty() ? "unknown" : p.chip);
  row("compute capability", fmt::format("{}.{}", p.cc_major, p.cc_minor));
  row("multiprocessors", std::to_string(p.sm_count));
  row("SM clock (peak)", fmt::format("{:.0f} MHz", p.sm_clock_khz / 1e3));
  row("memory clock (peak)", fmt::format("{:.0f} MHz, {}-bit bus", p.memory_clock_khz / 1e3, p.memory_bus_bits));
  row("global memory", mib(static_cast<double>(p.global_memory_bytes)));
  row("L2 cache", mib(p.l2_bytes));
  row("threads per block / SM", fmt::format("{} / {}", p.max_threads_per_block, p.max_threads_per_sm));
  row("blocks per SM", std::to_string(p.max_blocks_per_sm));
  row("registers per block / SM", fmt::format("{} / {}", p.regs_per_block, p.regs_per_sm));
  row("shared per block / opt-in", fmt::format("{} / {}", kib(p.shared_per_block), kib(p.shared_per_block_optin)));
  row("shared per SM (reserved)", fmt::format("{} ({} B per block)", kib(p.shared_per_sm), p.reserved_shared_per_block));
  row("driver / runtime", fmt::format("{} / {}", p.driver_version, p.runtime_version));
  if (!p.benchmarked) return;
  fmt::print("benchmarks ({:.2f} s, median of runs)\n", p.benchmark_seconds);
  row("copy bandwidth (r+w)", fmt::format("{:.0f} GB/s", p.copy_bandwidth_gbs));
  row("shared-memory bandwidth", fmt::format("{:.0f} GB/s", p.shared_bandwidth_gbs));
  row("32-bit multiplies", fmt::format("{:.0f} G/s", p.mul32_gops));
  row("64-bit multiplies", fmt::format("{:.0f} G/s", p.mul64_gops));
  row("launch interval (GPU)", fmt::format("{:.2f} us", p.launch_interval_us));
  row("launch + sync (host)", fmt::format("{:.2f} us", p.launch_sync_us));
}

// Hands the probe to the tuning database (the device row and its measured
// rates), where the tuner's model reads them.
void store_probe(const profiler::DeviceProbe& p) {
  const db::DeviceRecord d = device_record(p);
  const std::string path = db::resolve_db_path(global_options().db_path);
  db::Store(path).put_device(d);
  std::fprintf(stderr, "stored in %s\n", path.c_str());
}

}  // namespace

void add_probe_command(CLI::App& app) {
  auto args = std::make_shared<ProbeArgs>();
  CLI::App* cmd = app.add_subcommand("probe", "Show the device: properties, limits and measured speeds");
  cmd->add_flag("--json", args->json, "Print JSON (as stored in the tuning database)");
  cmd->add_flag("--no-bench", args->no_bench, "Properties only, no micro-benchmarks");
  cmd->add_option("--repetitions", args->repetitions, "Timed runs per benchmark (median reported)")
      ->check(CLI::Range(1, 1000));
  cmd->add_flag("--no-db", args->no_db, "Do not store the result in the tuning database");
  cmd->callback([args] {
    profiler::ProbeOptions options;
    options.device = global_options().device;
    options.benchmarks = !args->no_bench;
    options.repetitions = args->repetitions;
    const bool json = args->json || global_options().json;
    if (!json && options.benchmarks) std::fprintf(stderr, "probing device %d...\n", options.device);
    const profiler::DeviceProbe probe = profiler::probe_device(options);
    if (json)
      fmt::print("{}\n", probe.to_json());
    else
      print_table(probe);
    if (!args->no_db) store_probe(probe);
  });
}

}  // namespace bigtune::cli
