// The warp Newton-reciprocal divmod (kernels/warp/divmod_newton.cuh,
// kernels/variants/warp_divnewton_kernels.cuh) on the host warp of
// tests/support/warp_emulation.hpp, checked against GMP: the Newton inverse
// on its own (within a few units of the exact floor((B^2N - 1)/V) - B^N),
// then the two-pass divmod (Newton kernel, then the Knuth kernel on the
// instances it marked) on random and edge operands. Not a speed test; the
// GPU test (tests/gpu/warp_divnewton_vs_gmp_test.cpp) checks the compiled
// kernels.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "tests/support/warp_emulation.hpp"  // first: the CUDA names, then the kernels
#include "kernels/variants/warp_divmod_kernels.cuh"
#include "kernels/variants/warp_divnewton_kernels.cuh"
#include "tests/support/div_operands.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using test::get;
using test::launch_host;
using test::limbs32;
using test::put;

using kernels::KernelArgs;

// The inverse alone: one instance per segment, V given blocked.
template <int L, int Q>
void inverse_probe(const uint32_t* v, uint32_t* inv, uint32_t count, uint32_t target, bool small) {
  constexpr int N = L * Q;
  const uint32_t seg = (threadIdx.x & 31u) / L, j = threadIdx.x & uint32_t(L - 1);
  const uint32_t inst = blockIdx.x * (32 / L) + seg;
  const bool active = inst < count;
  uint32_t V[Q], I[Q];
  for (int k = 0; k < Q; ++k) V[k] = active ? v[inst * N + j * Q + k] : ~0u;
  kernels::warp::WarpDivNewton<L, Q>::inverse(I, V, target, small);
  if (active)
    for (int k = 0; k < Q; ++k) inv[inst * N + j * Q + k] = I[k];
}

template <int L, int Q>
void check_inverse(uint64_t seed, uint32_t target, uint64_t* worst, bool small = false) {
  constexpr int N = L * Q;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, seed);
  const uint32_t count = 2 * (32 / L) + 1;
  std::vector<uint32_t> v(count * N), inv(count * N, 0xdeadbeef);
  std::vector<mpz_t> mv(count);
  mpz_t top, want, got, diff;
  mpz_inits(top, want, got, diff, nullptr);
  mpz_ui_pow_ui(top, 2, 32 * N - 1);
  for (uint32_t i = 0; i < count; ++i) {
    mpz_init(mv[i]);
    switch (i % 6) {
      case 0: mpz_set(mv[i], top); break;                                      // 2^(32N-1): I = B^N - 1
      case 1: mpz_mul_2exp(mv[i], top, 1), mpz_sub_ui(mv[i], mv[i], 1); break;  // all ones: I = 1
      case 2: mpz_rrandomb(mv[i], rng, 32 * N - 1), mpz_add(mv[i], mv[i], top); break;  // runs
      case 3: mpz_add_ui(mv[i], top, 1); break;
      default: mpz_urandomb(mv[i], rng, 32 * N - 1), mpz_add(mv[i], mv[i], top); break;
    }
    put(v, i, N, mv[i]);
  }
  for (uint32_t blk = 0; blk * (32 / L) < count; ++blk)
    emu::run_warp(blk, [&](unsigned) { inverse_probe<L, Q>(v.data(), inv.data(), count, target, small); });
  for (uint32_t i = 0; i < count; ++i) {
    // exact: floor((B^2t - 1) / V_t) - B^t, V_t = floor(V / B^(N-t))
    mpz_fdiv_q_2exp(diff, mv[i], 32 * (N - target));
    mpz_ui_pow_ui(want, 2, 64 * target);
    mpz_sub_ui(want, want, 1);
    mpz_fdiv_q(want, want, diff);
    mpz_ui_pow_ui(diff, 2, 32 * target);
    mpz_sub(want, want, diff);
    get(got, inv, i, N);
    mpz_sub(diff, got, want);
    mpz_abs(diff, diff);
    ASSERT_TRUE(mpz_cmp_ui(diff, 8) <= 0) << "L " << L << " Q " << Q << " t " << target << " V = " << test::hex(mv[i])
                                           << "\n want " << test::hex(want) << "\n got  " << test::hex(got);
    *worst = std::max<uint64_t>(*worst, mpz_get_ui(diff));
  }
  for (auto& x : mv) mpz_clear(x);
  mpz_clears(top, want, got, diff, nullptr);
  gmp_randclear(rng);
}

TEST(WarpDivNewtonEmulation, InverseWithinAFewUnits) {
  uint64_t worst = 0;
  // Kept small: every emulated shuffle is a switch through 32 host fibers.
  check_inverse<4, 2>(test::test_seed() + 4000, 8, &worst);
  check_inverse<4, 8>(test::test_seed() + 4002, 32, &worst);
  check_inverse<4, 8>(test::test_seed() + 4002, 16, &worst);
  check_inverse<8, 8>(test::test_seed() + 4003, 32, &worst);
  check_inverse<8, 8>(test::test_seed() + 4003, 9, &worst);
  // The small products (mul_small, the ".sp" variants): the steps to 17
  // and 32 digits take two and three blocks of b on 4-lane sub-segments.
  check_inverse<8, 8>(test::test_seed() + 4004, 32, &worst, true);
  check_inverse<16, 8>(test::test_seed() + 4005, 32, &worst, true);
  std::printf("largest |I - exact| seen: %llu\n", static_cast<unsigned long long>(worst));
}

