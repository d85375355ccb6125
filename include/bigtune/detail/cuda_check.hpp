// The one checking macro for CUDA runtime calls, shared by runtime/ and
// profiler/ (STYLE.md, "Errors"): a failure becomes a bigtune::Error naming
// the call, file and line, with a code (NoDevice, OutOfMemory,
// InvalidArgument for a refused launch, Cuda otherwise) and what to do.
// Internal: not part of the API users program against.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "bigtune/error.hpp"

namespace bigtune::detail {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);

// "cudaErrorMemoryAllocation (out of memory)", for messages.
std::string cuda_status_text(cudaError_t status);

}  // namespace bigtune::detail

#define BIGTUNE_CUDA_CHECK(call)                                                                   \
  do {                                                                                             \
    const cudaError_t bigtune_status_ = (call);                                                    \
    if (bigtune_status_ != cudaSuccess)                                                            \
      ::bigtune::detail::throw_cuda_error(bigtune_status_, #call, __FILE__, __LINE__);             \
  } while (0)
