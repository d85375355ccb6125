#include "bench/device_fill.cuh"

namespace bigtune::bench {
namespace {
__device__ uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__global__ void fill_kernel(uint64_t* words, uint64_t per, uint64_t total, uint64_t bits, uint64_t seed) {
  const uint64_t top = bits / 64, rest = bits % 64;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < total; i += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t j = i % per;
    uint64_t v = splitmix64(i ^ (seed << 40) ^ seed);
    if (j > top || (j == top && rest == 0)) v = 0;
    else if (j == top) v &= (uint64_t(1) << rest) - 1;
    words[i] = v;
  }
}
__global__ void spin_kernel(uint64_t ns) {
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while (t - t0 < ns);
}
}  // namespace

cudaError_t spin_ns(uint64_t ns, cudaStream_t stream) {
  spin_kernel<<<1, 1, 0, stream>>>(ns);
  return cudaGetLastError();
}

cudaError_t fill_random(uint64_t* words, uint64_t per, uint64_t count, uint64_t bits, uint64_t seed,
                        cudaStream_t stream) {
  fill_kernel<<<132 * 8, 256, 0, stream>>>(words, per, per * count, bits, seed);
  return cudaGetLastError();
}

}  // namespace bigtune::bench
