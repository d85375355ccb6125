#include "profiler/detail/check.hpp"

#include <cupti.h>

#include <cstring>

namespace bigtune::profiler::detail {
namespace {

std::string where(const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  return std::string(" in ") + call + " at " + (base ? base + 1 : file) + ":" + std::to_string(line);
}

}  // namespace

std::string cuda_status_text(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")";
}

std::string cupti_status_text(CUptiResult status) {
  const char* text = nullptr;
  if (cuptiGetResultString(status, &text) != CUPTI_SUCCESS || text == nullptr)
    return "CUPTI error " + std::to_string(static_cast<int>(status));
  return text;
}

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  const std::string what = "CUDA error " + cuda_status_text(status) + where(call, file, line);
  switch (status) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
      throw Error(ErrorCode::NoDevice, what, "run on a machine with an NVIDIA GPU and its driver");
    case cudaErrorMemoryAllocation:
      throw Error(ErrorCode::OutOfMemory, what, "use smaller sizes or free device memory");
    // The launch itself was refused: the candidate is invalid, the context is fine.
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidValue:
    case cudaErrorLaunchOutOfResources:
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorNoKernelImageForDevice:
      throw Error(ErrorCode::InvalidArgument, what, "this launch configuration cannot run here");
    default:
      throw Error(ErrorCode::Cuda, what);
  }
}

void throw_cupti_error(CUptiResult status, const char* call, const char* file, int line) {
  throw Error(ErrorCode::Profiler, "CUPTI error " + cupti_status_text(status) + where(call, file, line));
}

}  // namespace bigtune::profiler::detail
