// The profiler's checking macros: the project's CUDA one
// (bigtune/detail/cuda_check.hpp) and one for CUPTI. Each records file, line
// and the text of the call, and throws a bigtune::Error (code Cuda or Profiler). Raw status codes never leave
// profiler/ (STYLE.md, "Errors"). Private to profiler/.
#pragma once
#include <cuda_runtime_api.h>
#include <cupti_result.h>

#include <string>

#include "bigtune/detail/cuda_check.hpp"
#include "bigtune/error.hpp"

namespace bigtune::profiler::detail {

using bigtune::detail::cuda_status_text;
[[noreturn]] void throw_cupti_error(CUptiResult status, const char* call, const char* file, int line);

// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (...)" for messages.
std::string cupti_status_text(CUptiResult status);

}  // namespace bigtune::profiler::detail

#define BIGTUNE_CUPTI_CHECK(call)                                                       \
  do {                                                                                  \
    const CUptiResult bigtune_status_ = (call);                                         \
    if (bigtune_status_ != CUPTI_SUCCESS)                                               \
      ::bigtune::profiler::detail::throw_cupti_error(bigtune_status_, #call, __FILE__,  \
                                                     __LINE__);                         \
  } while (0)
