// Device 0's launch limits for the GPU tests (registry validity, geometry):
// one place instead of a cudaGetDeviceProperties call in every test. Call it
// after BIGTUNE_REQUIRE_GPU(); a device that cannot be queried throws, which
// GoogleTest reports as the test's failure with the CUDA error.
#pragma once
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "kernels/registry.hpp"

namespace bigtune::test {

inline kernels::DeviceLimits device_limits() {
  cudaDeviceProp props{};
  const cudaError_t st = cudaGetDeviceProperties(&props, 0);
  if (st != cudaSuccess)
    throw std::runtime_error(std::string("cudaGetDeviceProperties(0): ") + cudaGetErrorString(st));
  return kernels::DeviceLimits::from_properties(props);
}

}  // namespace bigtune::test
