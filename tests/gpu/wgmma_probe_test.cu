// The wgmma probe (tests/support/wgmma_probe.cuh) on the GPU: whether Hopper's
// tensor cores read A's register fragments, B's K-major descriptor (LBO
// along K, SBO along N) and write D where kernels/block/wgmma_u8.cuh's model
// says. Built for sm_90a only (its own binary); skips on other GPUs. The
// host emulation runs the same kernel (tests/unit/wgmma_probe_emulation_test.cpp).
// Where the model fails, the test says which reading the hardware took:
// LBO and SBO swapped, or neither (then the first mismatches are listed).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <vector>

#include "tests/gpu/gpu_available.hpp"
#include "tests/support/wgmma_probe.cuh"

namespace bigtune {
namespace {

#define PROBE_CHECK(x) ASSERT_EQ((x), cudaSuccess) << #x << ": " << cudaGetErrorString(cudaGetLastError())

std::vector<int32_t> run_probe(const std::vector<uint8_t>& x, const std::vector<uint8_t>& k, uint32_t c0, uint32_t lbo,
                               uint32_t sbo, bool a_in_shared, bool& ok) {
  ok = false;
  uint8_t *dx = nullptr, *dk = nullptr;
  int32_t* dd = nullptr;
  std::vector<int32_t> d(64 * 128, -1);
  if (cudaMalloc(&dx, x.size()) || cudaMalloc(&dk, k.size()) || cudaMalloc(&dd, d.size() * 4)) return d;
  cudaMemcpy(dx, x.data(), x.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dk, k.data(), k.size(), cudaMemcpyHostToDevice);
  cudaMemset(dd, 0xff, d.size() * 4);
  test::WgmmaProbeArgs p;
  p.x = dx, p.k = dk, p.k_bytes = uint32_t(k.size()), p.c0 = c0, p.lbo = lbo, p.sbo = sbo, p.d = dd;
  p.a_in_shared = a_in_shared;
  const size_t smem = test::probe_smem_bytes(c0);
  cudaFuncSetAttribute(test::wgmma_probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
  test::wgmma_probe_kernel<<<1, 128, smem>>>(p);
  ok = cudaDeviceSynchronize() == cudaSuccess;
  cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost);
  cudaFree(dx), cudaFree(dk), cudaFree(dd);
  return d;
}

std::string first_mismatches(const std::vector<int32_t>& got, const std::vector<int32_t>& want) {
  std::ostringstream o;
  int shown = 0;
  for (size_t i = 0; i < got.size() && shown < 8; ++i)
    if (got[i] != want[i]) o << "\n  row " << i / 128 << " col " << i % 128 << ": want " << want[i] << " got " << got[i], ++shown;
  return o.str();
}

TEST(WgmmaProbe, ToeplitzTileMatchesTheModel) {
  BIGTUNE_REQUIRE_GPU();
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  if (prop.major != 9 || prop.minor != 0) GTEST_SKIP() << "wgmma needs an sm_90a GPU (H100/H200); this is " << prop.name;
  std::mt19937 rng(20262001);
  for (uint32_t c0 : {0u, 72u, 200u}) {
    std::vector<uint8_t> x(64 * 32), k(200);
    for (uint8_t& v : x) v = uint8_t(rng());
    for (uint8_t& v : k) v = uint8_t(rng());
    const std::vector<int32_t> want = test::probe_expected(x, k, c0);
    for (bool a_in_shared : {false, true}) {
      const char* form = a_in_shared ? "A in shared memory" : "A in registers";
      bool ok = false;
      const std::vector<int32_t> got = run_probe(x, k, c0, 256, 128, a_in_shared, ok);
      ASSERT_TRUE(ok) << form << ": the probe kernel failed: " << cudaGetErrorString(cudaGetLastError());
      if (got == want) continue;
      bool swapped_ok = false;
      const bool swapped = run_probe(x, k, c0, 128, 256, a_in_shared, swapped_ok) == want && swapped_ok;
      ADD_FAILURE() << form << ", c0 " << c0 << ": the tensor cores do not follow the model"
                    << (swapped ? " - they read B's LBO along N and SBO along K (swap them in wgmma_u8.cuh's model)"
                                : " - nor with B's LBO and SBO swapped; first mismatches:" + first_mismatches(got, want));
    }
  }
}

}  // namespace
}  // namespace bigtune
