// bigtune-dfma-probe: how fast a GPU forms 1024-bit x 1024-bit products, one
// per thread, with 32-bit integer limbs (IMAD.WIDE on the FMA-heavy pipe, as
// every bigtune kernel does) against 52-bit limbs in doubles (DFMA on the
// FP64 pipe, which the integer kernels leave idle). The question behind it
// (bench/notes/powmregs-bound.md, "What would move it" 3): is the FP64 pipe a
// second source of limb products worth a kernel family?
//
// The FP64 product of two 52-bit integers a, b (Emmart, Zheng & Weems, "Faster
// modular exponentiation using double precision floating point arithmetic on
// the GPU", ARITH 2018): hi = fma_rz(a, b, 2^104) keeps floor(ab / 2^52) in its
// mantissa (the ulp there is 2^52), s = (2^104 + 2^52) - hi, and
// lo = fma_rz(a, b, s) = ab mod 2^52 + 2^52 exactly; the bit patterns of hi and
// lo, read as integers, are the two halves plus a constant exponent field, so
// columns are summed as 64-bit integers (wrapping) and the constants taken
// off once per column. Three FP64 operations and two 64-bit integer adds a
// limb product, against one IMAD.WIDE for 32-bit limbs; but a 52-bit limb
// product is 2.64x the bits of a 32-bit one.
//
// Operands live in registers and change every round (all limbs, so no product
// is loop-invariant); the products fold into a checksum. Thread 0's first
// product of each kind is written out and checked against GMP on the host.
// Prints 1024-bit products per second, limb products per second and bit
// products (limb products x limb bits^2) per second.
#include <cuda_runtime_api.h>
#include <gmp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/probe_check.hpp"

