// One wave of resident blocks that loop over groups of instances (the
// tensor-core product kernels: mul_const_imma_instances.cu,
// mul_const_wgmma_instances.cu): the blocks an SM holds with `smem` bytes of
// dynamic shared memory (opted in first) times the SMs, and no more blocks
// than groups.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace bigtune::kernels::variants {

template <class Args>
inline cudaError_t launch_resident_wave(void (*kernel)(Args), uint32_t threads, uint64_t smem, uint64_t groups,
                                        int sms, const Args& args, cudaStream_t stream) {
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  int per_sm = 0;
  if (e != cudaSuccess ||
      (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(threads), size_t(smem))) != cudaSuccess)
    return e;
  const uint64_t blocks = std::min<uint64_t>(groups, uint64_t(std::max(1, sms * std::max(1, per_sm))));
  kernel<<<uint32_t(blocks), threads, smem, stream>>>(args);
  return cudaGetLastError();
}

}  // namespace bigtune::kernels::variants
