// Micro-benchmark kernels of the device probe. Each kernel is sized to run a
// few milliseconds on an H100, is timed with CUDA events after one warm-up
// run, and the median of the timed runs is returned, so a probe takes about a
// second and repeats within a few percent.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "profiler/detail/check.hpp"
#include "profiler/detail/probe_benchmarks.hpp"
#include "profiler/statistics.hpp"

namespace bigtune::profiler::detail {
namespace {

constexpr int kThreads = 256;

__global__ void copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = src[i];
}

// Each iteration: one conflict-free 32-bit shared load and one store per
// thread (a warp touches 32 consecutive words, one wavefront each way).
constexpr int kSharedWords = 2048;
__global__ void shared_kernel(uint32_t* out, int iterations) {
  __shared__ uint32_t buf[kSharedWords];
  for (int i = threadIdx.x; i < kSharedWords; i += blockDim.x) buf[i] = i;
  __syncthreads();
  volatile uint32_t* v = buf;
  int idx = threadIdx.x & (kSharedWords / 2 - 1);
  uint32_t acc = 0;
  for (int i = 0; i < iterations; ++i) {
    const uint32_t x = v[idx];
    v[idx ^ (kSharedWords / 2)] = x + acc;
    acc += x;
    idx = (idx + 32) & (kSharedWords / 2 - 1);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Eight independent multiply-add chains per thread; every step is one
// integer multiply of type T (for 64 bits, the compiler's multi-instruction
// sequence: this measures what a 64-bit limb product costs).
constexpr int kChains = 8;
template <class T>
__global__ void mul_kernel(T* out, T seed, int iterations) {
  T x[kChains];
  const T m = seed | 1, a = seed >> 3;
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = seed + threadIdx.x + c;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = x[c] * m + a;
  }
  T sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum ^= x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void empty_kernel() {}

// Median time in ms of `run` (enqueues work on stream 0), after one warm-up.
double median_ms(int repetitions, const std::function<void()>& run) {
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<double> ms;
  try {
    BIGTUNE_CUDA_CHECK(cudaEventCreate(&start));
    BIGTUNE_CUDA_CHECK(cudaEventCreate(&stop));
    run();
    BIGTUNE_CUDA_CHECK(cudaGetLastError());
    BIGTUNE_CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < repetitions; ++r) {
      BIGTUNE_CUDA_CHECK(cudaEventRecord(start));
      run();
      BIGTUNE_CUDA_CHECK(cudaEventRecord(stop));
      BIGTUNE_CUDA_CHECK(cudaEventSynchronize(stop));
      BIGTUNE_CUDA_CHECK(cudaGetLastError());
      float t = 0;
      BIGTUNE_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t);
    }
  } catch (...) {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(ms);
}

// Device buffer freed on scope exit.
struct DeviceBuffer {
  void* p = nullptr;
  explicit DeviceBuffer(size_t bytes) { BIGTUNE_CUDA_CHECK(cudaMalloc(&p, bytes)); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

}  // namespace

double bench_copy_gbs(const BenchContext& c) {
  size_t free_bytes = 0, total = 0;
  BIGTUNE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  // 512 MiB per buffer (10x the H100's L2) or a quarter of what is free.
  const size_t bytes = std::min<size_t>(size_t{512} << 20, free_bytes / 4) & ~size_t{15};
  DeviceBuffer src(bytes), dst(bytes);
  BIGTUNE_CUDA_CHECK(cudaMemset(src.p, 1, bytes));
  const size_t n = bytes / sizeof(uint4);
  const int blocks = c.sm_count * 8;
  constexpr int kCopies = 4;
  const double ms = median_ms(c.repetitions, [&] {
    for (int k = 0; k < kCopies; ++k)
      copy_kernel<<<blocks, kThreads>>>(static_cast<uint4*>(dst.p), static_cast<const uint4*>(src.p), n);
  });
  return 2.0 * static_cast<double>(bytes) * kCopies / (ms * 1e-3) / 1e9;
}

double bench_shared_gbs(const BenchContext& c) {
  const int blocks = c.sm_count * 8;  // 2048 threads per SM on Hopper: all resident
  const int iterations = 1 << 14;
  DeviceBuffer out(static_cast<size_t>(blocks) * kThreads * sizeof(uint32_t));
  const double ms = median_ms(c.repetitions, [&] {
    shared_kernel<<<blocks, kThreads>>>(static_cast<uint32_t*>(out.p), iterations);
  });
  const double bytes = 2.0 * sizeof(uint32_t) * iterations * static_cast<double>(blocks) * kThreads;
  return bytes / (ms * 1e-3) / 1e9;
}

template <class T>
static double bench_mul(const BenchContext& c, int iterations) {
  const int blocks = c.sm_count * 8;
  DeviceBuffer out(static_cast<size_t>(blocks) * kThreads * sizeof(T));
  const double ms = median_ms(c.repetitions, [&] {
    mul_kernel<T><<<blocks, kThreads>>>(static_cast<T*>(out.p), static_cast<T>(0x9e3779b97f4a7c15ull), iterations);
  });
  const double ops = static_cast<double>(iterations) * kChains * static_cast<double>(blocks) * kThreads;
  return ops / (ms * 1e-3) / 1e9;
}

double bench_mul32_gops(const BenchContext& c) { return bench_mul<uint32_t>(c, 1 << 13); }
double bench_mul64_gops(const BenchContext& c) { return bench_mul<uint64_t>(c, 1 << 11); }

void bench_launch_us(const BenchContext& c, double* interval_us, double* sync_us) {
  constexpr int kLaunches = 1000;
  const double ms = median_ms(c.repetitions, [&] {
    for (int i = 0; i < kLaunches; ++i) empty_kernel<<<1, 32>>>();
  });
  *interval_us = ms * 1e3 / kLaunches;

  constexpr int kRoundTrips = 200;
  std::vector<double> us;
  for (int r = 0; r < c.repetitions; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kRoundTrips; ++i) {
      empty_kernel<<<1, 32>>>();
      BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    }
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                 kRoundTrips);
  }
  *sync_us = median(us);
}

}  // namespace bigtune::profiler::detail
