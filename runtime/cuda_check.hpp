// The one checking macro for CUDA runtime calls in the runtime: a failure
// becomes a bigtune::Error naming the call, the file and the line.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "bigtune/error.hpp"

namespace bigtune::runtime {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);

}  // namespace bigtune::runtime

#define BIGTUNE_CUDA_CHECK(call)                                                          \
  do {                                                                                    \
    const cudaError_t bigtune_status_ = (call);                                           \
    if (bigtune_status_ != cudaSuccess)                                                   \
      ::bigtune::runtime::throw_cuda_error(bigtune_status_, #call, __FILE__, __LINE__);   \
  } while (0)
