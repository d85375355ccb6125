// The fused warp Barrett mulmod / sqrmod (kernels/warp/barrett_fused.cuh,
// host constants kernels/modular/wbarrett_prep.hpp) on the CPU: 32 host
// fibers per warp (tests/support/warp_emulation.hpp), every result against
// GMP. Shared moduli of every kind (full-width odd and even, 2^k +- 1, 2^k,
// 1, 2, short ones), operands >= m (not reduced, as the API allows), odd sizes
// (a partial last block, a short Barrett width) and each shape's limit. Not a
// speed test; the GPU test (tests/gpu/mod_vs_gmp_test.cpp) runs the
// registered variants, per-instance moduli (the composed Barrett path) too.
#include "tests/support/warp_emulation.hpp"
// (the harness first: it defines the CUDA keywords the kernel headers use)
#include <gmp.h>
#include <gtest/gtest.h>

#include <vector>

#include "kernels/modular/wbarrett_prep.hpp"
#include "kernels/warp/barrett_fused.cuh"
#include "tests/support/modulus_kinds.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/shared_modulus_batch.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using test::limbs32;
using test::put;
using test::SharedModulusBatch;
constexpr uint32_t kPoison = SharedModulusBatch::kPoison;

// One batch of `count` instances, modulus kind `kind`; sqr: r = a^2 mod m.
template <int L, int Q = 8>
void check(uint64_t bits, uint64_t count, uint32_t kind, bool sqr, uint64_t seed) {
  using WB = kernels::warp::WarpBarrett<L, Q>;
  SharedModulusBatch batch(bits, count, kind, sqr, seed);
  std::vector<uint32_t> scratch =
      kernels::modular::wbarrett_constants(batch.modulus_limbs(), batch.limbs(), batch.limbs(), uint32_t(L * Q), Q);
  std::vector<uint32_t> smem(WB::kSegments * WB::kStride, kPoison);
  test::launch_host([&](const kernels::KernelArgs& k) { kernels::warp::wbarrett_mulmod_body<L, Q>(k, smem.data()); },
                    batch.args(scratch.data()), L);
  batch.expect_results("L " + std::to_string(L) + " Q " + std::to_string(Q) + " kind " + std::to_string(kind));
}

TEST(WBarrettEmulation, ConstantsAreTheReciprocal) {
  // mu = floor((2^(64n) - 1) / m') = 2^(32n) + mu_lo and m' = m << s, normalised.
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 9300);
  mpz_t m, mp, mu, want;
  mpz_inits(m, mp, mu, want, nullptr);
  for (uint32_t kind = 0; kind < 10; ++kind)
    for (uint64_t bits : {1ull, 33ull, 255ull, 1024ull, 3000ull}) {
      test::make_modulus_of_kind(m, rng, bits, kind);
      const uint32_t limbs = limbs32(bits), N = (limbs + 7) / 8 * 8 + 8;
      std::vector<uint32_t> vm(limbs);
      put(vm, 0, limbs, m);
      const std::vector<uint32_t> c = kernels::modular::wbarrett_constants(vm.data(), limbs, limbs, N, 8);
      const uint32_t n = c[1], s = c[0];
      ASSERT_EQ(n, (limbs + 7) / 8 * 8);
      ASSERT_EQ(s, 32 * n - mpz_sizeinbase(m, 2));
      mpz_import(mp, N, -1, 4, 0, 0, c.data() + kernels::modular::kWBarrettHeaderWords + N);
      mpz_import(mu, N, -1, 4, 0, 0, c.data() + kernels::modular::kWBarrettHeaderWords + 2 * N);
      mpz_mul_2exp(want, m, s);
      ASSERT_EQ(mpz_cmp(mp, want), 0) << "m' bits " << bits << " kind " << kind;
      mpz_setbit(mu, 32 * n);
      mpz_set_ui(want, 0);
      mpz_setbit(want, 64 * n);
      mpz_sub_ui(want, want, 1);
      mpz_fdiv_q(want, want, mp);
      ASSERT_EQ(mpz_cmp(mu, want), 0) << "mu bits " << bits << " kind " << kind;
    }
  mpz_clears(m, mp, mu, want, nullptr);
  gmp_randclear(rng);
}

TEST(WBarrettEmulation, MulModEveryModulusKind) {
  for (uint32_t kind = 0; kind < 10; ++kind) {
    check<4>(1024, 16, kind, false, 9310 + kind);  // the limit of l4
    check<4>(65, 8, kind, false, 9320 + kind);     // one block of 8 limbs
    check<8>(1000, 8, kind, false, 9330 + kind);   // a partial block
  }
}

TEST(WBarrettEmulation, SqrModAndOddSizes) {
  for (uint32_t kind : {0u, 2u, 4u, 5u, 7u, 8u}) {
    check<4>(255, 8, kind, true, 9340 + kind);
    check<8>(2048, 4, kind, true, 9350 + kind);  // the limit of l8
    check<16>(3072, 2, kind, false, 9360 + kind);
  }
  check<8>(1, 8, 5, false, 9370);  // 1 bit: m = 1
  check<8>(2, 8, 6, false, 9371);  // m = 2
  check<16>(4096, 2, 0, false, 9372);  // the limit of l16
  check<32>(4097, 1, 0, false, 9373);  // 17 blocks on 32 lanes
  check<32>(8192, 1, 3, true, 9374);   // the limit of l32
  check<32>(8192, 1, 7, false, 9375);  // a short modulus at the limit: operand reduction
}

// Q = 16 (the shapes from 2 Kbit): each limit, an odd size, short and full moduli.
TEST(WBarrettEmulation, SixteenLimbsPerLane) {
  for (uint32_t kind : {0u, 3u, 5u, 7u}) {
    check<4, 16>(2048, 8, kind, false, 9380 + kind);
    check<8, 16>(3000, 4, kind, kind == 3, 9385 + kind);
  }
  check<16, 16>(8192, 2, 2, false, 9390);
  check<32, 16>(16384, 1, 0, false, 9391);
  check<32, 16>(10000, 1, 8, true, 9392);
}

}  // namespace
}  // namespace bigtune
