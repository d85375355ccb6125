// bigtune-add-probe: the memory access patterns of the multi-tile add/sub
// kernels without their carry logic (r = a XOR b per limb), to separate what
// the pattern costs from what the carry passing costs (bench/notes/add-stream.md).
//
// Patterns, each over a batch of bits x count = 2^32 (a, b, r 512 MB each):
//   linear  - every block takes the next 2^17-bit chunk of the whole batch:
//             three linear streams, the best any add can do;
//   walk    - one block per instance walking it tile by tile with S cp.async
//             stages, as the streaming kernel (kernels/variants/stream_kernels.cuh);
//   front   - one block per (instance, tile), tile-fastest in blockIdx order, as
//             the chained kernel (chained_kernels.cuh) with a look-back that
//             costs nothing.
// Prints GB/s (3 * bits / 8 bytes per instance) and % of the device copy
// bandwidth (cudaMemcpy device to device, read + write) measured in the same run.
#include <cuda_pipeline.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "bench/probe_check.hpp"
#include "kernels/block/staging.cuh"

namespace {
using bigtune::kernels::block::copy_tile_async;
using bigtune::kernels::block::smem_physical;
using bigtune::kernels::block::store_tile;


__device__ __forceinline__ uint64_t* smem64() {
  extern __shared__ __align__(16) unsigned char probe_smem[];
  return reinterpret_cast<uint64_t*>(probe_smem);
}

__global__ void linear_kernel(const uint4* a, const uint4* b, uint4* r, uint64_t n16, uint32_t chunk16) {
  for (uint64_t base = uint64_t(blockIdx.x) * chunk16; base < n16; base += uint64_t(gridDim.x) * chunk16)
    for (uint32_t i = threadIdx.x; i < chunk16 && base + i < n16; i += blockDim.x) {
      const uint4 x = a[base + i], y = b[base + i];
      r[base + i] = make_uint4(x.x ^ y.x, x.y ^ y.y, x.z ^ y.z, x.w ^ y.w);
    }
}

// XOR of the staged tile, striped (each thread its own limbs), stored at once.
__device__ __forceinline__ void xor_store(uint64_t* r, const uint64_t* s, uint32_t a_off, uint32_t b_off,
                                          uint32_t len) {
  for (uint32_t i = threadIdx.x; i < len; i += blockDim.x)
    r[i] = s[smem_physical<uint64_t>(a_off + i)] ^ s[smem_physical<uint64_t>(b_off + i)];
}

template <int S>
__global__ void walk_kernel(const uint64_t* a, const uint64_t* b, uint64_t* r, uint32_t m, uint32_t tile) {
  uint64_t* s = smem64();
  const uint32_t tiles = (m + tile - 1) / tile, buf = min(m, tile), stages = min(tiles, uint32_t(S));
  const uint64_t off = uint64_t(blockIdx.x) * m;
  auto fetch = [&](uint32_t k, uint32_t st) {
    if (k < tiles) {
      const uint32_t start = k * tile, len = min(tile, m - start);
      copy_tile_async(s, 2 * st * buf, a + off + start, len);
      copy_tile_async(s, (2 * st + 1) * buf, b + off + start, len);
    } else {
      __pipeline_commit();
      __pipeline_commit();
    }
  };
#pragma unroll
  for (uint32_t k = 0; k + 1 < S; ++k) fetch(k, k);
  uint32_t st = 0;
  for (uint32_t t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(2 * (S - 2));
    __syncthreads();
    fetch(t + S - 1, (st + S - 1) % stages);
    const uint32_t start = t * tile, len = min(tile, m - start);
    xor_store(r + off + start, s, 2 * st * buf, (2 * st + 1) * buf, len);
    st = st + 1 == stages ? 0 : st + 1;
  }
}

__global__ void front_kernel(const uint64_t* a, const uint64_t* b, uint64_t* r, uint32_t m, uint32_t tile) {
  uint64_t* s = smem64();
  const uint32_t tiles = (m + tile - 1) / tile, buf = min(m, tile);
  const uint64_t inst = blockIdx.x / tiles;
  const uint32_t t = blockIdx.x - uint32_t(inst) * tiles, start = t * tile, len = min(tile, m - start);
  const uint64_t off = inst * m + start;
  copy_tile_async(s, 0, a + off, len);
  copy_tile_async(s, buf, b + off, len);
  __pipeline_wait_prior(0);
  __syncthreads();
  xor_store(r + off, s, 0, buf, len);
}

uint32_t padded_bytes(uint64_t logical) { return uint32_t((logical + logical / 16 + 1) * 8); }

template <class F>
double median_ms(F&& launch) {
  cudaEvent_t e0, e1;
  PROBE_CHECK(cudaEventCreate(&e0));
  PROBE_CHECK(cudaEventCreate(&e1));
  launch();
  launch();
  PROBE_CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 25; ++i) {
    PROBE_CHECK(cudaEventRecord(e0));
    launch();
    PROBE_CHECK(cudaEventRecord(e1));
    PROBE_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms);
  }
  PROBE_CHECK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return t[t.size() / 2];
}
}  // namespace

