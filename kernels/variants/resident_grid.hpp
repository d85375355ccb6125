// Blocks of a kernel the GPU holds at once (occupancy x SMs), for launches
// that size their grid to one wave: persistent kernels that loop over their
// work (ntt_grid.hpp, the DFMA mulmod's warp tiles) and launches cut into
// whole waves (warp_mod_launch.cu).
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace bigtune::kernels::variants {

// 0 when a query fails (the error is cleared: it is not the launch's).
inline uint64_t resident_blocks(const void* kernel, uint32_t threads, uint32_t smem) {
  int device = 0, sms = 0, per_sm = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(threads), size_t(smem)) != cudaSuccess ||
      sms <= 0 || per_sm <= 0) {
    (void)cudaGetLastError();
    return 0;
  }
  return uint64_t(sms) * uint64_t(per_sm);
}

}  // namespace bigtune::kernels::variants
