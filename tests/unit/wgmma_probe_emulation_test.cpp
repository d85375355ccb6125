// The wgmma probe (tests/support/wgmma_probe.cuh) on the host emulation: the
// probe's kernel source, its 128 threads as host fibers, wgmma played by the
// model of kernels/block/wgmma_u8.cuh. It shows that the probe's kernel and
// its expected column sums agree under the model (with LBO 256 / SBO 128,
// and not with them swapped), so that on the GPU (tests/gpu/wgmma_probe_test.cu)
// a mismatch means the model is wrong about the hardware.
#include "tests/support/warp_emulation.hpp"  // first: the CUDA names, then the kernel

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "tests/support/wgmma_probe.cuh"

namespace bigtune {
namespace {

std::vector<int32_t> run_probe(const std::vector<uint8_t>& x, const std::vector<uint8_t>& k, uint32_t c0, uint32_t lbo,
                               uint32_t sbo, bool a_in_shared = false) {
  std::vector<int32_t> d(64 * 128, -1);
  test::WgmmaProbeArgs p;
  p.x = x.data(), p.k = k.data(), p.k_bytes = uint32_t(k.size()), p.c0 = c0, p.lbo = lbo, p.sbo = sbo, p.d = d.data();
  p.a_in_shared = a_in_shared;
  const size_t smem = test::probe_smem_bytes(c0);
  std::memset(emu::dynamic_shared(smem), 0xa5, smem);
  emu::run_block(0, 1, 4, [&](unsigned) { test::wgmma_probe_kernel(p); });
  return d;
}

TEST(WgmmaProbeEmulation, ToeplitzTileMatchesItsColumnSums) {
  std::mt19937 rng(20262001);
  for (uint32_t k_bytes : {40u, 200u}) {
    for (uint32_t c0 : {0u, 8u, 72u, 200u}) {
      std::vector<uint8_t> x(64 * 32), k(k_bytes);
      for (uint8_t& v : x) v = uint8_t(rng());
      for (uint8_t& v : k) v = uint8_t(rng());
      if (c0 == 8) std::fill(x.begin(), x.end(), 0xff), std::fill(k.begin(), k.end(), 0xff);  // the largest sums
      const std::vector<int32_t> want = test::probe_expected(x, k, c0);
      EXPECT_EQ(run_probe(x, k, c0, 256, 128), want) << "k " << k_bytes << " bytes, c0 " << c0;
      EXPECT_EQ(run_probe(x, k, c0, 256, 128, true), want) << "A in shared memory, k " << k_bytes << " bytes, c0 " << c0;
      if (c0 == 72 && k_bytes == 200) EXPECT_NE(run_probe(x, k, c0, 128, 256), want) << "LBO and SBO swapped must not match";
    }
  }
}

}  // namespace
}  // namespace bigtune
