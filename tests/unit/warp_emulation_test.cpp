// The warp kernels' own code (kernels/variants/warp_*kernels.cuh and the
// primitives under kernels/warp/) run on the CPU: 32 host fibers play the
// lanes of one warp, and the warp intrinsics (shuffles, ballots, reductions)
// are emulated with a barrier, so every result is checked against GMP in CI
// without a GPU. The PTX carry chain has a portable host twin
// (kernels/arith/addmul_1.cuh); everything else is the device source as is.
// Not a speed test and not a substitute for the GPU tests (tests/gpu/
// warp_vs_gmp_test.cpp), which check the compiled kernels.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstring>

#include "tests/support/warp_emulation.hpp"  // first: the CUDA names, then the kernels
#include "kernels/variants/warp_divmod_kernels.cuh"
#include "kernels/variants/warp_kernels.cuh"
#include "kernels/variants/warp_mul_rounds.cuh"
#include "tests/support/operands.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using test::get;
using test::launch_host;
using test::limbs32;
using test::put;

using kernels::KernelArgs;

TEST(WarpEmulation, DivModMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 3000);
  uint64_t checked = 0;
  // (kernel, lanes, dividend bits, instances): a few sizes per shape, odd ones
  // and each shape's limit included; kept small because every emulated
  // intrinsic is a switch through 32 host fibers.
  struct Case {
    void (*kernel)(KernelArgs);
    uint32_t lanes;
    uint64_t bits, count;
  };
  const Case cases[] = {{&kernels::variants::warp_divmod_kernel<4, 4>, 4, 1, 16},
                        {&kernels::variants::warp_divmod_kernel<4, 4>, 4, 65, 16},
                        {&kernels::variants::warp_divmod_kernel<4, 4>, 4, 255, 16},
                        {&kernels::variants::warp_divmod_kernel<4, 4>, 4, 512, 16},
                        {&kernels::variants::warp_divmod_kernel<8, 8>, 8, 521, 8},
                        {&kernels::variants::warp_divmod_kernel<8, 8>, 8, 2048, 8},
                        {&kernels::variants::warp_divmod_kernel<32, 4>, 32, 3072, 2}};
  for (const Case& c : cases) {
    const uint64_t bits = c.bits, count = c.count;
    for (uint64_t vbits : {(bits + 1) / 2, bits, std::min<uint64_t>(bits, 33), uint64_t(1)}) {
        const uint32_t un = limbs32(bits), vl = limbs32(vbits);
        std::vector<uint32_t> u(count * un), v(count * vl), q(count * un, 0xdeadbeef), r(count * vl, 0xdeadbeef);
        std::vector<uint32_t> flags(count, 0x5a5a5a5a);
        std::vector<mpz_t> mu(count), mv(count);
        mpz_t other, wq, wr, gq, gr;
        mpz_inits(other, wq, wr, gq, gr, nullptr);
        for (uint64_t i = 0; i < count; ++i) {
          mpz_inits(mu[i], mv[i], nullptr);
          test::make_pair(mv[i], other, rng, vbits, i);
          test::make_operand(mu[i], rng, bits, static_cast<test::OperandKind>((i / 2) % test::kOperandKinds));
          if (i % 5 == 3) mpz_mul(mu[i], mv[i], mv[i]), mpz_fdiv_r_2exp(mu[i], mu[i], bits);
          put(u, i, un, mu[i]);
          put(v, i, vl, mv[i]);
        }
        const KernelArgs args = test::divmod_args(q, r, u, v, flags, count, bits, un, vl);
        launch_host(c.kernel, args, c.lanes);
        for (uint64_t i = 0; i < count; ++i) {
          get(gq, q, i, un);
          get(gr, r, i, vl);
          int want_flag = 0;
          if (mpz_sgn(mv[i]) == 0) {
            mpz_set_ui(wq, 0), mpz_set_ui(wr, 0), want_flag = 1;
          } else {
            mpz_tdiv_qr(wq, wr, mu[i], mv[i]);
          }
          ASSERT_TRUE(mpz_cmp(wq, gq) == 0 && mpz_cmp(wr, gr) == 0 && int(flags[i]) == want_flag)
              << "L " << c.lanes << " bits " << bits << " / " << vbits << " instance " << i << "\n u = "
              << test::hex(mu[i]) << "\n v = " << test::hex(mv[i]) << "\n want q " << test::hex(wq) << " r "
              << test::hex(wr) << "\n got  q " << test::hex(gq) << " r " << test::hex(gr) << " flag " << flags[i];
          ++checked;
        }
        for (uint64_t i = 0; i < count; ++i) mpz_clears(mu[i], mv[i], nullptr);
        mpz_clears(other, wq, wr, gq, gr, nullptr);
      }
    }
  gmp_randclear(rng);
  EXPECT_GT(checked, 300u);
}

