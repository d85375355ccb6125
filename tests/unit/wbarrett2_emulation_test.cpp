// The warp Barrett mulmod / sqrmod by halves (kernels/warp/barrett_half.cuh,
// `wbarrett2`; host constants kernels/modular/wbarrett_prep.hpp with n = 2H)
// on the CPU: 32 host fibers per warp (tests/support/warp_emulation.hpp),
// every result against GMP. Shared moduli of every kind (full-width odd and
// even, 2^k +- 1, 2^k, 1, 2, short ones: the operand-reduction job), operands
// >= m (not reduced, as the API allows), odd sizes and each shape's limit.
// Worst cases of the correction bound: x close to m'^2 with moduli just above
// a power of two. Not a speed test; tests/gpu/mod_vs_gmp_test.cpp runs the
// registered variants on the GPU.
#include "tests/support/warp_emulation.hpp"
// (the harness first: it defines the CUDA keywords the kernel headers use)
#include <gmp.h>
#include <gtest/gtest.h>

#include <vector>

#include "kernels/modular/wbarrett_prep.hpp"
#include "kernels/warp/barrett_half.cuh"
#include "tests/support/modulus_kinds.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/shared_modulus_batch.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using test::SharedModulusBatch;
constexpr uint32_t kPoison = SharedModulusBatch::kPoison;

// One batch of `count` instances, modulus kind `kind`; sqr: r = a^2 mod m.
// worst: operands m - 1 - small (x close to m^2) in most instances.
template <int L, int Q>
void check(uint64_t bits, uint64_t count, uint32_t kind, bool sqr, uint64_t seed, bool worst = false) {
  using WB = kernels::warp::WarpBarrett2<L, Q>;
  static_assert(kernels::modular::kWBarrettHeaderWords == kernels::warp::kWBarrett2HeaderWords, "one layout");
  SharedModulusBatch batch(bits, count, kind, sqr, seed, worst);
  std::vector<uint32_t> scratch =
      kernels::modular::wbarrett_constants(batch.modulus_limbs(), batch.limbs(), WB::N, WB::N, Q);
  EXPECT_EQ(scratch[1], WB::N);
  std::vector<uint32_t> smem(WB::kSharedWords, kPoison);
  test::launch_host([&](const kernels::KernelArgs& k) { kernels::warp::wbarrett2_mulmod_body<L, Q>(k, smem.data()); },
                    batch.args(scratch.data()), L);
  batch.expect_results("L " + std::to_string(L) + " Q " + std::to_string(Q) + " kind " + std::to_string(kind));
}

TEST(WBarrett2Emulation, MulModEveryModulusKindQ8) {
  for (uint32_t kind = 0; kind < 10; ++kind) {
    check<2, 8>(1024, 32, kind, false, 9410 + kind);  // the limit of q8.l2
    check<2, 8>(1000, 16, kind, kind % 2 == 0, 9420 + kind);
    check<4, 8>(2048, 8, kind, false, 9430 + kind);  // the limit of q8.l4
  }
  check<2, 8>(65, 16, 0, false, 9440);
  check<2, 8>(1, 16, 5, false, 9441);  // 1 bit: m = 1
  check<2, 8>(2, 16, 6, true, 9442);   // m = 2
  check<4, 8>(1025, 8, 7, false, 9443);
}

// The registered shapes (q8.l4.b32, q8.l8.b32, q16.l8: the register cap is
// not part of the body) at their limits and odd sizes, every modulus kind;
// q16.l2 / q16.l4 (not registered) for the L = 2 and 4 paths of Q = 16.
TEST(WBarrett2Emulation, RegisteredShapes) {
  for (uint32_t kind = 0; kind < 10; ++kind) {
    check<8, 8>(4096, 4, kind, kind % 2 == 1, 9500 + kind);  // the limit of q8.l8
    check<8, 16>(8192, 4, kind, kind % 2 == 0, 9510 + kind);  // the limit of q16.l8
  }
  check<8, 8>(3585, 4, 0, false, 9520);
  check<8, 8>(2049, 4, 7, true, 9521);
}

TEST(WBarrett2Emulation, SixteenLimbsPerLane) {
  for (uint32_t kind : {0u, 5u, 7u}) {
    check<2, 16>(2048, 16, kind, kind == 0, 9450 + kind);  // the limit of q16.l2
    check<4, 16>(4096, 8, kind, kind == 5, 9460 + kind);   // the limit of q16.l4
  }
  check<4, 16>(3072, 8, 0, false, 9470);
  check<4, 16>(2049, 8, 8, true, 9471);
  check<8, 16>(4097, 4, 3, false, 9474);
  check<8, 16>(5000, 4, 2, false, 9475);
}

// x near m'^2 with m just above and below a power of two: the quotient
// estimate's error is largest there (the corrections' bound, six).
TEST(WBarrett2Emulation, CorrectionBoundCases) {
  for (uint32_t kind : {0u, 2u, 3u, 4u, 8u}) {
    check<2, 8>(1024, 32, kind, false, 9480 + kind, true);
    check<2, 8>(1024, 32, kind, true, 9485 + kind, true);
    check<4, 16>(4096, 8, kind, false, 9490 + kind, true);
  }
}

}  // namespace
}  // namespace bigtune
