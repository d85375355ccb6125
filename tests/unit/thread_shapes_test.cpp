// The thread-per-instance family without a GPU: exact limits, geometry and
// the conflict-freedom of its shared-memory regions (kernels/thread/).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "kernels/modular/mod_shapes.hpp"
#include "kernels/registry.hpp"
#include "kernels/thread/thread_layout.hpp"

namespace bigtune::kernels {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100();

TEST(ThreadFamily, CoversTheIssueOpsFrom64BitsTo2Kbit) {
  for (Op op : {Op::Add, Op::Sub, Op::MulLow, Op::Mul, Op::Sqr}) {
    const bool streamed = op == Op::Add || op == Op::Sub;  // one variant for every size
    for (uint64_t bits : {64ull, 65ull, 255ull, 521ull, 1000ull, 2048ull}) {
      uint64_t tightest = 0;
      for (const Variant& v : registry()) {
        if (v.op != op || std::string(v.family) != "thread" || !why_invalid(v, bits, 1000, 32, kH100).empty())
          continue;
        const uint64_t cap = max_operand_bits(v, kH100);
        if (!tightest || cap < tightest) tightest = cap;
      }
      ASSERT_NE(tightest, 0u) << op_name(op) << " " << bits;
      // Register variants come in powers of two: at most twice the 64-bit words needed.
      if (!streamed) EXPECT_LE(tightest, 2 * ((bits + 63) / 64 * 64)) << op_name(op) << " " << bits;
    }
  }
}

TEST(ThreadFamily, LimitIsTheRegisterCapacity) {
  for (const Variant& v : registry()) {
    if (std::string(v.family) != "thread") continue;
    const uint64_t cap = uint64_t(v.q) * v.limb_bits;
    EXPECT_EQ(max_operand_bits(v, kH100), cap) << v.name;
    EXPECT_EQ(why_invalid(v, cap, 12345, 1, kH100), "") << v.name;
    EXPECT_EQ(why_invalid(v, cap - 63, 12345, 1, kH100), "") << v.name;  // odd size below the cap
    const std::string past = why_invalid(v, cap + 1, 12345, 1, kH100);
    EXPECT_NE(past.find("at most " + std::to_string(cap)), std::string::npos) << v.name << ": " << past;
  }
}

TEST(ThreadFamily, GeometryIsOneThreadPerInstance) {
  for (const Variant& v : registry()) {
    // The staging layout of kernels/thread (the modular kernels are
    // thread-level too, with their own shapes: tests/unit/mod_core_test.cpp).
    if (std::string(v.family) != "thread" || v.shape == &modular::kThreadModShape ||
        v.shape == &modular::kThreadMod64Shape || std::string(v.algorithm) == "dfma")
      continue;
    const uint64_t cap = uint64_t(v.q) * v.limb_bits;
    for (uint64_t bits : {uint64_t(1), uint64_t(65), cap / 2 + 1, cap}) {
      for (uint32_t ipb : {1u, 3u, 32u, 100u, 128u}) {
        if (!why_invalid(v, bits, 1000, ipb, kH100).empty()) continue;
        const Geometry g = geometry(v, bits, 1000, ipb, kH100);
        EXPECT_EQ(g.threads_per_instance, 1u);
        EXPECT_EQ(g.block, (ipb + 31) / 32 * 32) << v.name;
        EXPECT_LE(g.block, v.max_threads);
        EXPECT_EQ(g.grid, (1000 + ipb - 1) / ipb);
        const uint32_t n = operand_limbs(v, bits);
        const bool staged = std::string(v.algorithm) != "direct";  // direct: global memory only
        EXPECT_EQ(g.smem_bytes, staged ? uint64_t(2 * n + 1) * ipb * (v.limb_bits / 8) : 0u) << v.name;
      }
    }
    // At the cap a 32-instance block (one warp) must fit, or the variant is useless.
    EXPECT_EQ(why_invalid(v, cap, 1000, 32, kH100), "") << v.name;
  }
}

// Thread t reading limb j of its own region reads index t*R + j: each
// shared-memory wavefront (32 threads of 4-byte limbs, 16 of 8-byte limbs)
// must touch distinct banks, for every operand length.
TEST(ThreadFamily, RegionAccessIsConflictFree) {
  for (uint32_t limb_bytes : {4u, 8u}) {
    const uint32_t per_wavefront = limb_bytes == 4 ? 32 : 16;
    for (uint32_t n = 1; n <= 130; ++n) {
      const uint32_t R = thread::region_limbs(n);
      for (uint32_t j : {0u, n - 1, n, 2 * n - 1}) {
        std::set<uint32_t> banks;
        for (uint32_t t = 0; t < per_wavefront; ++t) banks.insert(((t * R + j) * (limb_bytes / 4)) % 32);
        EXPECT_EQ(banks.size(), per_wavefront) << "limb bytes " << limb_bytes << " n " << n << " j " << j;
      }
    }
  }
}

}  // namespace
}  // namespace bigtune::kernels
