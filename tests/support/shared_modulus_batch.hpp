// One batch for the shared-modulus mulmod / sqrmod emulation tests of the
// warp Barrett kernels (wbarrett, wbarrett2): `count` operand pairs (edge
// values, not reduced; m - 1 and m itself in some instances; optionally the
// worst cases of the quotient estimate, operands just below m), one modulus
// of a kind (modulus_kinds.hpp), the 32-bit limb vectors and the KernelArgs
// over them, and the check of the results against GMP.
#pragma once
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/variants/kernel_args.hpp"
#include "tests/support/modulus_kinds.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune::test {

class SharedModulusBatch {
 public:
  static constexpr uint32_t kPoison = 0xdeadbeefu;

  // near_m: operands m - 1 - small in two of three instances (x close to m^2).
  SharedModulusBatch(uint64_t bits, uint64_t count, uint32_t kind, bool sqr, uint64_t seed, bool near_m = false)
      : bits_(bits), count_(count), n_(limbs32(bits)), sqr_(sqr), a_(count), b_(count) {
    gmp_randstate_t rng;
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, test_seed() + seed);
    mpz_init(m_);
    make_modulus_of_kind(m_, rng, bits, kind);
    va_.resize(count * n_);
    vb_.resize(count * n_);
    vm_.resize(n_);
    r_.assign(count * n_, kPoison);
    for (uint64_t i = 0; i < count; ++i) {
      mpz_inits(a_[i], b_[i], nullptr);
      make_pair(a_[i], b_[i], rng, bits, i);  // edge values, not reduced
      mpz_tdiv_r_2exp(a_[i], a_[i], bits);
      mpz_tdiv_r_2exp(b_[i], b_[i], bits);
      if (near_m && i % 3 != 0 && mpz_cmp_ui(m_, 64) > 0) {
        mpz_sub_ui(a_[i], m_, 1 + i % 17);
        mpz_sub_ui(b_[i], m_, 1 + i % 5);
      }
      if (i % 5 == 4) mpz_sub_ui(a_[i], m_, 1);  // m - 1: the largest reduced operand
      if (i % 7 == 6) mpz_set(b_[i], m_);        // = m: reduces to 0
      put(va_, i, n_, a_[i]);
      put(vb_, i, n_, b_[i]);
    }
    put(vm_, 0, n_, m_);
    gmp_randclear(rng);
  }
  ~SharedModulusBatch() {
    for (uint64_t i = 0; i < count_; ++i) mpz_clears(a_[i], b_[i], nullptr);
    mpz_clear(m_);
  }
  SharedModulusBatch(const SharedModulusBatch&) = delete;
  SharedModulusBatch& operator=(const SharedModulusBatch&) = delete;

  uint32_t limbs() const { return n_; }
  const uint32_t* modulus_limbs() const { return vm_.data(); }

  // The kernel's arguments: r = a b mod m (a^2 for sqr), m shared, the
  // host-computed constants in `scratch`.
  kernels::KernelArgs args(uint32_t* scratch) {
    kernels::KernelArgs args;
    args.r = r_.data();
    args.a = va_.data();
    args.b = sqr_ ? nullptr : vb_.data();
    args.m = vm_.data();
    args.count = count_;
    args.bits = bits_;
    args.limbs = args.b_limbs = args.m_limbs = args.out_limbs = n_;
    args.m_shared = 1;
    args.scratch = scratch;
    return args;
  }

  // Every instance's result against GMP; `shape` goes into the message.
  void expect_results(const std::string& shape) const {
    mpz_t want, got;
    mpz_inits(want, got, nullptr);
    for (uint64_t i = 0; i < count_; ++i) {
      mpz_mul(want, a_[i], sqr_ ? a_[i] : b_[i]);
      mpz_mod(want, want, m_);
      get(got, r_, i, n_);
      EXPECT_EQ(mpz_cmp(want, got), 0) << (sqr_ ? "sqrmod " : "mulmod ") << shape << " bits " << bits_
                                       << " instance " << i << "\n a = " << hex(a_[i]) << "\n b = " << hex(b_[i])
                                       << "\n m = " << hex(m_) << "\n want " << hex(want) << "\n got  " << hex(got);
      if (mpz_cmp(want, got) != 0) break;  // one instance's dump is enough
    }
    mpz_clears(want, got, nullptr);
  }

 private:
  uint64_t bits_, count_;
  uint32_t n_;
  bool sqr_;
  std::vector<mpz_t> a_, b_;
  mpz_t m_;
  std::vector<uint32_t> va_, vb_, vm_, r_;
};

}  // namespace bigtune::test
