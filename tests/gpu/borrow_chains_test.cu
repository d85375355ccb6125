// The carry-flag chains of kernels/block/borrow_chains.cuh on the GPU (the
// host emulation runs their plain C++ form, not the PTX): sub16_borrow,
// sub16_word and submul16 on random words and on the edges (all-ones and
// zero words: a borrow through all 16; c from 0 to 8, borrows in up to c +
// 1), against GMP on 512-bit values; add16_split and add16_word likewise
// (AddChainsMatchGmp).
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/block/borrow_chains.cuh"
#include "tests/gpu/gpu_available.hpp"

namespace bigtune {
namespace {

// kernel(cases, outs, n) over every case on the GPU, outs read back.
template <class Case, class Out>
void run_cases(void (*kernel)(const Case*, Out*, uint32_t), const std::vector<Case>& cases, std::vector<Out>* outs) {
  const uint32_t n = uint32_t(cases.size());
  Case* dc = nullptr;
  Out* dout = nullptr;
  ASSERT_EQ(cudaMalloc(&dc, n * sizeof(Case)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dout, n * sizeof(Out)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dc, cases.data(), n * sizeof(Case), cudaMemcpyHostToDevice), cudaSuccess);
  kernel<<<(n + 127) / 128, 128>>>(dc, dout, n);
  const cudaError_t ran = cudaDeviceSynchronize();
  outs->resize(n);
  const cudaError_t back = cudaMemcpy(outs->data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost);
  cudaFree(dc);
  cudaFree(dout);
  ASSERT_EQ(ran, cudaSuccess);
  ASSERT_EQ(back, cudaSuccess);
}

struct ChainCase {
  uint32_t x[16], y[16], c, b;
};
struct ChainOut {
  uint32_t borrow[16], word[16], mul[16];  // x after each chain
  uint32_t out_borrow, out_word, out_mul;
};

__global__ void chains_kernel(const ChainCase* cases, ChainOut* outs, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const ChainCase& k = cases[i];
  uint32_t a[16], w[16], m[16];
  for (uint32_t q = 0; q < 16; ++q) a[q] = w[q] = m[q] = k.x[q];
  ChainOut& o = outs[i];
  o.out_borrow = kernels::block::sub16_borrow(a, k.y, k.b & 1u);
  o.out_word = kernels::block::sub16_word(w, k.b);
  o.out_mul = kernels::block::submul16(m, k.y, k.c, k.b);
  for (uint32_t q = 0; q < 16; ++q) o.borrow[q] = a[q], o.word[q] = w[q], o.mul[q] = m[q];
}

// x - z as 16 words and the borrow out: (z - x) / 2^512 rounded up, 0 when x >= z.
void expect_chain(const uint32_t (&x)[16], const mpz_t z, const uint32_t (&got)[16], uint32_t got_out,
                  const char* what, uint64_t i) {
  mpz_t xv, d, want, g, out;
  mpz_inits(xv, d, want, g, out, nullptr);
  mpz_import(xv, 16, -1, 4, 0, 0, x);
  mpz_sub(d, xv, z);
  mpz_fdiv_r_2exp(want, d, 512);
  mpz_import(g, 16, -1, 4, 0, 0, got);
  mpz_neg(d, d);
  mpz_cdiv_q_2exp(out, d, 512);  // borrow out: ceil((z - x) / 2^512), at least 0
  if (mpz_sgn(out) < 0) mpz_set_ui(out, 0);
  EXPECT_EQ(mpz_cmp(g, want), 0) << what << ", case " << i;
  EXPECT_EQ(mpz_get_ui(out), got_out) << what << ", case " << i;
  mpz_clears(xv, d, want, g, out, nullptr);
}

TEST(BorrowChains, MatchGmp) {
  BIGTUNE_REQUIRE_GPU();
  std::mt19937_64 rng(20261129);
  std::vector<ChainCase> cases;
  for (uint32_t i = 0; i < 4096; ++i) {
    ChainCase k{};
    const uint32_t kind = i % 8;
    for (uint32_t q = 0; q < 16; ++q) {
      const uint32_t r = uint32_t(rng());
      k.x[q] = kind == 1 ? 0u : kind == 2 ? ~0u : kind == 3 && q % 5 == 0 ? 0u : r;
      k.y[q] = kind == 4 ? ~0u : kind == 5 ? 0u : kind == 6 ? k.x[q] : uint32_t(rng());
    }
    k.c = i / 8 % 9;  // 0 .. 8
    k.b = i / 72 % 2 ? uint32_t(rng() % (k.c + 2)) : (i / 72 % 4 == 2 ? 0u : 1u);  // up to c + 1
    cases.push_back(k);
  }
  const uint32_t n = uint32_t(cases.size());
  std::vector<ChainOut> outs;
  ASSERT_NO_FATAL_FAILURE(run_cases(chains_kernel, cases, &outs));
  mpz_t z;
  mpz_init(z);
  for (uint32_t i = 0; i < n; ++i) {
    const ChainCase& k = cases[i];
    mpz_import(z, 16, -1, 4, 0, 0, k.y);  // sub16_borrow: y + (b & 1)
    mpz_add_ui(z, z, k.b & 1u);
    expect_chain(k.x, z, outs[i].borrow, outs[i].out_borrow, "sub16_borrow", i);
    mpz_set_ui(z, k.b);  // sub16_word: b
    expect_chain(k.x, z, outs[i].word, outs[i].out_word, "sub16_word", i);
    mpz_import(z, 16, -1, 4, 0, 0, k.y);  // submul16: c y + b
    mpz_mul_ui(z, z, k.c);
    mpz_add_ui(z, z, k.b);
    expect_chain(k.x, z, outs[i].mul, outs[i].out_mul, "submul16", i);
    if (testing::Test::HasFailure()) break;
  }
  mpz_clear(z);
}

// add16_split and add16_word: the words of sum_q (lo[q] + 2^32 hi[q]) 2^(32 q)
// + c (hi[q] below 2^25, as the word sums' are, and at the bound) and x + c,
// against GMP, with carries through all 16 words (all-ones lo and x).
struct AddCase {
  uint32_t lo[16], hi[16], c;
};
struct AddOut {
  uint32_t split[16], word[16];
  uint32_t out_split, out_word;
};

__global__ void add_chains_kernel(const AddCase* cases, AddOut* outs, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const AddCase& k = cases[i];
  AddOut& o = outs[i];
  uint32_t s[16], w[16];
  for (uint32_t q = 0; q < 16; ++q) w[q] = k.lo[q];
  o.out_split = kernels::block::add16_split(s, k.lo, k.hi, k.c);
  o.out_word = kernels::block::add16_word(w, k.c);
  for (uint32_t q = 0; q < 16; ++q) o.split[q] = s[q], o.word[q] = w[q];
}

// got (16 words) and got_out (the value's bits from 512 on) against z.
void expect_sum(const mpz_t z, const uint32_t (&got)[16], uint32_t got_out, const char* what, uint64_t i) {
  mpz_t want, g, out;
  mpz_inits(want, g, out, nullptr);
  mpz_fdiv_r_2exp(want, z, 512);
  mpz_fdiv_q_2exp(out, z, 512);
  mpz_import(g, 16, -1, 4, 0, 0, got);
  EXPECT_EQ(mpz_cmp(g, want), 0) << what << ", case " << i;
  EXPECT_EQ(mpz_get_ui(out), got_out) << what << ", case " << i;
  mpz_clears(want, g, out, nullptr);
}

TEST(BorrowChains, AddChainsMatchGmp) {
  BIGTUNE_REQUIRE_GPU();
  std::mt19937_64 rng(20261130);
  std::vector<AddCase> cases;
  for (uint32_t i = 0; i < 4096; ++i) {
    AddCase k{};
    const uint32_t kind = i % 6;
    for (uint32_t q = 0; q < 16; ++q) {
      k.lo[q] = kind == 1 || kind == 2 ? ~0u : kind == 3 && q % 4 == 0 ? 0u : uint32_t(rng());
      k.hi[q] = kind == 2 ? 0u : kind == 4 ? (1u << 25) - 1 : uint32_t(rng()) >> 7;
    }
    k.c = kind == 5 ? ~0u : i / 6 % 3 == 0 ? 1u : uint32_t(rng()) >> (i / 6 % 3 == 1 ? 6 : 0);
    cases.push_back(k);
  }
  const uint32_t n = uint32_t(cases.size());
  std::vector<AddOut> outs;
  ASSERT_NO_FATAL_FAILURE(run_cases(add_chains_kernel, cases, &outs));
  mpz_t z, h;
  mpz_inits(z, h, nullptr);
  for (uint32_t i = 0; i < n; ++i) {
    const AddCase& k = cases[i];
    mpz_import(z, 16, -1, 4, 0, 0, k.lo);  // add16_split: lo + hi 2^32 + c
    mpz_import(h, 16, -1, 4, 0, 0, k.hi);
    mpz_mul_2exp(h, h, 32);
    mpz_add(z, z, h);
    mpz_add_ui(z, z, k.c);
    expect_sum(z, outs[i].split, outs[i].out_split, "add16_split", i);
    mpz_import(z, 16, -1, 4, 0, 0, k.lo);  // add16_word: lo + c
    mpz_add_ui(z, z, k.c);
    expect_sum(z, outs[i].word, outs[i].out_word, "add16_word", i);
    if (testing::Test::HasFailure()) break;
  }
  mpz_clears(z, h, nullptr);
}

}  // namespace
}  // namespace bigtune
