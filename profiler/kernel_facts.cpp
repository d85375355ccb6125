#include "profiler/kernel_facts.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>

#include "profiler/detail/check.hpp"
#include "profiler/json.hpp"

namespace bigtune::profiler {

KernelFacts kernel_facts(const void* kernel) {
  if (kernel == nullptr) throw Error(ErrorCode::InvalidArgument, "kernel_facts: null kernel");
  cudaFuncAttributes a{};
  BIGTUNE_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  KernelFacts f;
  f.registers_per_thread = a.numRegs;
  f.static_shared_bytes = a.sharedSizeBytes;
  f.local_bytes_per_thread = a.localSizeBytes;
  f.const_bytes = a.constSizeBytes;
  f.max_threads_per_block = a.maxThreadsPerBlock;
  f.max_dynamic_shared_bytes = a.maxDynamicSharedSizeBytes;
  f.ptx_version = a.ptxVersion;
  f.binary_version = a.binaryVersion;
  return f;
}

const char* occupancy_limit_name(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::Threads: return "threads";
    case OccupancyLimit::Registers: return "registers";
    case OccupancyLimit::SharedMemory: return "shared_memory";
    case OccupancyLimit::Blocks: return "blocks";
    case OccupancyLimit::None: return "none";
  }
  return "?";
}

Occupancy occupancy(const void* kernel, int block_threads, std::size_t dynamic_shared_bytes, int device) {
  if (kernel == nullptr || block_threads < 1)
    throw Error(ErrorCode::InvalidArgument, "occupancy: null kernel or empty block");
  BIGTUNE_CUDA_CHECK(cudaSetDevice(device));
  Occupancy o;
  o.block_threads = block_threads;
  o.dynamic_shared_bytes = dynamic_shared_bytes;
  BIGTUNE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &o.active_blocks_per_sm, kernel, block_threads, dynamic_shared_bytes));

  int warp = 32, max_threads_sm = 0, max_blocks_sm = 0, regs_sm = 0, smem_sm = 0, reserved = 0;
  BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
  BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&max_blocks_sm, cudaDevAttrMaxBlocksPerMultiprocessor, device));
  BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&regs_sm, cudaDevAttrMaxRegistersPerMultiprocessor, device));
  BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
  const int warps_per_block = (block_threads + warp - 1) / warp;
  o.max_warps_per_sm = max_threads_sm / warp;
  o.active_warps_per_sm = o.active_blocks_per_sm * warps_per_block;
  o.fraction = o.max_warps_per_sm ? static_cast<double>(o.active_warps_per_sm) / o.max_warps_per_sm : 0;

  // Which resource binds: the per-resource block limits, approximately (the
  // runtime's answer above is exact; this only names the reason). Registers
  // are allocated per warp in units of 256.
  const KernelFacts f = kernel_facts(kernel);
  const int by_threads = max_threads_sm / (warps_per_block * warp);
  const int regs_per_warp = ((f.registers_per_thread * warp + 255) / 256) * 256;
  const int by_regs = regs_per_warp ? regs_sm / (regs_per_warp * warps_per_block) : INT_MAX;
  const std::size_t smem_block = f.static_shared_bytes + dynamic_shared_bytes + static_cast<std::size_t>(reserved);
  const int by_smem = smem_block ? static_cast<int>(static_cast<std::size_t>(smem_sm) / smem_block) : INT_MAX;
  const int lowest = std::min({by_threads, by_regs, by_smem, max_blocks_sm});
  if (lowest == by_smem && by_smem < by_threads)
    o.limit = OccupancyLimit::SharedMemory;
  else if (lowest == by_regs && by_regs < by_threads)
    o.limit = OccupancyLimit::Registers;
  else if (lowest == max_blocks_sm && max_blocks_sm < by_threads)
    o.limit = OccupancyLimit::Blocks;
  else
    o.limit = OccupancyLimit::Threads;
  return o;
}

std::string KernelFacts::to_json() const {
  JsonWriter w;
  w.begin_object()
      .field("registers_per_thread", registers_per_thread)
      .field("static_shared_bytes", static_cast<std::uint64_t>(static_shared_bytes))
      .field("local_bytes_per_thread", static_cast<std::uint64_t>(local_bytes_per_thread))
      .field("const_bytes", static_cast<std::uint64_t>(const_bytes))
      .field("max_threads_per_block", max_threads_per_block)
      .field("max_dynamic_shared_bytes", max_dynamic_shared_bytes)
      .field("ptx_version", ptx_version)
      .field("binary_version", binary_version)
      .end_object();
  return w.str();
}

std::string Occupancy::to_json() const {
  JsonWriter w;
  w.begin_object()
      .field("block_threads", block_threads)
      .field("dynamic_shared_bytes", static_cast<std::uint64_t>(dynamic_shared_bytes))
      .field("active_blocks_per_sm", active_blocks_per_sm)
      .field("active_warps_per_sm", active_warps_per_sm)
      .field("max_warps_per_sm", max_warps_per_sm)
      .field("fraction", fraction)
      .field("limit", occupancy_limit_name(limit))
      .end_object();
  return w.str();
}

}  // namespace bigtune::profiler