int main() {
  const uint64_t total_words = uint64_t(1) << 26;  // 2^32 bits
  uint64_t *a, *b, *r;
  PROBE_CHECK(cudaMalloc(&a, total_words * 8));
  PROBE_CHECK(cudaMalloc(&b, total_words * 8));
  PROBE_CHECK(cudaMalloc(&r, total_words * 8));
  PROBE_CHECK(cudaMemset(a, 0x3c, total_words * 8));
  PROBE_CHECK(cudaMemset(b, 0x5a, total_words * 8));
  const double copy_ms = median_ms([&] { cudaMemcpyAsync(r, a, total_words * 8, cudaMemcpyDeviceToDevice); });
  const double copy_gbs = 2.0 * total_words * 8 / (copy_ms * 1e-3) / 1e9;
  cudaDeviceProp p;
  PROBE_CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s (%d SMs); copy bandwidth (read+write) %.0f GB/s\n", p.name, p.multiProcessorCount, copy_gbs);
  auto report = [&](const char* pattern, uint64_t bits, uint64_t count, const char* shape, double ms) {
    const double gbs = 3.0 * bits / 8 * count / (ms * 1e-3) / 1e9;
    std::printf("%-7s %9llu bits x %6llu  %-22s %8.4f ms %7.0f GB/s %6.1f %% of copy\n", pattern,
                (unsigned long long)bits, (unsigned long long)count, shape, ms, gbs, 100 * gbs / copy_gbs);
  };
  {
    const uint64_t n16 = total_words / 2;
    const double ms = median_ms([&] {
      linear_kernel<<<p.multiProcessorCount * 8, 256>>>(reinterpret_cast<const uint4*>(a),
                                                       reinterpret_cast<const uint4*>(b), reinterpret_cast<uint4*>(r),
                                                       n16, 1024);
    });
    report("linear", uint64_t(1) << 32, 1, "256 thr, 16 KB chunks", ms);
  }
  struct Walk {
    uint32_t threads, q, stages;
  };
  const Walk walks[] = {{256, 4, 2}, {256, 4, 3}, {256, 4, 4}, {256, 8, 3}, {512, 4, 2}, {128, 8, 2}, {128, 4, 2}, {128, 4, 3}, {128, 4, 4}};
  std::vector<uint64_t> sizes;
  for (int lg = 17; lg <= 22; ++lg) sizes.push_back(uint64_t(1) << lg);
  sizes.push_back((uint64_t(1) << 20) + 4096);  // not a power of two: instances 512 bytes apart from 2^17-byte strides
  sizes.push_back((uint64_t(1) << 20) - 4096 * 3);
  for (uint64_t bits : sizes) {
    const uint32_t m = uint32_t(bits / 64);
    const uint64_t count = total_words / m;
    for (const Walk& w : walks) {
      const uint32_t tile = w.threads * w.q, tiles = (m + tile - 1) / tile;
      const uint32_t smem = padded_bytes(uint64_t(2) * std::min(tiles, w.stages) * std::min(m, tile));
      auto kernel = w.stages == 2 ? walk_kernel<2> : w.stages == 3 ? walk_kernel<3> : walk_kernel<4>;
      PROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      const double ms = median_ms([&] { kernel<<<uint32_t(count), w.threads, smem>>>(a, b, r, m, tile); });
      char shape[64];
      std::snprintf(shape, sizeof shape, "t%u q%u s%u (%u/SM)", w.threads, w.q, w.stages,
                    std::min<uint32_t>(2048 / w.threads, uint32_t(p.sharedMemPerMultiprocessor / (smem + 1280))));
      report("walk", bits, count, shape, ms);
    }
    for (uint32_t tile_bits_log : {17u, 18u, 19u}) {
      const uint32_t tile = (1u << tile_bits_log) / 64, threads = 512;
      const uint32_t tiles = (m + tile - 1) / tile, smem = padded_bytes(uint64_t(2) * std::min(m, tile));
      PROBE_CHECK(cudaFuncSetAttribute(front_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      const double ms =
          median_ms([&] { front_kernel<<<uint32_t(count * tiles), threads, smem>>>(a, b, r, m, tile); });
      char shape[64];
      std::snprintf(shape, sizeof shape, "2^%u-bit tiles, t%u", tile_bits_log, threads);
      report("front", bits, count, shape, ms);
    }
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(r);
  return 0;
}
