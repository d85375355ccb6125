// The warp low-half product by halves (kernels/variants/warp_kara_low.cuh,
// "mul_low.wlow.u32.q16.l<L>") run on the CPU: 32 host fibers per warp with
// emulated shuffles and ballots (tests/support/warp_emulation.hpp), its
// static shared memory shared by the host lanes, against GMP (a b mod
// 2^bits). Operands from tests/support/warp_kara_operands.hpp (edges: 0, 1,
// all-ones, carries through every limb, halves equal or all-ones against one
// limb), so that the upper quarter's three-term sum carries and propagates
// through every chunk. Sizes: each shape's limit, odd ones below it, one limb
// past the half split (X = a0 b1 runs one block, its other chunks from the
// lanes' high part), the half itself (X and Y skipped), small ones; a result
// narrower than the operands (masked) and one wider (zeros above); counts that
// leave the last warp partly empty. Not a speed test; the GPU tests
// (tests/gpu/warp_kara_low_vs_gmp_test.cpp) check the compiled kernels.
#include <gmp.h>
#include <gtest/gtest.h>

#include "tests/support/warp_emulation.hpp"  // first: the CUDA names, then the kernels
#include "kernels/variants/warp_kara_low.cuh"
#include "tests/support/warp_kara_operands.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using kernels::KernelArgs;
using test::limbs32;
using test::put;

TEST(WarpKaraLowEmulation, LowHalfMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 5400);
  namespace kv = kernels::variants;
  struct Case {
    void (*kernel)(KernelArgs);
    uint32_t lanes;
    uint64_t bits;
    int64_t extra_bits;  // result bits = bits + extra_bits
  };
  const Case cases[] = {{&kv::warp_kara_low_kernel<4, 16>, 4, 4096, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 4095, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 4065, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 3072, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 2600, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 2081, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 2049, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 2048, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 1000, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 65, 0},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 3500, -37},
                        {&kv::warp_kara_low_kernel<4, 16>, 4, 1500, 64},
                        {&kv::warp_kara_low_kernel<8, 16>, 8, 8192, 0},
                        {&kv::warp_kara_low_kernel<8, 16>, 8, 8191, 0},
                        {&kv::warp_kara_low_kernel<8, 16>, 8, 6007, 0},
                        {&kv::warp_kara_low_kernel<8, 16>, 8, 4097, 0},
                        {&kv::warp_kara_low_kernel<8, 16>, 8, 4096, 0},
                        {&kv::warp_kara_low_kernel<8, 16>, 8, 255, 0}};
  uint64_t checked = 0;
  for (const Case& c : cases) {
    const uint32_t ipb = 32 / c.lanes;
    const uint64_t half_bits = uint64_t(c.lanes) * 16 * 32;
    const uint64_t count = std::max<uint64_t>(2 * ipb + (ipb > 1 ? ipb / 2 : 1), 16), bits = c.bits;
    const uint64_t rbits = uint64_t(int64_t(bits) + c.extra_bits);
    test::PairBatch p(count, bits, rbits, [&](mpz_t a, mpz_t b, uint64_t i) {
      test::make_split_pair(a, b, rng, bits, half_bits, i);
    });
    test::launch_host(c.kernel, p.args, c.lanes);
    const uint64_t good = p.expect_products("mul_low L " + std::to_string(c.lanes) + " bits " + std::to_string(bits));
    EXPECT_EQ(good, count);
    checked += good;
  }
  gmp_randclear(rng);
  EXPECT_GT(checked, 250u);
}

}  // namespace
}  // namespace bigtune
