// A user's own fused kernel built from bigtune's device building blocks
// (include/bigtune/device/block_int.cuh): for each instance i,
//   r = a*b + c*d     (n-limb operands, 2n+1-limb result)
// with both products and the sum kept in shared memory, one block per
// instance. Checked against GMP. Exit 0: all match; 1: mismatch; 77: no GPU.
#include <cuda_runtime.h>
#include <gmp.h>

#include <cstdio>
#include <random>
#include <vector>

#include "bigtune/device/block_int.cuh"

using Env = bigtune::device::BlockInt<4>;
using Limb = Env::Limb;

// Dynamic shared memory: the mul tile, then a*b, c*d (2n each).
__global__ void __launch_bounds__(512) sum_of_products(Limb* r, const Limb* a, const Limb* b, const Limb* c,
                                                       const Limb* d, uint32_t n) {
  __shared__ Env::TempStorage storage;
  extern __shared__ __align__(16) unsigned char smem[];
  Env env(storage, smem);
  Limb* ab = reinterpret_cast<Limb*>(smem + Env::tile_bytes(blockDim.x));
  Limb* cd = ab + 2 * n;
  const uint64_t i = blockIdx.x;
  env.mul(ab, a + i * n, n, b + i * n, n);  // operands straight from global memory
  env.mul(cd, c + i * n, n, d + i * n, n);
  const Limb carry = env.add(ab, ab, cd, 2 * n);
  env.store(r + i * (2 * n + 1), ab, 2 * n);
  if (threadIdx.x == 0) r[i * (2 * n + 1) + 2 * n] = carry;
}

#define CHECK(call)                                                                  \
  do {                                                                               \
    const cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));               \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  const uint32_t n = 300, count = 97;  // 19200-bit operands (not a power of two)
  const uint32_t threads = 96;         // a multiple of 32; tiles of 4*96 limbs
  std::mt19937_64 rng(2026);
  std::vector<Limb> h[4];
  for (auto& v : h) {
    v.resize(size_t(n) * count);
    for (auto& x : v) x = rng() & (rng() % 4 == 0 ? 0 : ~Limb(0));  // some zero limbs
  }
  for (uint32_t j = 0; j < n; ++j) h[0][j] = h[1][j] = h[2][j] = h[3][j] = ~Limb(0);  // instance 0: all ones
  Limb *d[4], *dr;
  for (int k = 0; k < 4; ++k) {
    CHECK(cudaMalloc(&d[k], h[k].size() * 8));
    CHECK(cudaMemcpy(d[k], h[k].data(), h[k].size() * 8, cudaMemcpyHostToDevice));
  }
  const size_t out = 2 * n + 1;
  CHECK(cudaMalloc(&dr, out * count * 8));
  const size_t smem = Env::tile_bytes(threads) + 4 * n * sizeof(Limb);
  CHECK(cudaFuncSetAttribute(sum_of_products, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  sum_of_products<<<count, threads, smem>>>(dr, d[0], d[1], d[2], d[3], n);
  CHECK(cudaGetLastError());
  std::vector<Limb> r(out * count);
  CHECK(cudaMemcpy(r.data(), dr, r.size() * 8, cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  mpz_t x[4], want, got;
  for (auto& z : x) mpz_init(z);
  mpz_inits(want, got, nullptr);
  for (uint32_t i = 0; i < count; ++i) {
    for (int k = 0; k < 4; ++k) mpz_import(x[k], n, -1, 8, 0, 0, h[k].data() + size_t(i) * n);
    mpz_mul(want, x[0], x[1]);
    mpz_addmul(want, x[2], x[3]);
    mpz_import(got, out, -1, 8, 0, 0, r.data() + size_t(i) * out);
    if (mpz_cmp(want, got) != 0) ++bad;
  }
  std::printf("sum_of_products: %u instances of %u-bit operands, %u mismatches against GMP\n", count, n * 64, bad);
  return bad == 0 ? 0 : 1;
}
