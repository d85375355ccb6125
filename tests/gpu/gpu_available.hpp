// GPU tests skip, with the reason, where no CUDA device can be used.
#pragma once
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

namespace bigtune::test {

inline std::string no_gpu_reason() {
  int n = 0;
  const cudaError_t st = cudaGetDeviceCount(&n);
  if (st != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device: ") + cudaGetErrorString(st);
  }
  if (n == 0) return "no CUDA device found";
  return {};
}

}  // namespace bigtune::test

#define BIGTUNE_REQUIRE_GPU()                                                 \
  do {                                                                        \
    const std::string bigtune_reason_ = ::bigtune::test::no_gpu_reason();     \
    if (!bigtune_reason_.empty()) GTEST_SKIP() << bigtune_reason_;            \
  } while (0)
