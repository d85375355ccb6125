// divmod.newtonc in the registry without a GPU: every product its schedule can
// ask for (any p-limb size from 1 limb to the 2^20-bit limit) is a registered,
// valid full product with the table's instances per block, the variant's limit
// is the fallback's (2^20 bits, Unsupported past it), and its scratch stays
// bounded at the benchmark's batch size.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "kernels/registry.hpp"
#include "kernels/variants/div_newtonc_variant.hpp"

namespace bigtune::kernels {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100();

TEST(DivNewtoncTable, EveryScheduledProductIsAValidMul) {
  for (uint32_t p = 1; p <= (1u << 14); ++p) {
    const variants::NewtoncProduct c = variants::newtonc_product(p);
    const Variant* v = find_variant(c.name);
    ASSERT_NE(v, nullptr) << c.name;
    EXPECT_EQ(v->op, Op::Mul) << c.name;
    for (uint64_t count : {uint64_t(1), uint64_t(4096), uint64_t(1) << 20})
      ASSERT_EQ(why_invalid(*v, 64ull * p, count, c.ipb, kH100), "") << c.name << " p=" << p << " count=" << count;
  }
}

// The ".pp" variants' products (kernels::preferred_plan at 64p bits for the
// batch, 2 count in the fused schedule's steps): registered, valid full
// products at the instances per block they are launched with.
TEST(DivNewtoncTable, EveryPreferredProductIsAValidMul) {
  for (uint32_t p = 1; p <= (1u << 14); ++p) {
    for (uint64_t count : {uint64_t(1), uint64_t(2), uint64_t(4096), uint64_t(131072), uint64_t(1) << 21}) {
      const variants::NewtoncProduct c = variants::newtonc_product_pp(p, count);
      const Variant* v = find_variant(c.name);
      ASSERT_NE(v, nullptr) << c.name;
      EXPECT_EQ(v->op, Op::Mul) << c.name;
      ASSERT_EQ(why_invalid(*v, 64ull * p, count, c.ipb, kH100), "") << c.name << " p=" << p << " count=" << count;
    }
  }
  // Where they differ from the table at 2^15-bit division (n = 256 limbs):
  // the warp Karatsuba at 4-16 Kbit (bench/results/2026-11-22-h100-session5.md).
  EXPECT_EQ(std::string(variants::newtonc_product_pp(256, 131072).name), "mul.wkara.u32.q16.l16.k1");
  EXPECT_EQ(std::string(variants::newtonc_product_pp(128, 262144).name), "mul.wkara.u32.q16.l8.k1");
}

TEST(DivNewtoncTable, LimitAndScratch) {
  for (const Variant& r : registry()) {
  if (r.name.rfind("divmod.newtonc.", 0) != 0) continue;
  const Variant* v = &r;
  ASSERT_NE(find_variant("divmod.shinv.u64.q4"), nullptr);  // the fallback
  EXPECT_EQ(max_operand_bits(*v, kH100), uint64_t(1) << 20);
  EXPECT_EQ(why_invalid(*v, uint64_t(1) << 20, 4096, 1, kH100), "");
  EXPECT_NE(why_invalid(*v, (uint64_t(1) << 20) + 1, 4096, 1, kH100), "");
  // bits x count = 2^32 (512 MiB of dividends): the scratch, sized for the
  // worst divisor width (n = m), in multiples of the dividend batch: ~12x of
  // pass buffers (div_newtonc.hpp's layout) plus the products' own scratch
  // (Karatsuba's leaves from 2^15 bits): at most ~11 GiB of the H100's 80.
  for (int lg = 10; lg <= 20; ++lg) {
    const uint64_t bits = uint64_t(1) << lg, count = (uint64_t(1) << 32) >> lg;
    const double ratio = double(scratch_bytes(*v, bits, count)) / double(bits / 8 * count);
    std::printf("%s scratch at 2^%d bits: %.2fx the dividends\n", v->name.c_str(), lg, ratio);
    EXPECT_LT(ratio, 24.0) << v->name << " " << lg;
  }
  }
}

}  // namespace
}  // namespace bigtune::kernels
