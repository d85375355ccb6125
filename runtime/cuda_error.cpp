#include <cstring>

#include "bigtune/detail/cuda_check.hpp"

namespace bigtune::detail {

std::string cuda_status_text(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")";
}

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  const std::string what = "CUDA error " + cuda_status_text(status) + " in " + call + " at " +
                           (base ? base + 1 : file) + ":" + std::to_string(line);
  switch (status) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
      throw Error(ErrorCode::NoDevice, what, "run on a machine with an NVIDIA GPU and a CUDA 12.4+ driver");
    case cudaErrorMemoryAllocation:
      throw Error(ErrorCode::OutOfMemory, what, "use smaller batches or free device memory");
    // The launch itself was refused: the configuration is invalid, the context is fine.
    case cudaErrorInvalidConfiguration:
    case cudaErrorInvalidValue:
    case cudaErrorLaunchOutOfResources:
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorNoKernelImageForDevice:
      throw Error(ErrorCode::InvalidArgument, what, "this launch configuration cannot run here");
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
      throw Error(ErrorCode::Cuda, what, "the device context is lost: start a new process, and report this as a bug");
    default:
      throw Error(ErrorCode::Cuda, what, "check the driver and the arguments");
  }
}

}  // namespace bigtune::detail
