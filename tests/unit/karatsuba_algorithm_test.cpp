// The Karatsuba passes' per-instance code (kernels/block/karatsuba.hpp) run on
// the CPU by a sequential Exec (one "thread" after another per phase), with
// GMP's mpn_mul_n as the base product, against mpn_mul: the same source the
// GPU kernels run, so split, signs and carry handling are checked without a
// GPU. Plus the registry entries of the Karatsuba variants (H100 limits).
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/block/karatsuba.hpp"
#include "kernels/registry.hpp"
#include "tests/support/kara_operands.hpp"

namespace bigtune {
namespace {
using namespace kernels::block;

struct HostExec {
  uint32_t t_count;
  uint32_t threads() const { return t_count; }
  template <class F>
  void phase(F&& f) {
    for (uint32_t t = 0; t < t_count; ++t) f(t);
  }
  void atomic_max(uint32_t* cell, uint32_t v) { *cell = std::max(*cell, v); }
  void carry_scan(uint32_t* status) {
    uint32_t prefix = kKaraPropagate;  // identity
    for (uint32_t t = 0; t < t_count; ++t) {
      const uint32_t s = status[t];
      status[t] = prefix;
      prefix = kara_carry_op(prefix, s);
    }
  }
};

// Product (or square) of n-word a, b through prep -> mpn_mul_n -> combine.
std::vector<uint64_t> kara_host(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, uint32_t levels,
                                bool square, uint32_t threads, uint32_t out_words) {
  const uint32_t n = uint32_t(a.size()), h = kara_leaf_words(n, levels), leaves = kara_pow3(levels);
  std::vector<uint32_t> status(threads, 0xdead), carry(threads, 0xbeef);
  std::vector<uint32_t> key(kKaraMaxKeys, 0x1234);
  const KaraShared sh{status.data(), carry.data(), key.data()};
  HostExec ex{threads};
  std::vector<uint64_t> smem(kara_prep_words(n, levels, square), 0x5a5a5a5a5a5a5a5aull);
  std::vector<uint64_t> la(uint64_t(leaves) * h, 0x77), lb(uint64_t(leaves) * h, 0x77);
  const uint64_t neg =
      kara_prep_instance(ex, sh, a.data(), square ? nullptr : b.data(), n, levels, square, smem.data(), la.data(),
                         square ? nullptr : lb.data());
  std::vector<uint64_t> prods(uint64_t(leaves) * 2 * h);
  for (uint32_t j = 0; j < leaves; ++j) {
    const mp_limb_t* x = reinterpret_cast<const mp_limb_t*>(la.data() + uint64_t(j) * h);
    const mp_limb_t* y = square ? x : reinterpret_cast<const mp_limb_t*>(lb.data() + uint64_t(j) * h);
    mpn_mul_n(reinterpret_cast<mp_limb_t*>(prods.data() + uint64_t(j) * 2 * h), x, y, h);
  }
  std::vector<uint64_t> csmem(kara_combine_words(n, levels), 0x3c3c3c3c3c3c3c3cull);
  std::vector<uint64_t> r(out_words, 0xdeadbeefdeadbeefull);
  kara_combine_instance(ex, sh, prods.data(), neg, n, levels, csmem.data(), r.data(), out_words);
  return r;
}

TEST(KaratsubaAlgorithm, MatchesGmpOnTheHost) {
  static_assert(sizeof(mp_limb_t) == 8, "64-bit GMP limbs");
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 2026);
  uint64_t cases = 0, bad = 0;
  for (uint32_t n : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 16u, 17u, 31u, 33u, 63u, 64u, 100u, 128u, 129u, 257u}) {
    for (uint32_t levels = 1; levels <= kKaraMaxLevels; ++levels) {
      const uint32_t half = kara_leaf_words(n, levels) << (levels - 1);
      for (uint32_t threads : {8u, 32u, 64u, kara_pass_threads(n), 96u, 65u}) {
        for (int kind = 0; kind < test::kKaraOperandKinds; ++kind) {
          for (bool square : {false, true}) {
            std::vector<uint64_t> a, b;
            test::make_kara_pair(a, b, n, half, kind, rng, cases);
            const uint32_t out_words = 2 * n + (n % 3 == 0 ? 1 : 0);  // sometimes wider than needed
            const std::vector<uint64_t> got = kara_host(a, square ? a : b, levels, square, threads, out_words);
            std::vector<uint64_t> want(out_words, 0);
            mpn_mul(reinterpret_cast<mp_limb_t*>(want.data()), reinterpret_cast<const mp_limb_t*>(a.data()), n,
                    reinterpret_cast<const mp_limb_t*>(square ? a.data() : b.data()), n);
            ++cases;
            if (got != want && ++bad <= 5)
              ADD_FAILURE() << "n " << n << " levels " << levels << " threads " << threads << " kind " << kind
                            << (square ? " square" : " product");
          }
        }
      }
    }
  }
  gmp_randclear(rng);
  EXPECT_EQ(bad, 0u) << "of " << cases;
  EXPECT_GT(cases, 1000u);
}

