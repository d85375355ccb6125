// The registry without a GPU: names, validity limits, geometry, and the
// shared-memory layout's freedom from bank conflicts.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "kernels/block/layout.hpp"
#include "kernels/registry.hpp"

namespace bigtune::kernels {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100();

TEST(Registry, NamesAreUniqueAndFindable) {
  std::set<std::string> names;
  for (const Variant& v : registry()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    EXPECT_EQ(find_variant(v.name), &v);
    EXPECT_NE(v.kernel, nullptr) << v.name;
    EXPECT_EQ(v.name.rfind(std::string(op_name(v.op)) + ".", 0), 0u) << v.name;
  }
  EXPECT_EQ(find_variant("no.such.variant"), nullptr);
  for (Op op : kAllOps) EXPECT_EQ(parse_op(op_name(op)), op);
  EXPECT_FALSE(parse_op("div"));
}

TEST(Registry, EveryKernelsIOpHasQ1To16AndBothLimbs) {
  for (Op op : {Op::Add, Op::Sub, Op::Cmp, Op::Shl, Op::Shr, Op::MulLow, Op::Mul})
    for (uint32_t limb : {32u, 64u})
      for (uint32_t q : {1u, 2u, 4u, 8u, 16u}) {
        bool found = false;
        for (const Variant& v : registry()) found |= v.op == op && v.limb_bits == limb && v.q == q;
        EXPECT_TRUE(found) << op_name(op) << " u" << limb << " q" << q;
      }
}

TEST(Registry, AddSubReachTheIssueLimitOnH100) {
  // Issue 2: at least 2^19 bits for add/sub in one block on an H100.
  for (const char* name : {"add.scan.u64.q16", "sub.scan.u64.q16"}) {
    const Variant* v = find_variant(name);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(max_operand_bits(*v, kH100), uint64_t(1) << 20) << name;
  }
  uint64_t best_mul = 0, best_mul_low = 0;
  for (const Variant& v : registry()) {
    if (v.op == Op::Mul) best_mul = std::max(best_mul, max_operand_bits(v, kH100));
    if (v.op == Op::MulLow) best_mul_low = std::max(best_mul_low, max_operand_bits(v, kH100));
  }
  EXPECT_GE(best_mul, uint64_t(1) << 18);
  EXPECT_GE(best_mul_low, uint64_t(1) << 18);
}

TEST(Registry, LimitIsExactAndPastItIsExplained) {
  for (const Variant& v : registry()) {
    const uint64_t max_bits = max_operand_bits(v, kH100);
    ASSERT_GT(max_bits, 0u) << v.name;
    EXPECT_EQ(why_invalid(v, max_bits, 1000, 1, kH100), "") << v.name;
    EXPECT_NE(why_invalid(v, max_bits + 64, 1000, 1, kH100), "") << v.name;
    EXPECT_NE(why_invalid(v, 64, 0, 1, kH100), "");
    EXPECT_NE(why_invalid(v, 0, 1, 1, kH100), "");
    EXPECT_NE(why_invalid(v, 64, 1, 0, kH100), "");
  }
}

TEST(Registry, GeometryCoversEveryInstance) {
  for (const Variant& v : registry()) {
    const std::string algorithm = v.algorithm;
    if (algorithm != "scan" && algorithm != "classical") continue;  // the layout.hpp shapes
    for (uint64_t bits : {1ull, 64ull, 65ull, 1000ull, 4097ull, 100003ull}) {
      for (uint32_t ipb : {1u, 3u, 7u}) {
        if (!why_invalid(v, bits, 100, ipb, kH100).empty()) continue;
        const Geometry g = geometry(v, bits, 100, ipb, kH100);
        const uint32_t m = operand_limbs(v, bits);
        EXPECT_EQ(g.block % 32, 0u);
        EXPECT_GE(g.block, g.threads_per_instance * ipb);
        EXPECT_LE(g.block, v.max_threads);
        EXPECT_EQ(g.grid, (100 + ipb - 1) / ipb);
        EXPECT_LE(g.smem_bytes + 1024, kH100.smem_per_block_optin);
        const uint32_t per_thread = algorithm == "scan" ? v.q : (v.op == Op::Mul || v.op == Op::Sqr ? v.q : 2 * v.q);  // full products: Q
        EXPECT_GE(uint64_t(g.threads_per_instance) * per_thread, m) << v.name << " bits " << bits;
        EXPECT_LT(uint64_t(g.threads_per_instance - 1) * per_thread, m) << v.name << " bits " << bits;
        EXPECT_TRUE(g.stage_buffers == 1 || g.stage_buffers == 2);
      }
    }
  }
}

// Bank of a padded limb index, counting 4-byte banks.
template <class Limb>
uint32_t bank(uint32_t logical) {
  return (block::smem_physical<Limb>(logical) * uint32_t(sizeof(Limb) / 4)) % 32;
}

// A warp's blocked access (thread t reads limb t*Q + k) must touch distinct
// banks within each shared-memory wavefront (32 threads for 4-byte accesses,
// 16 threads for 8-byte accesses).
template <class Limb>
void expect_conflict_free(uint32_t q) {
  const uint32_t per_wavefront = sizeof(Limb) == 4 ? 32 : 16;
  for (uint32_t k = 0; k < q; ++k) {
    for (uint32_t start = 0; start < 32; start += per_wavefront) {
      std::set<uint32_t> banks;
      for (uint32_t t = start; t < start + per_wavefront; ++t) banks.insert(bank<Limb>(t * q + k));
      EXPECT_EQ(banks.size(), per_wavefront) << "limb " << sizeof(Limb) * 8 << " Q " << q << " k " << k;
    }
  }
}

TEST(Layout, BlockedAccessIsConflictFree) {
  for (uint32_t q : {1u, 2u, 4u, 8u, 16u}) {
    expect_conflict_free<uint32_t>(q);
    expect_conflict_free<uint64_t>(q);
  }
}

TEST(Registry, KernelSiblingsDifferOnlyInThreads) {
  const Variant* t512 = find_variant("mul.ntt.u64.q1.gl.m14.t512");
  const Variant* t1024 = find_variant("mul.ntt.u64.q1.gl.m14.t1024");
  const Variant* m13 = find_variant("mul.ntt.u64.q1.gl.m13.t512");
  const Variant* sqr = find_variant("sqr.ntt.u64.q1.gl.m14.t512");
  ASSERT_TRUE(t512 && t1024 && m13 && sqr);
  EXPECT_TRUE(same_kernel_other_threads(*t512, *t1024));
  EXPECT_TRUE(same_kernel_other_threads(*t1024, *t512));
  EXPECT_FALSE(same_kernel_other_threads(*t512, *t512));
  EXPECT_FALSE(same_kernel_other_threads(*t512, *m13));  // another transform limit
  EXPECT_FALSE(same_kernel_other_threads(*t512, *sqr));  // another op
  // Karatsuba variants share their first kernel but differ in levels and base.
  size_t kara = 0;
  for (const Variant& a : registry())
    for (const Variant& b : registry())
      if (a.algorithm == "karatsuba" && b.algorithm == "karatsuba") kara += same_kernel_other_threads(a, b);
  EXPECT_EQ(kara, 0u);
}

TEST(Layout, LimbsAreStoredIn64BitWords) {
  EXPECT_EQ(block::limbs_for_bits(1, 64), 1u);
  EXPECT_EQ(block::limbs_for_bits(64, 64), 1u);
  EXPECT_EQ(block::limbs_for_bits(65, 64), 2u);
  EXPECT_EQ(block::limbs_for_bits(1, 32), 2u);  // a 32-bit view of one 64-bit word
  EXPECT_EQ(block::limbs_for_bits(1000, 32), 32u);
}

}  // namespace
}  // namespace bigtune::kernels
