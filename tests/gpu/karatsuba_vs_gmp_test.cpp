// Karatsuba mul/sqr variants (kernels/variants/karatsuba_instances.cu) against
// GMP: random and edge operands (tests/support/kara_operands.hpp: equal halves,
// a0 < a1 against b0 > b1, all-ones, carries through every word), odd sizes,
// each variant's exact limit and Unsupported just past it, several instances
// per block, and a batch larger than one wave.
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/block/karatsuba.hpp"
#include "kernels/registry.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/kara_operands.hpp"

namespace bigtune {
namespace {

uint32_t levels_of(const kernels::Variant& v) {
  const size_t k = v.name.find(".k", v.name.find(".karatsuba.") + 1);  // "...q16.k2.blockrot..."
  return uint32_t(std::stoul(v.name.substr(k + 2)));
}

// One (variant, bits, ipb, count) case; returns the mismatching instances.
uint64_t run_case(Context& ctx, const kernels::Variant& v, uint64_t bits, uint32_t ipb, uint64_t count,
                  gmp_randstate_t rng) {
  const bool square = v.op == kernels::Op::Sqr;
  const uint32_t n = uint32_t((bits + 63) / 64), levels = levels_of(v);
  const uint32_t half = kernels::block::kara_leaf_words(n, levels) << (levels - 1);
  const uint64_t rbits = 2 * bits + (bits % 3 == 0 ? 64 : 0);  // sometimes wider than needed
  const uint32_t rw = uint32_t((rbits + 63) / 64);
  std::vector<uint64_t> ha(count * n), hb(count * n), a, b;
  for (uint64_t i = 0; i < count; ++i) {
    test::make_kara_pair(a, b, n, half, int(i % test::kKaraOperandKinds), rng, i);
    if (bits % 64) {  // operands are < 2^bits
      const uint64_t mask = (uint64_t(1) << (bits % 64)) - 1;
      a[n - 1] &= mask, b[n - 1] &= mask;
    }
    std::copy(a.begin(), a.end(), ha.begin() + i * n);
    std::copy(b.begin(), b.end(), hb.begin() + i * n);
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, rbits, count);
  da.upload(ha.data(), ha.size());
  db.upload(hb.data(), hb.size());
  std::vector<uint64_t> poison(uint64_t(rw) * count, 0xdeadbeefdeadbeefull);  // an unwritten word cannot pass
  // Raw copy: Batch::upload would (rightly) refuse values wider than rbits.
  if (cudaMemcpy(dr.device_data(), poison.data(), poison.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess) {
    ADD_FAILURE() << "poisoning the result batch failed";
    return count;
  }
  // That copy went to the legacy default stream, which the Context's
  // non-blocking stream does not wait for: finish it before the launch.
  cudaDeviceSynchronize();
  const Plan plan{v.name, ipb, "explicit", 0.0};
  if (square)
    ctx.sqr(dr, da, &plan);
  else
    ctx.mul(dr, da, db, &plan);
  const std::vector<uint64_t> got = dr.download();
  uint64_t bad = 0;
  // mpn_mul writes 2n words; the product is below 2^(2 bits), so the words
  // past rw (when rw < 2n) are 0 and the first rw words are the whole result.
  std::vector<uint64_t> want(std::max<uint64_t>(rw, 2 * uint64_t(n)));
  for (uint64_t i = 0; i < count; ++i) {
    std::fill(want.begin(), want.end(), 0);
    const mp_limb_t* x = reinterpret_cast<const mp_limb_t*>(ha.data() + i * n);
    const mp_limb_t* y = square ? x : reinterpret_cast<const mp_limb_t*>(hb.data() + i * n);
    mpn_mul(reinterpret_cast<mp_limb_t*>(want.data()), x, n, y, n);
    if (!std::equal(want.begin(), want.begin() + rw, got.begin() + i * rw) && ++bad <= 3)
      ADD_FAILURE() << v.name << " bits " << bits << " ipb " << ipb << " instance " << i << " of " << count
                    << " (operand kind " << i % test::kKaraOperandKinds << ")";
  }
  return bad;
}

TEST(KaratsubaVsGmp, EveryVariantMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 77);
  const kernels::DeviceLimits limits = test::device_limits();
  const uint64_t cap = test::max_bits_cap();
  const std::vector<uint64_t> sizes{1, 64, 65, 255, 521, 1000, 3072, 4097, 8192, 12345, 16384, 23456, 32768, 65536};
  // $BIGTUNE_KARA_VARIANTS: only variants whose name contains it (the
  // compute-sanitizer runs: the pass kernels are shared by all variants).
  const char* only = std::getenv("BIGTUNE_KARA_VARIANTS");
  uint64_t cases = 0, instances = 0, bad = 0, variants = 0;
  for (const kernels::Variant& v : kernels::registry()) {
    if (std::string(v.algorithm) != "karatsuba") continue;
    if (only && v.name.find(only) == std::string::npos) continue;
    ++variants;
    const uint64_t limit = kernels::max_operand_bits(v, limits);
    const uint64_t top = std::min(limit, cap / 64 * 64);
    std::vector<uint64_t> mine;
    for (uint64_t bits : sizes)
      if (bits < top) mine.push_back(bits);
    mine.push_back(top);  // exactly at the limit
    mine.push_back(top - 63);
    for (uint64_t bits : mine) {
      std::vector<uint32_t> ipbs{1, 3};
      for (uint32_t ipb = 4; ipb <= 1024; ipb *= 2)  // and the widest valid one
        if (kernels::why_invalid(v, bits, 1, ipb, limits).empty()) ipbs.push_back(ipb);
      if (ipbs.size() > 3) ipbs.erase(ipbs.begin() + 2, ipbs.end() - 1);
      for (uint32_t ipb : ipbs) {
        if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
        const uint64_t count = bits >= 16384 ? 13 : 37;  // not multiples of ipb
        bad += run_case(ctx, v, bits, ipb, count, rng);
        ++cases, instances += count;
      }
    }
    // Just past the limit: Unsupported with a reason, never a wrong answer.
    const uint64_t past = limit + 64;
    Batch a(ctx, past, 1), r(ctx, 2 * past, 1);
    const Plan plan{v.name, 1, "explicit", 0.0};
    try {
      if (v.op == kernels::Op::Sqr)
        ctx.sqr(r, a, &plan);
      else
        ctx.mul(r, a, a, &plan);
      ADD_FAILURE() << v.name << " accepted " << past << " bits, past its limit " << limit;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
      EXPECT_FALSE(std::string(e.what()).empty());
    }
  }
  // A batch of many waves (the pass kernels run one block per instance).
  for (const char* name : {"mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l8", "sqr.karatsuba.u64.q16.k3.blockrot.u32.q16.l4"}) {
    const kernels::Variant* v = kernels::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    const uint64_t bits = std::min<uint64_t>(12000, cap);
    const uint64_t count = only ? 300 : 3001;
    bad += run_case(ctx, *v, bits, 16, count, rng);
    ++cases, instances += count;
  }
  gmp_randclear(rng);
  std::printf("[ karatsuba ] %llu variants, %llu cases, %llu instances, %llu mismatches\n",
              (unsigned long long)variants, (unsigned long long)cases, (unsigned long long)instances,
              (unsigned long long)bad);
  if (!only) EXPECT_EQ(variants, 25u);  // kSpecs in karatsuba_instances.cu
  EXPECT_GT(variants, 0u);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
