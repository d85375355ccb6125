#include "profiler/detail/driver.hpp"

#include <cuda_runtime_api.h>

#include "profiler/detail/check.hpp"

namespace bigtune::profiler::detail {

CUcontext current_context() {
  using CtxGetCurrent = CUresult (*)(CUcontext*);
  static CtxGetCurrent get_current = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    BIGTUNE_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 4000,
                                                        cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw Error(ErrorCode::Cuda, "the CUDA driver does not provide cuCtxGetCurrent");
    return reinterpret_cast<CtxGetCurrent>(fn);
  }();
  BIGTUNE_CUDA_CHECK(cudaFree(nullptr));  // makes the runtime's primary context current
  CUcontext ctx = nullptr;
  const CUresult status = get_current(&ctx);
  if (status != CUDA_SUCCESS || ctx == nullptr)
    throw Error(ErrorCode::Cuda, "cuCtxGetCurrent failed (CUresult " + std::to_string(status) + ")");
  return ctx;
}

}  // namespace bigtune::profiler::detail
