// The warp Karatsuba kernel (kernels/variants/warp_kara.cuh) run on the CPU:
// 32 host fibers per warp with emulated shuffles and ballots
// (tests/support/warp_emulation.hpp), its static shared memory shared by the
// host lanes, against GMP. Covers the combine's carry vote and the signed
// differences (tests/support/warp_kara_operands.hpp: a0 = a1, each sign
// combination, carries through every limb), sizes at and below each shape's
// limit (odd ones, operands of at most H limbs so that a1 = 0 and P1 runs no
// blocks), a result wider than the product and one narrower (masked), and
// counts that leave the last warp partly empty. Not a speed test; the GPU
// tests (tests/gpu/warp_kara_vs_gmp_test.cpp) check the compiled kernels.
#include <gmp.h>
#include <gtest/gtest.h>

#include "tests/support/warp_emulation.hpp"  // first: the CUDA names, then the kernels
#include "kernels/variants/warp_kara.cuh"
#include "tests/support/warp_kara_operands.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using kernels::KernelArgs;
using test::get;
using test::limbs32;
using test::put;

TEST(WarpKaraEmulation, ProductAndSquareMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5100);
  namespace kv = kernels::variants;
  struct Case {
    bool square;
    void (*kernel)(KernelArgs);
    uint32_t lanes;
    uint64_t bits;
    int64_t extra_bits;  // result bits = 2 bits + extra_bits
  };
  const Case cases[] = {{false, &kv::warp_kara_kernel<4, 16, false>, 4, 4096, 0},
                        {false, &kv::warp_kara_kernel<4, 16, false>, 4, 4095, 64},
                        {false, &kv::warp_kara_kernel<4, 16, false>, 4, 3072, 0},
                        {false, &kv::warp_kara_kernel<4, 16, false>, 4, 2049, 0},
                        {false, &kv::warp_kara_kernel<4, 16, false>, 4, 2048, 0},
                        {false, &kv::warp_kara_kernel<4, 16, false>, 4, 1000, 0},
                        {false, &kv::warp_kara_kernel<4, 16, false>, 4, 65, 0},
                        {false, &kv::warp_kara_kernel<4, 16, false>, 4, 3000, -37},
                        {true, &kv::warp_kara_kernel<4, 16, true>, 4, 4096, 0},
                        {true, &kv::warp_kara_kernel<4, 16, true>, 4, 2500, 0},
                        {false, &kv::warp_kara_kernel<8, 16, false>, 8, 8192, 0},
                        {false, &kv::warp_kara_kernel<8, 16, false>, 8, 4097, 0},
                        {true, &kv::warp_kara_kernel<8, 16, true>, 8, 6007, 64},
                        {false, &kv::warp_kara_kernel<16, 16, false>, 16, 16384, 0},
                        {false, &kv::warp_kara_kernel<16, 16, false>, 16, 12345, 0},
                        {true, &kv::warp_kara_kernel<16, 16, true>, 16, 16384, 0}};
  uint64_t checked = 0;
  for (const Case& c : cases) {
    const uint32_t ipb = 32 / c.lanes;
    const uint64_t half_bits = uint64_t(c.lanes) * 16 * 32;
    // Two whole warps, then one partly filled; at least 16 instances (every
    // operand case of make_split_pair).
    const uint64_t count = std::max<uint64_t>(2 * ipb + (ipb > 1 ? ipb / 2 : 1), 16), bits = c.bits;
    const uint64_t rbits = uint64_t(int64_t(2 * bits) + c.extra_bits);
    test::PairBatch p(count, bits, rbits, [&](mpz_t a, mpz_t b, uint64_t i) {
      test::make_split_pair(a, b, rng, bits, half_bits, i);
      if (c.square) mpz_set(b, a);
    });
    if (c.square) p.args.b = nullptr;  // a square must not read b
    test::launch_host(c.kernel, p.args, c.lanes);
    checked += p.expect_products(std::string(c.square ? "sqr" : "mul") + " L " + std::to_string(c.lanes) + " bits " +
                                 std::to_string(bits));
  }
  gmp_randclear(rng);
  EXPECT_GT(checked, 250u);
}

}  // namespace
}  // namespace bigtune