namespace {

constexpr int kN32 = 32;  // 1024 bits in 32-bit limbs
constexpr int kN52 = 20;  // 1040 bits in 52-bit limbs
constexpr uint64_t kMask52 = (uint64_t(1) << 52) - 1;

__device__ __forceinline__ uint64_t next_random(uint64_t& s) {  // xorshift64*
  s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
  return s * 0x2545F4914F6CDD1Dull;
}

// dump (thread 0, round 0): a, b, then the product, as 64-bit words each.
__global__ void __launch_bounds__(256) imad_product_kernel(int rounds, uint64_t* checksum, uint64_t* dump) {
  uint64_t s = 0x9E3779B97F4A7C15ull * (blockIdx.x * blockDim.x + threadIdx.x + 1);
  uint32_t a[kN32], b[kN32];
#pragma unroll
  for (int j = 0; j < kN32; ++j) a[j] = uint32_t(next_random(s)), b[j] = uint32_t(next_random(s));
  uint64_t sum = 0;
  for (int k = 0; k < rounds; ++k) {
    uint32_t t[2 * kN32];
#pragma unroll
    for (int j = 0; j < 2 * kN32; ++j) t[j] = 0;
#pragma unroll
    for (int i = 0; i < kN32; ++i) {
      uint64_t c = 0;
#pragma unroll
      for (int j = 0; j < kN32; ++j) {
        const uint64_t p = uint64_t(a[j]) * b[i] + t[i + j] + c;
        t[i + j] = uint32_t(p);
        c = p >> 32;
      }
      t[i + kN32] = uint32_t(c);
    }
    if (k == 0 && dump && blockIdx.x == 0 && threadIdx.x == 0) {
      for (int j = 0; j < kN32; ++j) dump[j] = a[j], dump[kN32 + j] = b[j];
      for (int j = 0; j < 2 * kN32; ++j) dump[2 * kN32 + j] = t[j];
    }
#pragma unroll
    for (int j = 0; j < 2 * kN32; ++j) sum += t[j];
#pragma unroll
    for (int j = 0; j < kN32; ++j) a[j] = a[j] * 0x9E3779B1u + t[j], b[j] = b[j] * 0x85EBCA6Bu + t[kN32 + j];
  }
  if (sum == 0x1234567) *checksum = sum;  // keeps the work; practically never written
}

__global__ void __launch_bounds__(256) dfma_product_kernel(int rounds, uint64_t* checksum, uint64_t* dump) {
  const double c1 = 0x1p104, c12 = 0x1p104 + 0x1p52;
  const uint64_t c1_bits = 0x4670000000000000ull, c2_bits = 0x4330000000000000ull;  // 2^104, 2^52
  uint64_t s = 0x9E3779B97F4A7C15ull * (blockIdx.x * blockDim.x + threadIdx.x + 1);
  // The operands stay doubles (exact integers below 2^52): the next round's
  // are the limbs of this round's product, scrambled, so no limb product is
  // loop-invariant and no integer copy of the operands holds registers.
  double a[kN52], b[kN52];
#pragma unroll
  for (int j = 0; j < kN52; ++j) a[j] = double(next_random(s) & kMask52), b[j] = double(next_random(s) & kMask52);
  uint64_t sum = 0;
  for (int k = 0; k < rounds; ++k) {
    uint64_t col[2 * kN52];
#pragma unroll
    for (int j = 0; j < 2 * kN52; ++j) col[j] = 0;
#pragma unroll
    for (int i = 0; i < kN52; ++i) {
#pragma unroll
      for (int j = 0; j < kN52; ++j) {
        const double hi = __fma_rz(a[i], b[j], c1);
        const double sub = __dsub_rz(c12, hi);
        const double lo = __fma_rz(a[i], b[j], sub);
        col[i + j + 1] += uint64_t(__double_as_longlong(hi));
        col[i + j] += uint64_t(__double_as_longlong(lo));
      }
    }
    // Column c got min(c, 2N - c) hi parts (from i + j = c - 1) and
    // min(c + 1, 2N - 1 - c) lo parts; each part carries its exponent field.
    uint64_t carry = 0;
#pragma unroll
    for (int j = 0; j < 2 * kN52; ++j) {
      const uint64_t n_hi = j == 0 ? 0 : uint64_t(j <= kN52 ? j : 2 * kN52 - j);
      const uint64_t n_lo = j >= 2 * kN52 - 1 ? 0 : uint64_t(j < kN52 ? j + 1 : 2 * kN52 - 1 - j);
      const uint64_t v = col[j] - n_hi * c1_bits - n_lo * c2_bits + carry;
      col[j] = v & kMask52;
      carry = v >> 52;
    }
    if (k == 0 && dump && blockIdx.x == 0 && threadIdx.x == 0) {
      for (int j = 0; j < kN52; ++j) dump[j] = uint64_t(a[j]), dump[kN52 + j] = uint64_t(b[j]);
      for (int j = 0; j < 2 * kN52; ++j) dump[2 * kN52 + j] = col[j];
    }
#pragma unroll
    for (int j = 0; j < 2 * kN52; ++j) sum += col[j];
#pragma unroll
    for (int j = 0; j < kN52; ++j)
      a[j] = double((col[j] * 0x9E3779B97F4A7C15ull) >> 12), b[j] = double((col[kN52 + j] * 0xBF58476D1CE4E5B9ull) >> 12);
  }
  if (sum == 0x1234567) *checksum = sum;
}

// x = sum of n limbs of `bits` bits each (little-endian), limbs given as 64-bit words.
void limbs_to_mpz(mpz_t x, const uint64_t* w, int n, int bits) {
  mpz_set_ui(x, 0);
  for (int j = n - 1; j >= 0; --j) {
    mpz_mul_2exp(x, x, bits);
    mpz_add_ui(x, x, w[j]);
  }
}

bool check(const char* what, const std::vector<uint64_t>& dump, int n, int bits) {
  mpz_t a, b, p, want;
  mpz_inits(a, b, p, want, nullptr);
  limbs_to_mpz(a, dump.data(), n, bits);
  limbs_to_mpz(b, dump.data() + n, n, bits);
  limbs_to_mpz(p, dump.data() + 2 * n, 2 * n, bits);
  mpz_mul(want, a, b);
  const bool ok = mpz_cmp(want, p) == 0;
  std::printf("%s: thread 0's first product %s GMP's\n", what, ok ? "matches" : "DIFFERS FROM");
  mpz_clears(a, b, p, want, nullptr);
  return ok;
}

template <typename Kernel>
double time_ms(Kernel kernel, int blocks, int rounds, uint64_t* checksum, uint64_t* dump, int reps) {
  kernel<<<blocks, 256>>>(rounds, checksum, dump);  // warm-up (and the dump)
  PROBE_CHECK(cudaGetLastError());
  PROBE_CHECK(cudaDeviceSynchronize());
  cudaEvent_t t0, t1;
  PROBE_CHECK(cudaEventCreate(&t0));
  PROBE_CHECK(cudaEventCreate(&t1));
  std::vector<float> ms(reps);
  for (int r = 0; r < reps; ++r) {
    PROBE_CHECK(cudaEventRecord(t0));
    kernel<<<blocks, 256>>>(rounds, checksum, nullptr);
    PROBE_CHECK(cudaEventRecord(t1));
    PROBE_CHECK(cudaEventSynchronize(t1));
    PROBE_CHECK(cudaEventElapsedTime(&ms[r], t0, t1));
  }
  std::sort(ms.begin(), ms.end());
  return ms[reps / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 64;
  cudaDeviceProp prop{};
  PROBE_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int blocks = prop.multiProcessorCount * 16;  // many waves of 256-thread blocks
  uint64_t *checksum = nullptr, *dump = nullptr;
  PROBE_CHECK(cudaMalloc(&checksum, 8));
  PROBE_CHECK(cudaMalloc(&dump, 8 * 4 * kN32));
  std::vector<uint64_t> host(4 * kN32);
  std::printf("device: %s (%d SMs); %d blocks x 256 threads, %d products a thread\n", prop.name,
              prop.multiProcessorCount, blocks, rounds);
  const double products = double(blocks) * 256 * rounds;
  bool ok = true;
  struct Kind {
    const char* name;
    void (*kernel)(int, uint64_t*, uint64_t*);
    int n, bits;
  };
  for (const Kind& k : {Kind{"imad u32 x32", imad_product_kernel, kN32, 32}, Kind{"dfma 52-bit x20", dfma_product_kernel, kN52, 52}}) {
    const double ms = time_ms(k.kernel, blocks, rounds, checksum, dump, 5);
    PROBE_CHECK(cudaMemcpy(host.data(), dump, host.size() * 8, cudaMemcpyDeviceToHost));
    ok = check(k.name, host, k.n, k.bits) && ok;
    const double per_s = products / (ms * 1e-3), limb = per_s * k.n * k.n;
    std::printf("%-16s %8.3f ms  %.4g products/s  %.4g limb products/s  %.4g bit products/s\n", k.name, ms, per_s,
                limb, limb * k.bits * k.bits);
  }
  return ok ? 0 : 1;
}
