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
  return {kernels::DeviceLimits::from_properties(p), ""};
}

}  // namespace bigtune::cli