template <int L, int Q, int L2, int Q2>
uint64_t check_divmod(uint64_t bits, uint64_t count, uint64_t seed, uint32_t chunks) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, seed);
  const uint32_t un = limbs32(bits), vl = limbs32(bits);  // the API's widest divisor batch
  std::vector<uint32_t> u(count * un), v(count * vl), q(count * un, 0xdeadbeef), r(count * vl, 0xdeadbeef);
  std::vector<uint32_t> flags(count, 0x5a5a5a5a), mark(count, 0x77777777);
  std::vector<mpz_t> mu(count), mv(count);
  mpz_t wq, wr, gq, gr;
  mpz_inits(wq, wr, gq, gr, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(mu[i], mv[i], nullptr);
    test::make_div_case(mu[i], mv[i], rng, bits, bits, i);
    put(u, i, un, mu[i]);
    put(v, i, vl, mv[i]);
  }
  KernelArgs args = test::divmod_args(q, r, u, v, flags, count, bits, un, vl);
  args.scratch = mark.data();
  args.shift = chunks;  // as the launch passes it (warp_divnewton_instances.cu)
  launch_host(&kernels::variants::warp_divnewton_kernel<L, Q>, args, L);
  uint64_t fast = 0;
  for (uint64_t i = 0; i < count; ++i) {
    EXPECT_TRUE(mark[i] == 0 || mark[i] == 1) << "instance " << i << " mark " << mark[i];
    fast += mark[i] == 0;
  }
  launch_host(&kernels::variants::warp_divmod_kernel<L2, Q2>, args, L2);
  for (uint64_t i = 0; i < count; ++i) {
    get(gq, q, i, un);
    get(gr, r, i, vl);
    int want_flag = 0;
    if (mpz_sgn(mv[i]) == 0) mpz_set_ui(wq, 0), mpz_set_ui(wr, 0), want_flag = 1;
    else mpz_tdiv_qr(wq, wr, mu[i], mv[i]);
    EXPECT_TRUE(mpz_cmp(wq, gq) == 0 && mpz_cmp(wr, gr) == 0 && int(flags[i]) == want_flag)
        << "L " << L << " Q " << Q << " chunks " << chunks << " bits " << bits << " instance " << i << " mark " << mark[i] << "\n u = "
        << test::hex(mu[i]) << "\n v = " << test::hex(mv[i]) << "\n want q " << test::hex(wq) << " r "
        << test::hex(wr) << "\n got  q " << test::hex(gq) << " r " << test::hex(gr) << " flag " << flags[i];
  }
  for (uint64_t i = 0; i < count; ++i) mpz_clears(mu[i], mv[i], nullptr);
  mpz_clears(wq, wr, gq, gr, nullptr);
  gmp_randclear(rng);
  return fast;
}

TEST(WarpDivNewtonEmulation, DivModMatchesGmp) {
  const uint64_t seed = test::test_seed() + 4100;
  uint64_t fast = 0, all = 0;
  // (L, Q) = (4, 8): N = 32 digits (not in the registry: the smallest
  // shape, cheap to emulate), 2 and 4 chunks; then the registry's shapes
  // (warp_divnewton_instances.cu): (8, 8) with 4 chunks, (16, 8) with 4.
  for (uint64_t bits : {65u, 1000u, 2048u}) {
    fast += check_divmod<4, 8, 8, 8>(bits, 24, seed + bits, 2);
    all += 24;
  }
  fast += check_divmod<4, 8, 8, 8>(2047, 24, seed + 1, 4);
  fast += check_divmod<8, 8, 16, 8>(3072, 12, seed + 3072, 4);
  fast += check_divmod<8, 8, 16, 8>(4096, 12, seed + 4096, 4);
  fast += check_divmod<16, 8, 32, 8>(4097, 8, seed + 4097, 4);
  all += 56;
  // The ".sp" variants (chunks | kSmallProducts): the chunk's W_t x I and the
  // Newton steps on mul_small (L = 8: h = 16, 2 blocks; L = 16, 32: h = 32,
  // 4 blocks; L = 32 with 16 chunks: h = 16).
  const uint32_t sp = kernels::variants::kSmallProducts;
  fast += check_divmod<8, 8, 16, 8>(4096, 12, seed + 5096, 4 | sp);
  fast += check_divmod<8, 8, 16, 8>(2049, 12, seed + 5049, 4 | sp);
  fast += check_divmod<16, 8, 32, 8>(8192, 8, seed + 6192, 4 | sp);
  fast += check_divmod<32, 8, 32, 16>(16384, 3, seed + 7384, 8 | sp);
  fast += check_divmod<32, 8, 32, 16>(12345, 3, seed + 7345, 16 | sp);
  all += 38;
  std::printf("%llu of %llu instances on the Newton path\n", static_cast<unsigned long long>(fast),
              static_cast<unsigned long long>(all));
  EXPECT_GT(fast, all / 3);  // the n/(n/2) and equal-length shapes must not all fall back
}

}  // namespace
}  // namespace bigtune
