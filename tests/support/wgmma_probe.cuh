// The probe of the wgmma model (kernels/block/wgmma_u8.cuh): one warpgroup
// runs one wgmma m64n128k32 whose B is the Toeplitz band of a constant k,
// read through the expanded array E of bench/notes/tcbarrett-bound.md
// ("wgmma, worked out on paper"), and writes D where the model says each
// accumulator sits. D[i][c - c0] must be the column sums
// sum_j x_i[j] k[c - j] (j < 32, c in [c0, c0 + 128)) of 64 rows x_i of 32
// bytes: A's bytes go in reversed (K' = 31 - j, prmt), so that
// B[K'][c] = k[c - 31 + K'] depends on c + K' alone and E's rows 16 bytes
// apart serve every column: LBO (along K) = 256 bytes, SBO (along N) = 128.
// The same source runs on the host emulation (CPU test) and on an sm_90a
// GPU (GPU test); the GPU test also swaps LBO and SBO to tell a wrong model
// from a wrong kernel.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/block/wgmma_u8.cuh"

namespace bigtune::test {

struct WgmmaProbeArgs {
  const uint8_t* x = nullptr;  // 64 rows of 32 bytes
  const uint8_t* k = nullptr;
  uint32_t k_bytes = 0;
  uint32_t c0 = 0;             // the tile's first column
  uint32_t lbo = 256, sbo = 128;
  int32_t* d = nullptr;        // 64 x 128, row major
  // A from shared memory too (the product kernel's form, wgmma_m64n128k32_u8_ss):
  // the 64 rows byte-reversed in two 16-byte slices, LBO 1024, SBO 128.
  bool a_in_shared = false;
};

constexpr uint32_t kProbeOff = 31;  // E's row r holds k[r - 31 ..]: the tile starts at row c0
// E's rows for a tile at c0: the model reads rows c0 .. c0 + 143; with LBO
// and SBO swapped a descriptor reaches 16 * 15 + 8 + 7 rows on: room for both.
__host__ __device__ inline uint32_t probe_rows(uint32_t c0) { return c0 + 288; }
// E, then A's two slices (64 rows x 16 bytes each) for the shared-memory form.
__host__ __device__ inline uint32_t probe_smem_bytes(uint32_t c0) { return 16 * probe_rows(c0) + 2048; }

// E's bytes: row r = k[r - kProbeOff + i], i < 16 (zero outside [0, k_bytes)).
__device__ inline void probe_fill_rows(unsigned char* e, const uint8_t* k, uint32_t k_bytes, uint32_t rows) {
  for (uint32_t u = threadIdx.x; u < 16 * rows; u += blockDim.x) {
    const int64_t idx = int64_t(u / 16) - int64_t(kProbeOff) + int64_t(u % 16);
    e[u] = idx >= 0 && idx < int64_t(k_bytes) ? k[idx] : 0;
  }
}

// One block of 128 threads; probe_smem_bytes(c0) of dynamic shared memory.
__global__ void __launch_bounds__(128) wgmma_probe_kernel(const WgmmaProbeArgs p) {
#if defined(BIGTUNE_WARP_EMULATION) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
  const uint32_t rows = probe_rows(p.c0);
#ifdef BIGTUNE_WARP_EMULATION
  unsigned char* e = emu::dynamic_shared(probe_smem_bytes(p.c0));
#else
  extern __shared__ __align__(128) unsigned char probe_smem[];
  unsigned char* e = probe_smem;
#endif
  probe_fill_rows(e, p.k, p.k_bytes, rows);
  // A's rows reversed (xr[u] = x[31 - u]) in slices of 16 bytes: byte u of
  // row i at 1024 (u / 16) + 16 i + u % 16.
  unsigned char* a_smem = e + 16 * rows;
  for (uint32_t v = threadIdx.x; v < 64 * 32; v += blockDim.x)
    a_smem[1024 * ((v % 32) / 16) + 16 * (v / 32) + v % 16] = p.x[32 * (v / 32) + 31 - v % 32];
  kernels::block::fence_shared_for_tensor_cores();
  __syncthreads();
  const uint32_t t = threadIdx.x, w = t / 32, g = (t % 32) / 4, tq = t % 4;
  const uint32_t r0 = 16 * w + g, r1 = r0 + 8;
  auto word = [&](uint32_t row, uint32_t m) {
    const uint8_t* b = p.x + 32 * row + 4 * m;
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  };
  // K' = 4 tq .. 4 tq + 3 are x's bytes 31 - 4 tq down to 28 - 4 tq: word 7 - tq reversed.
  const uint32_t a[4] = {__byte_perm(word(r0, 7 - tq), 0, 0x0123), __byte_perm(word(r1, 7 - tq), 0, 0x0123),
                         __byte_perm(word(r0, 3 - tq), 0, 0x0123), __byte_perm(word(r1, 3 - tq), 0, 0x0123)};
  int d[kernels::block::kWgmmaAcc];
  for (int& v : d) v = 0;
  const uint32_t start = kernels::block::shared_address(e + 16 * (p.c0 - 31 + kProbeOff));
  const uint64_t desc = kernels::block::wgmma_descriptor(start, p.lbo, p.sbo);
  kernels::block::wgmma_fence();
  if (p.a_in_shared)
    kernels::block::wgmma_m64n128k32_u8_ss(
        d, kernels::block::wgmma_descriptor(kernels::block::shared_address(a_smem), 1024, 128), desc, 0);
  else
    kernels::block::wgmma_m64n128k32_u8(d, a, desc, 0);
  kernels::block::wgmma_commit();
  kernels::block::wgmma_wait_all();
  for (uint32_t i = 0; i < kernels::block::kWgmmaAcc; ++i) {
    const uint32_t row = 16 * w + g + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * tq + (i & 1);
    p.d[row * 128 + col] = d[i];
  }
#endif
}

// The column sums the probe must write.
inline std::vector<int32_t> probe_expected(const std::vector<uint8_t>& x, const std::vector<uint8_t>& k, uint32_t c0) {
  std::vector<int32_t> d(64 * 128, 0);
  for (uint32_t i = 0; i < 64; ++i)
    for (uint32_t c = 0; c < 128; ++c) {
      int64_t s = 0;
      for (uint32_t j = 0; j < 32; ++j) {
        const int64_t idx = int64_t(c0 + c) - int64_t(j);
        if (idx >= 0 && idx < int64_t(k.size())) s += int64_t(x[32 * i + j]) * k[idx];
      }
      d[128 * i + c] = int32_t(s);
    }
  return d;
}

}  // namespace bigtune::test
