// Batches for the host-warp emulation tests (tests/unit/warp_*emulation_test.cpp):
// 32-bit limb arrays to and from mpz_t, a GMP check of products, and a launch
// of a warp kernel over one-warp blocks. Include after tests/support/warp_emulation.hpp.
#pragma once
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/variants/kernel_args.hpp"
#include "tests/support/operands.hpp"

namespace bigtune::test {

// 32-bit limbs of a batch of `bits`-bit numbers (64-bit words, as the API stores them).
inline uint32_t limbs32(uint64_t bits) { return uint32_t((bits + 63) / 64 * 2); }

// Instance i of a batch of n limbs each: v, which must fit.
inline void put(std::vector<uint32_t>& dst, uint64_t i, uint32_t n, const mpz_t v) {
  size_t got = 0;
  std::vector<uint32_t> tmp(mpz_sizeinbase(v, 2) / 32 + n + 2, 0);
  mpz_export(tmp.data(), &got, -1, 4, 0, 0, v);
  EXPECT_LE(got, n) << "operand wider than its batch";
  std::copy(tmp.begin(), tmp.begin() + n, dst.begin() + i * n);
}
inline void get(mpz_t v, const std::vector<uint32_t>& src, uint64_t i, uint32_t n) {
  mpz_import(v, n, -1, 4, 0, 0, src.data() + i * n);
}

// Instances 0 .. ma.size()-1 of r (rn limbs each) against GMP's
// ma[i] * mb[i] mod 2^rbits; `what` names the case in a failure. Returns how
// many matched: the check stops at the first mismatch, which fails the test.
inline uint64_t expect_products(const std::vector<mpz_t>& ma, const std::vector<mpz_t>& mb,
                                const std::vector<uint32_t>& r, uint32_t rn, uint64_t rbits,
                                const std::string& what) {
  mpz_t want, got;
  mpz_inits(want, got, nullptr);
  uint64_t i = 0;
  for (; i < ma.size(); ++i) {
    mpz_mul(want, ma[i], mb[i]);
    mpz_fdiv_r_2exp(want, want, rbits);
    get(got, r, i, rn);
    if (mpz_cmp(want, got) != 0) {
      ADD_FAILURE() << what << " result bits " << rbits << " instance " << i << " of " << ma.size()
                    << "\n a = " << hex(ma[i]) << "\n b = " << hex(mb[i]) << "\n want " << hex(want)
                    << "\n got  " << hex(got);
      break;
    }
  }
  mpz_clears(want, got, nullptr);
  return i;
}

// Operand pairs for a product-like warp kernel: `count` pairs of `bits`-bit
// numbers made by make(a, b, i), their 32-bit limbs, a poisoned result array
// of `rbits`-bit instances, and the kernel arguments over them (callers add
// flags, ipb or drop b where their kernel needs it).
class PairBatch {
 public:
  template <class Make>
  PairBatch(uint64_t count, uint64_t bits, uint64_t rbits, Make&& make)
      : n(limbs32(bits)), rn(limbs32(rbits)), rbits(rbits), ma(count), mb(count), a(count * n), b(count * n),
        r(count * rn, 0xdeadbeefu) {
    for (uint64_t i = 0; i < count; ++i) {
      mpz_inits(ma[i], mb[i], nullptr);
      make(ma[i], mb[i], i);
      put(a, i, n, ma[i]);
      put(b, i, n, mb[i]);
    }
    args.r = r.data();
    args.a = a.data();
    args.b = b.data();
    args.count = count;
    args.bits = rbits;
    args.limbs = n;
    args.out_limbs = rn;
  }
  ~PairBatch() {
    for (size_t i = 0; i < ma.size(); ++i) mpz_clears(ma[i], mb[i], nullptr);
  }
  PairBatch(const PairBatch&) = delete;
  PairBatch& operator=(const PairBatch&) = delete;

  // Every instance against GMP's ma * mb mod 2^rbits (expect_products).
  uint64_t expect_products(const std::string& what) const { return test::expect_products(ma, mb, r, rn, rbits, what); }

  const uint32_t n, rn;
  const uint64_t rbits;
  std::vector<mpz_t> ma, mb;
  std::vector<uint32_t> a, b, r;
  kernels::KernelArgs args;
};

// The arguments of a divmod launch over host batches: u (un limbs) by v (vl
// limbs) into q (un limbs) and r (vl limbs), the zero-divisor flags in `flags`.
inline kernels::KernelArgs divmod_args(std::vector<uint32_t>& q, std::vector<uint32_t>& r, std::vector<uint32_t>& u,
                                       std::vector<uint32_t>& v, std::vector<uint32_t>& flags, uint64_t count,
                                       uint64_t bits, uint32_t un, uint32_t vl) {
  kernels::KernelArgs args;
  args.r = q.data();
  args.r2 = r.data();
  args.a = u.data();
  args.b = v.data();
  args.flags = flags.data();
  args.count = count;
  args.bits = bits;
  args.limbs = un;
  args.out_limbs = un;
  args.b_limbs = vl;
  args.r2_limbs = vl;
  return args;
}

// Runs `kernel` on one-warp blocks (ipb = 32 / lanes instances each) over all
// instances, 32 host fibers per block.
template <class Kernel>
void launch_host(Kernel kernel, kernels::KernelArgs args, uint32_t lanes) {
  args.ipb = 32 / lanes;
  args.threads_per_instance = lanes;
  const uint64_t blocks = (args.count + args.ipb - 1) / args.ipb;
  for (uint64_t blk = 0; blk < blocks; ++blk) emu::run_warp(unsigned(blk), [&](unsigned) { kernel(args); });
}

}  // namespace bigtune::test
