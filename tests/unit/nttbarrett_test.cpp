// The fused NTT Barrett powm (kernels/modular/nttbarrett_powm.cuh, task
// nttpowm) on the CPU: the product with a cached second-operand spectrum
// (kernels/block/ntt_cached.cuh) against GMP at the sizes the variants run
// (2 words - 2^16 bits, odd sizes, all-ones operands: the largest
// coefficients), the spectrum reused for several first operands as the powm
// reuses mu's and m''s; and the registry entries' shapes and limits. The
// whole powm runs against GMP on the GPU (tests/gpu/nttbarrett_vs_gmp_test.cpp).
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_cached.cuh"
#include "kernels/modular/nttbarrett_layout.hpp"
#include "kernels/registry.hpp"
#include "tests/support/ntt_host.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using Field = kernels::arith::Crt3;
using E = Field::Elem;
namespace kb = kernels::block;

// r = a * b (2n words) with b's spectrum computed once (ntt_cache_operand)
// and reused for every a: the phases on one host "thread", the carry serial
// (the device's block carry scan is ntt.cuh's, covered by the GPU tests).
struct CachedProduct {
  kb::NttPlan p;
  std::vector<E> table, b_hat, x;
  kb::NttTables<Field> tw;

  CachedProduct(const std::vector<uint64_t>& b) {
    const uint32_t n = uint32_t(b.size());
    p = kernels::modular::nttbarrett_plan(n);
    table.resize(kb::ntt_table_elems(p));
    const E w = Field::root_of_unity(int(p.log_n)), wi = Field::pow(w, p.n() - 1);
    for (uint64_t k = 0; k < table.size(); ++k) table[k] = kb::ntt_twiddle_entry<Field>(w, wi, p.log_n, k);
    tw = kb::NttTables<Field>::over(table.data(), p.log_n);
    b_hat.resize(p.m());
    x.resize(kb::ntt_x_elems(p));
    kb::ntt_cache_operand<Field>(b_hat.data(), x.data(), p, tw, b.data(), n, 0, 1, [](bool) {});
  }
  std::vector<uint64_t> times(const std::vector<uint64_t>& a) {
    std::fill(x.begin(), x.end(), E{});  // nothing may survive from the caching pass
    kb::ntt_cached_coefficients<Field>(x.data(), b_hat.data(), p, tw, a.data(), uint32_t(a.size()), 0, 1,
                                       [](bool) {});
    std::vector<uint64_t> r(2 * a.size());
    uint64_t prev_hi = 0, carry = 0;
    for (uint32_t j = 0; j < r.size(); ++j) {
      uint64_t lo, hi;
      kb::ntt_limb_parts<Field>(lo, hi, x.data(), nullptr, p, tw, j);
      EXPECT_LT(hi, uint64_t(1) << 50);
      const unsigned __int128 v = (unsigned __int128)lo + prev_hi + carry;
      r[j] = uint64_t(v);
      carry = uint64_t(v >> 64);
      prev_hi = hi;
    }
    return r;
  }
};

TEST(NttCached, ProductsWithACachedSpectrumMatchGmp) {
  std::mt19937_64 rng(test::test_seed() + 910);
  int checked = 0;
  // 2 words (8 points, the smallest fused transform), odd word counts (lead
  // stages 1 and 2), 16, 32, 64 Kbit (N = 2^10, 2^11, 2^12).
  for (uint32_t n : {1u, 2u, 3u, 5u, 16u, 17u, 100u, 141u, 256u, 313u, 512u, 1024u}) {
    for (int bkind : {0, 1, 2}) {
      const auto b = test::ntt_operand(rng, n, bkind);
      CachedProduct cp(b);
      EXPECT_EQ(cp.p.log_d, 0u) << n;
      for (int akind : {0, 1, 2, 0}) {
        const auto a = test::ntt_operand(rng, n, akind);
        ASSERT_EQ(cp.times(a), test::gmp_product(a, b, 2 * n)) << "n " << n << " kinds " << akind << bkind;
        ++checked;
      }
    }
  }
  std::printf("cached-spectrum products: %d checked\n", checked);
}

TEST(NttBarrett, RegistryEntriesShapesAndLimits) {
  const auto h100 = kernels::DeviceLimits::h100();
  for (const char* name : {"powm.nttbarrett.u64.q1.w4", "powm.nttbarrett.u64.q1.w5", "powm.nttbarrett.u64.q1.w6",
                           "powm.nttbarrett.u64.q1.w6.b2"}) {
    const kernels::Variant* v = kernels::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(kernels::max_operand_bits(*v, h100), 65536u) << name;
    for (uint64_t bits : {1ull, 64ull, 65ull, 1000ull, 9000ull, 16384ull, 20000ull, 40001ull, 65536ull})
      EXPECT_TRUE(kernels::why_invalid(*v, bits, 1000, 1, h100).empty())
          << name << " " << bits << ": " << kernels::why_invalid(*v, bits, 1000, 1, h100);
    EXPECT_FALSE(kernels::why_invalid(*v, 65537, 1, 1, h100).empty()) << name;
    // One block of M/8 threads per instance: 128 / 256 / 512 at 16 / 32 / 64 Kbit.
    EXPECT_EQ(kernels::threads_per_instance(*v, 16384), 128u);
    EXPECT_EQ(kernels::threads_per_instance(*v, 32768), 256u);
    EXPECT_EQ(kernels::threads_per_instance(*v, 65536), 512u);
    EXPECT_EQ(kernels::threads_per_instance(*v, 64), 32u);
    // Shared memory at 64 Kbit: the 2^12-element transform (74 KB with the
    // pad), the carry words and 3n words (t, cur).
    EXPECT_EQ(kernels::smem_bytes(*v, 65536, 1), (4096u + 512u + 1u) * 16u + (2 * 512 + 2) * 8 + 24 * 1024);
    // Two blocks per SM at 64 Kbit (228 KB per SM, 1 KB reserved per block, the static scan storage).
    EXPECT_LT(2 * (kernels::smem_bytes(*v, 65536, 1) + 2048), 228u * 1024);
    // Scratch: per slot three spectra, the 2^w-entry table and the finish's
    // two rows of n + 2 words; slots up to 1024.
    const uint64_t slot = 3 * 1024 * 16 + ((uint64_t(1) << v->param) * 256 + 2 * 258) * 8;  // 16 Kbit: M = 2^10, n = 256
    EXPECT_GE(kernels::scratch_bytes(*v, 16384, 100), 100 * slot) << name;
    EXPECT_GE(kernels::scratch_bytes(*v, 16384, 5000), 1024 * slot) << name;
  }
  // The slots are capped at 1024 (persistent blocks): the window's table
  // adds 2^w · n words per slot, not per instance.
  const kernels::Variant* w5 = kernels::find_variant("powm.nttbarrett.u64.q1.w5");
  const kernels::Variant* w6 = kernels::find_variant("powm.nttbarrett.u64.q1.w6");
  ASSERT_TRUE(w5 && w6);
  EXPECT_EQ(kernels::scratch_bytes(*w6, 16384, 5000) - kernels::scratch_bytes(*w5, 16384, 5000),
            1024ull * 32 * 256 * 8);
  EXPECT_EQ(kernels::scratch_bytes(*w6, 16384, 100) - kernels::scratch_bytes(*w5, 16384, 100), 100ull * 32 * 256 * 8);
}

}  // namespace
}  // namespace bigtune
