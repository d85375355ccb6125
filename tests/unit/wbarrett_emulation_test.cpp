// The fused warp Barrett mulmod / sqrmod (kernels/warp/barrett_fused.cuh,
// host constants kernels/modular/wbarrett_prep.hpp) on the CPU: 32 host
// threads per warp (tests/support/warp_emulation.hpp), every result against
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
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using test::get;
using test::limbs32;
using test::put;

constexpr uint32_t kPoison = 0xdeadbeefu;


// One batch of `count` instances, modulus kind `kind`; sqr: r = a^2 mod m.
template <int L, int Q = 8>
void check(uint64_t bits, uint64_t count, uint32_t kind, bool sqr, uint64_t seed) {
  using WB = kernels::warp::WarpBarrett<L, Q>;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + seed);
  const uint32_t n = limbs32(bits);
  std::vector<mpz_t> a(count), b(count);
  mpz_t m, want, got;
  mpz_inits(m, want, got, nullptr);
  test::make_modulus_of_kind(m, rng, bits, kind);
  std::vector<uint32_t> va(count * n), vb(count * n), vm(n), r(count * n, kPoison);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], nullptr);
    test::make_pair(a[i], b[i], rng, bits, i);  // edge values, not reduced
    mpz_tdiv_r_2exp(a[i], a[i], bits);
    mpz_tdiv_r_2exp(b[i], b[i], bits);
    if (i % 5 == 4) mpz_sub_ui(a[i], m, 1);  // m - 1: the largest reduced operand
    if (i % 7 == 6) mpz_set(b[i], m);        // = m: reduces to 0
    put(va, i, n, a[i]);
    put(vb, i, n, b[i]);
  }
  put(vm, 0, n, m);
  std::vector<uint32_t> scratch = kernels::modular::wbarrett_constants(vm.data(), n, n, uint32_t(L * Q), Q);
  std::vector<uint32_t> smem(WB::kSegments * WB::kStride, kPoison);
  kernels::KernelArgs args;
  args.r = r.data();
  args.a = va.data();
  args.b = sqr ? nullptr : vb.data();
  args.m = vm.data();
  args.count = count;
  args.bits = bits;
  args.limbs = args.b_limbs = args.m_limbs = args.out_limbs = n;
  args.m_shared = 1;
  args.scratch = scratch.data();
  test::launch_host([&](const kernels::KernelArgs& k) { kernels::warp::wbarrett_mulmod_body<L, Q>(k, smem.data()); },
                    args, L);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_mul(want, a[i], sqr ? a[i] : b[i]);
    mpz_mod(want, want, m);
    get(got, r, i, n);
    ASSERT_EQ(mpz_cmp(want, got), 0) << (sqr ? "sqrmod" : "mulmod") << " L " << L << " bits " << bits << " kind "
                                     << kind << " instance " << i << "\n a = " << test::hex(a[i])
                                     << "\n b = " << test::hex(b[i]) << "\n m = " << test::hex(m)
                                     << "\n want " << test::hex(want) << "\n got  " << test::hex(got);
  }
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], nullptr);
  mpz_clears(m, want, got, nullptr);
  gmp_randclear(rng);
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