// add, sub, mul_low, mul and sqr kernels on a few shapes and sizes.
TEST(WarpEmulation, ProductsAndAddSubMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 3100);
  enum class K { Add, Sub, MulLow, Mul, Sqr };
  struct Case {
    K op;
    void (*kernel)(KernelArgs);
    uint32_t lanes;
    uint64_t bits;
  };
  namespace kv = kernels::variants;
  const Case cases[] = {{K::Add, &kv::warp_add_sub_kernel<8, 4, false>, 8, 1},
                        {K::Add, &kv::warp_add_sub_kernel<8, 4, false>, 8, 255},
                        {K::Add, &kv::warp_add_sub_kernel<8, 4, false>, 8, 1024},
                        {K::Sub, &kv::warp_add_sub_kernel<4, 2, true>, 4, 256},
                        {K::Sub, &kv::warp_add_sub_kernel<4, 2, true>, 4, 100},
                        {K::MulLow, &kv::warp_mul_kernel<4, 4, false>, 4, 255},
                        {K::MulLow, &kv::warp_mul_kernel<4, 4, false>, 4, 512},
                        {K::Mul, &kv::warp_mul_kernel<4, 4, false>, 4, 65},
                        {K::Mul, &kv::warp_mul_kernel<4, 4, false>, 4, 512},
                        {K::Mul, &kv::warp_mul_kernel<8, 16, false>, 8, 3000},
                        {K::Sqr, &kv::warp_mul_kernel<8, 4, true>, 8, 521},
                        // The block-rotate product (kernels/warp/mul_block_rotate.cuh): every Q,
                        // odd sizes, exact limits, a segment of 32 lanes.
                        {K::MulLow, &kv::warp_mul_kernel<4, 2, false, kernels::warp::WarpMulBlockRotate>, 4, 256},
                        {K::Mul, &kv::warp_mul_kernel<4, 2, false, kernels::warp::WarpMulBlockRotate>, 4, 1},
                        {K::Mul, &kv::warp_mul_kernel<4, 2, false, kernels::warp::WarpMulBlockRotate>, 4, 255},
                        {K::MulLow, &kv::warp_mul_kernel<4, 4, false, kernels::warp::WarpMulBlockRotate>, 4, 65},
                        {K::Mul, &kv::warp_mul_kernel<4, 4, false, kernels::warp::WarpMulBlockRotate>, 4, 512},
                        {K::Mul, &kv::warp_mul_kernel<4, 8, false, kernels::warp::WarpMulBlockRotate>, 4, 1000},
                        {K::MulLow, &kv::warp_mul_kernel<8, 8, false, kernels::warp::WarpMulBlockRotate>, 8, 2047},
                        {K::Sqr, &kv::warp_mul_kernel<8, 8, true, kernels::warp::WarpMulBlockRotate>, 8, 1024},
                        {K::Mul, &kv::warp_mul_kernel<8, 16, false, kernels::warp::WarpMulBlockRotate>, 8, 3072},
                        {K::MulLow, &kv::warp_mul_kernel<16, 16, false, kernels::warp::WarpMulBlockRotate>, 16, 8192},
                        {K::Sqr, &kv::warp_mul_kernel<16, 16, true, kernels::warp::WarpMulBlockRotate>, 16, 5000},
                        {K::Mul, &kv::warp_mul_kernel<32, 4, false, kernels::warp::WarpMulBlockRotate>, 32, 4096},
                        // Two-lane segments (smallmul, q16.l2): 16 instances per warp.
                        {K::Mul, &kv::warp_mul_kernel<2, 16, false, kernels::warp::WarpMulBlockRotate>, 2, 1024},
                        {K::MulLow, &kv::warp_mul_kernel<2, 16, false, kernels::warp::WarpMulBlockRotate>, 2, 1023},
                        {K::Sqr, &kv::warp_mul_kernel<2, 16, true, kernels::warp::WarpMulBlockRotate>, 2, 521}};
  uint64_t checked = 0;
  for (const Case& c : cases) {
    const uint64_t count = 64 / c.lanes + 3, bits = c.bits;
    const bool full = c.op == K::Mul || c.op == K::Sqr;
    const uint64_t rbits = full ? 2 * bits + 64 : bits;  // full products: one spare word, zero
    std::vector<uint32_t> flags(count, 0x5a5a5a5a);
    mpz_t want, got;
    mpz_inits(want, got, nullptr);
    test::PairBatch p(count, bits, rbits, [&](mpz_t a, mpz_t b, uint64_t i) { test::make_pair(a, b, rng, bits, i); });
    p.args.flags = flags.data();
    auto &ma = p.ma, &mb = p.mb;
    launch_host(c.kernel, p.args, c.lanes);
    for (uint64_t i = 0; i < count; ++i) {
      int want_flag = -1;
      switch (c.op) {
        case K::Add:
          mpz_add(want, ma[i], mb[i]);
          want_flag = mpz_tstbit(want, bits);
          mpz_fdiv_r_2exp(want, want, bits);
          break;
        case K::Sub:
          want_flag = mpz_cmp(ma[i], mb[i]) < 0;
          mpz_sub(want, ma[i], mb[i]);
          mpz_fdiv_r_2exp(want, want, bits);
          break;
        case K::MulLow: mpz_mul(want, ma[i], mb[i]), mpz_fdiv_r_2exp(want, want, bits); break;
        case K::Mul: mpz_mul(want, ma[i], mb[i]); break;
        case K::Sqr: mpz_mul(want, ma[i], ma[i]); break;
      }
      get(got, p.r, i, p.rn);
      ASSERT_TRUE(mpz_cmp(want, got) == 0 && (want_flag < 0 || int(flags[i]) == want_flag))
          << "op " << int(c.op) << " L " << c.lanes << " bits " << bits << " instance " << i << "\n a = "
          << test::hex(ma[i]) << "\n b = " << test::hex(mb[i]) << "\n want " << test::hex(want) << " flag "
          << want_flag << "\n got  " << test::hex(got) << " flag " << flags[i];
      ++checked;
    }
    mpz_clears(want, got, nullptr);
  }
  gmp_randclear(rng);
  EXPECT_GT(checked, 100u);
}