TEST(KaratsubaAlgorithm, LayoutSizes) {
  // 2^14-bit operands (256 words), 2 levels: leaves of 64 words, N = 256.
  EXPECT_EQ(kara_leaf_words(256, 2), 64u);
  EXPECT_EQ(kara_prep_operand_words(256, 2), 256u + 3u * 128u);
  EXPECT_EQ(kara_combine_words(256, 2), 9u * 128u + 3u * 256u);
  // Odd size: 1000 words, 3 levels -> h = 125, N = 1000; 1001 -> h = 126.
  EXPECT_EQ(kara_leaf_words(1000, 3), 125u);
  EXPECT_EQ(kara_leaf_words(1001, 3), 126u);
  EXPECT_EQ(kara_sign_bit(0, 0), 0u);
  EXPECT_EQ(kara_sign_bit(1, 2), 3u);
  EXPECT_EQ(kara_sign_bit(3, 26), 39u);  // 40 bits for 4 levels
}

TEST(KaratsubaRegistry, VariantsAndLimits) {
  const kernels::DeviceLimits h100 = kernels::DeviceLimits::h100();
  uint32_t found = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (std::string(v.algorithm) != "karatsuba") continue;
    ++found;
    EXPECT_TRUE(v.op == kernels::Op::Mul || v.op == kernels::Op::Sqr) << v.name;
    const uint64_t max = kernels::max_operand_bits(v, h100);
    EXPECT_GT(max, 0u) << v.name;
    EXPECT_TRUE(kernels::why_invalid(v, max, 1000, 1, h100).empty()) << v.name;
    EXPECT_FALSE(kernels::why_invalid(v, max + 64, 1, 1, h100).empty()) << v.name;
    EXPECT_GT(kernels::scratch_bytes(v, max, 10), 0u) << v.name;
  }
  EXPECT_EQ(found, 25u);  // kSpecs in karatsuba_instances.cu: 14 mul (2 over the rounds product, 1 over wkara), 11 sqr
  // Two levels over the 4096-bit warp product: up to 4 x 4096 bits.
  const kernels::Variant* k2 = kernels::find_variant("mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l8");
  ASSERT_NE(k2, nullptr);
  EXPECT_EQ(kernels::max_operand_bits(*k2, h100), 16384u);
  const kernels::Variant* s3 = kernels::find_variant("sqr.karatsuba.u64.q16.k3.blockrot.u32.q16.l8");
  ASSERT_NE(s3, nullptr);
  EXPECT_EQ(kernels::max_operand_bits(*s3, h100), 32768u);
  // Leaves, sign words and products at 2^14 bits, 1000 instances, 2 levels:
  // 9000 leaves of 64 words for a and b, 9000 products of 128 words.
  EXPECT_GE(kernels::scratch_bytes(*k2, 16384, 1000), 9000ull * 64 * 8 * 2 + 9000ull * 128 * 8 + 8000);
}

}  // namespace
}  // namespace bigtune
