#include "profiler/device_probe.hpp"

#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <chrono>
#include <cstdio>

#include "profiler/detail/check.hpp"
#include "profiler/detail/probe_benchmarks.hpp"
#include "profiler/json.hpp"

namespace bigtune::profiler {
namespace {

std::string format_uuid(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  std::string out = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    std::snprintf(hex, sizeof hex, "%02x", b[i]);
    out += hex;
  }
  return out;
}

int attribute(cudaDeviceAttr attr, int device) {
  int v = 0;
  BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, device));
  return v;
}

}  // namespace

DeviceProbe probe_device(const ProbeOptions& options) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
    throw Error(ErrorCode::NoDevice,
                "no CUDA device" + (status != cudaSuccess ? ": " + detail::cuda_status_text(status) : std::string()),
                "run on a machine with an NVIDIA GPU and its driver");
  if (options.device < 0 || options.device >= count)
    throw Error(ErrorCode::InvalidArgument,
                "device " + std::to_string(options.device) + " does not exist (" + std::to_string(count) +
                    " found)");
  const int d = options.device;
  BIGTUNE_CUDA_CHECK(cudaSetDevice(d));
  cudaDeviceProp p{};
  BIGTUNE_CUDA_CHECK(cudaGetDeviceProperties(&p, d));

  DeviceProbe r;
  r.device = d;
  r.name = p.name;
  r.uuid = format_uuid(p.uuid);
  r.cc_major = p.major;
  r.cc_minor = p.minor;
  r.sm_count = p.multiProcessorCount;
  r.sm_clock_khz = attribute(cudaDevAttrClockRate, d);
  r.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, d);
  r.memory_bus_bits = p.memoryBusWidth;
  r.global_memory_bytes = p.totalGlobalMem;
  r.l2_bytes = p.l2CacheSize;
  r.warp_size = p.warpSize;
  r.max_threads_per_block = p.maxThreadsPerBlock;
  r.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  r.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  r.regs_per_block = p.regsPerBlock;
  r.regs_per_sm = p.regsPerMultiprocessor;
  r.shared_per_block = static_cast<int>(p.sharedMemPerBlock);
  r.shared_per_block_optin = static_cast<int>(p.sharedMemPerBlockOptin);
  r.shared_per_sm = static_cast<int>(p.sharedMemPerMultiprocessor);
  r.reserved_shared_per_block = static_cast<int>(p.reservedSharedMemPerBlock);
  BIGTUNE_CUDA_CHECK(cudaDriverGetVersion(&r.driver_version));
  BIGTUNE_CUDA_CHECK(cudaRuntimeGetVersion(&r.runtime_version));

  // The chip name comes from CUPTI's profiler API, which must be initialized
  // first; where CUPTI refuses (privileges, another profiler) it stays empty.
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  if (cuptiProfilerInitialize(&init) == CUPTI_SUCCESS) {
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = static_cast<std::size_t>(d);
    if (cuptiDeviceGetChipName(&chip) == CUPTI_SUCCESS && chip.pChipName) r.chip = chip.pChipName;
    CUpti_Profiler_DeInitialize_Params done{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
    cuptiProfilerDeInitialize(&done);
  }

  if (options.benchmarks) {
    const auto t0 = std::chrono::steady_clock::now();
    detail::BenchContext c{d, r.sm_count, options.repetitions < 1 ? 1 : options.repetitions};
    r.copy_bandwidth_gbs = detail::bench_copy_gbs(c);
    r.shared_bandwidth_gbs = detail::bench_shared_gbs(c);
    r.mul32_gops = detail::bench_mul32_gops(c);
    r.mul64_gops = detail::bench_mul64_gops(c);
    detail::bench_launch_us(c, &r.launch_interval_us, &r.launch_sync_us);
    r.benchmarked = true;
    r.benchmark_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return r;
}

std::string DeviceProbe::to_json() const {
  JsonWriter w;
  w.begin_object();
  w.field("device", device).field("name", name).field("uuid", uuid).field("chip", chip);
  w.key("compute_capability").begin_array().value(cc_major).value(cc_minor).end_array();
  w.field("sm_count", sm_count).field("sm_clock_khz", sm_clock_khz).field("memory_clock_khz", memory_clock_khz);
  w.field("memory_bus_bits", memory_bus_bits).field("global_memory_bytes", global_memory_bytes);
  w.field("l2_bytes", l2_bytes).field("warp_size", warp_size);
  w.field("max_threads_per_block", max_threads_per_block).field("max_threads_per_sm", max_threads_per_sm);
  w.field("max_blocks_per_sm", max_blocks_per_sm);
  w.field("regs_per_block", regs_per_block).field("regs_per_sm", regs_per_sm);
  w.field("shared_per_block", shared_per_block).field("shared_per_block_optin", shared_per_block_optin);
  w.field("shared_per_sm", shared_per_sm).field("reserved_shared_per_block", reserved_shared_per_block);
  w.field("driver_version", driver_version).field("runtime_version", runtime_version);
  w.key("benchmarks");
  if (!benchmarked) {
    w.null();
  } else {
    w.begin_object();
    w.field("copy_bandwidth_gbs", copy_bandwidth_gbs).field("shared_bandwidth_gbs", shared_bandwidth_gbs);
    w.field("mul32_gops", mul32_gops).field("mul64_gops", mul64_gops);
    w.field("launch_interval_us", launch_interval_us).field("launch_sync_us", launch_sync_us);
    w.field("seconds", benchmark_seconds);
    w.end_object();
  }
  w.end_object();
  return w.str();
}

}  // namespace bigtune::profiler