// The block-rotate product in rounds (kernels/variants/warp_mul_rounds.cuh):
// R rounds of ipb = 32 / L instances per one-warp block, the grid divided by
// R as kernels/warp/warp_rounds_shapes.cpp does; counts that leave the last
// block's later rounds partly and wholly empty; exact limits, odd sizes,
// results wider than the product (zeros above), mul_low at odd sizes (the
// mask of the last sink block and of the high part).
TEST(WarpEmulation, RoundsProductMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 3300);
  constexpr int R = 4;
  struct Case {
    bool full;
    void (*kernel)(KernelArgs);
    uint32_t lanes;
    uint64_t bits, extra_bits;  // result bits = 2 bits + extra_bits (full) or bits
  };
  namespace kv = kernels::variants;
  const Case cases[] = {{true, &kv::warp_mul_rounds_kernel<4, 8, R>, 4, 1024, 0},
                        {true, &kv::warp_mul_rounds_kernel<4, 8, R>, 4, 1000, 64},
                        {true, &kv::warp_mul_rounds_kernel<4, 8, R>, 4, 65, 0},
                        {true, &kv::warp_mul_rounds_kernel<2, 16, R>, 2, 1024, 0},
                        {true, &kv::warp_mul_rounds_kernel<2, 16, R>, 2, 1000, 64},
                        {true, &kv::warp_mul_rounds_kernel<2, 16, R>, 2, 513, 0},
                        {true, &kv::warp_mul_rounds_kernel<2, 16, R>, 2, 255, 0},
                        {false, &kv::warp_mul_rounds_kernel<2, 16, R>, 2, 1024, 0},
                        {false, &kv::warp_mul_rounds_kernel<2, 16, R>, 2, 1025 - 64, 0},
                        {false, &kv::warp_mul_rounds_kernel<2, 16, R>, 2, 65, 0},
                        {false, &kv::warp_mul_rounds_kernel<4, 8, R>, 4, 1023, 0},
                        {false, &kv::warp_mul_rounds_kernel<4, 8, R>, 4, 1024, 0},
                        {true, &kv::warp_mul_rounds_kernel<4, 16, R>, 4, 2048, 0},
                        {true, &kv::warp_mul_rounds_kernel<4, 16, R>, 4, 1537, 128},
                        {false, &kv::warp_mul_rounds_kernel<4, 16, R>, 4, 2017, 0},
                        {true, &kv::warp_mul_rounds_kernel<8, 16, R>, 8, 4096, 0},
                        {true, &kv::warp_mul_rounds_kernel<8, 16, R>, 8, 3072, 0},
                        {false, &kv::warp_mul_rounds_kernel<8, 16, R>, 8, 4065, 0},
                        {true, &kv::warp_mul_rounds_kernel<16, 16, R>, 16, 8192, 0},
                        {true, &kv::warp_mul_rounds_kernel<32, 16, R>, 32, 4097, 0}};
  uint64_t checked = 0;
  for (const Case& c : cases) {
    const uint32_t ipb = 32 / c.lanes;
    // Two whole blocks of R rounds, then a block whose second round is partly
    // filled and whose last two rounds are empty.
    const uint64_t count = 2 * R * ipb + ipb + (ipb > 1 ? ipb / 2 : 1), bits = c.bits;
    const uint64_t rbits = c.full ? 2 * bits + c.extra_bits : bits;
    test::PairBatch p(count, bits, rbits, [&](mpz_t a, mpz_t b, uint64_t i) { test::make_pair(a, b, rng, bits, i); });
    p.args.ipb = ipb;
    p.args.threads_per_instance = c.lanes;
    const uint64_t grid = ((count + ipb - 1) / ipb + R - 1) / R;
    for (uint64_t blk = 0; blk < grid; ++blk) emu::run_warp(unsigned(blk), [&](unsigned) { c.kernel(p.args); });
    checked += p.expect_products(std::string(c.full ? "mul" : "mul_low") + " L " + std::to_string(c.lanes) + " bits " +
                                 std::to_string(bits));
  }
  gmp_randclear(rng);
  EXPECT_GT(checked, 300u);
}

}  // namespace
}  // namespace bigtune
