#include "cli/device_limits.hpp"

#include <cuda_runtime_api.h>

namespace bigtune::cli {

LimitsSource current_limits(int device) {
  int n = 0;
  cudaDeviceProp p{};
  if (cudaGetDeviceCount(&n) != cudaSuccess || device >= n || cudaGetDeviceProperties(&p, device) != cudaSuccess) {
    cudaGetLastError();
    return {kernels::DeviceLimits::h100(), "no CUDA device found: showing the limits of an NVIDIA H100"};
  }
  kernels::DeviceLimits d;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.max_threads_per_block = uint32_t(p.maxThreadsPerBlock);
  d.smem_per_block_optin = p.sharedMemPerBlockOptin;
  d.smem_per_sm = p.sharedMemPerMultiprocessor;
  d.max_threads_per_sm = uint32_t(p.maxThreadsPerMultiProcessor);
  d.regs_per_block = uint32_t(p.regsPerBlock);
  d.global_memory_bytes = p.totalGlobalMem;
  return {d, ""};
}

}  // namespace bigtune::cli
