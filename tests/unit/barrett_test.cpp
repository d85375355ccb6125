// Barrett reduction (kernels/modular/barrett.hpp) on the CPU: the word-level
// helpers the glue kernels use (carry-lookahead of one 32-word round, word
// shifts) against a sequential reference, and the arithmetic of the GPU
// pipeline step by step against GMP — normalisation, mu from the 2N-bit
// division, q from the high half of q1 * mu_lo, r over n + 1 words, and the
// bound of at most four corrections at its extremes. The registry entries and
// their limits are checked here too; the kernels themselves run in
// tests/gpu/barrett_vs_gmp_test.cpp.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/block/mul_const_args.hpp"
#include "kernels/modular/barrett.hpp"
#include "kernels/registry.hpp"
#include "kernels/variants/mul_const_imma_launch.hpp"

namespace bigtune {
namespace {

using kernels::modular::barrett_carry_vector;
using kernels::modular::barrett_guard_word;
using kernels::modular::barrett_shl_word;
using kernels::modular::barrett_shr_word;
using kernels::modular::kBarrettMaxCorrections;

// Sequential ripple over 32 lanes: carry into lane i, then out of lane 31.
uint64_t ripple(uint32_t g, uint32_t p, uint32_t cin) {
  uint64_t out = 0;
  uint32_t c = cin;
  for (int i = 0; i < 32; ++i) {
    out |= uint64_t(c) << i;
    c = ((g >> i) & 1) | (((p >> i) & 1) & c);
  }
  return out | uint64_t(c) << 32;
}

TEST(Barrett, CarryVectorIsTheRippleCarry) {
  std::mt19937_64 rng(7);
  uint64_t checked = 0;
  for (int k = 0; k < 20000; ++k) {
    // g and p exclusive (a word that overflowed is not all ones); long runs of p.
    uint32_t p = k % 3 == 0 ? ~0u : uint32_t(rng()) | uint32_t(rng());
    uint32_t g = uint32_t(rng()) & ~p;
    if (k % 5 == 0) g &= ~uint32_t(rng());  // sparse generates
    if (k % 7 == 0) p = ~0u ^ (1u << (k % 32)), g &= ~p;
    for (uint32_t cin : {0u, 1u}) {
      ASSERT_EQ(barrett_carry_vector(g, p, cin), ripple(g, p, cin)) << std::hex << g << " " << p << " " << cin;
      ++checked;
    }
  }
  EXPECT_EQ(barrett_carry_vector(0, ~0u, 1), (uint64_t(1) << 33) - 1);  // a carry through all 32 lanes
  EXPECT_EQ(checked, 40000u);
}

// mpz <-> words
void to_words(std::vector<uint64_t>& w, const mpz_t x, size_t n) {
  w.assign(n, 0);
  size_t got = 0;
  mpz_export(w.data(), &got, -1, 8, 0, 0, x);
  ASSERT_LE(got, n);
}
void from_words(mpz_t x, const std::vector<uint64_t>& w) { mpz_import(x, w.size(), -1, 8, 0, 0, w.data()); }

TEST(Barrett, WordShiftsMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 11);
  mpz_t x, want, got;
  mpz_inits(x, want, got, nullptr);
  for (uint32_t len : {1u, 2u, 3u, 7u, 33u}) {
    for (uint32_t s : {0u, 1u, 63u, 64u, 65u, 127u, 200u}) {
      mpz_rrandomb(x, rng, 64 * len);
      std::vector<uint64_t> t, out(len + 4);
      to_words(t, x, len);
      for (uint32_t j = 0; j < out.size(); ++j) out[j] = barrett_shl_word(t.data(), len, j, s / 64, s % 64);
      mpz_mul_2exp(want, x, s);
      mpz_tdiv_r_2exp(want, want, 64 * out.size());
      from_words(got, out);
      EXPECT_EQ(mpz_cmp(want, got), 0) << "shl len " << len << " s " << s;
      for (uint32_t j = 0; j < out.size(); ++j) out[j] = barrett_shr_word(t.data(), len, j, s / 64, s % 64);
      mpz_tdiv_q_2exp(want, x, s);
      from_words(got, out);
      EXPECT_EQ(mpz_cmp(want, got), 0) << "shr len " << len << " s " << s;
    }
  }
  mpz_clears(x, want, got, nullptr);
  gmp_randclear(rng);
}

// The pipeline's arithmetic for x (< 2^(2N) after the shift) and m, the way
// the kernels do it; returns the corrections needed (and checks each step).
// tensor: q as the tcbarrett variants compute it on the tensor cores, with
// guard words (barrett.hpp; kernels/block/mul_const_args.hpp): mu2 = 2^32 mu +
// barrett_guard_word(rho's and m''s top words), q1' = floor(x / 2^(N-32g)),
// only the byte columns of q1' mu2 from 32 (w + g - 1) bits on summed (the
// kernels may sum a few more, which only brings q closer); *q_short (optional) gets
// how much lower q is than floor(x / m'), *marked_exact (optional) whether the
// wgmma quotient would mark q exact (block::kQuotientExact: the computed word
// w + g below kQuotientExactLimit and q below 2^N).
int barrett_steps(mpz_t r, const mpz_t x, const mpz_t m, uint32_t n, bool tensor = false,
                  uint64_t* q_short = nullptr, bool* marked_exact = nullptr) {
  const uint64_t big_n = 64ull * n;
  const uint64_t s = big_n - mpz_sizeinbase(m, 2);
  mpz_t mp, mu, rho, xs, q1, q, t, bound;
  mpz_inits(mp, mu, rho, xs, q1, q, t, bound, nullptr);
  mpz_mul_2exp(mp, m, s);  // m' in [2^(N-1), 2^N)
  mpz_set_ui(mu, 0);
  mpz_setbit(mu, 2 * big_n);
  mpz_sub_ui(mu, mu, 1);
  mpz_tdiv_qr(mu, rho, mu, mp);  // floor((2^(2N) - 1) / m') and the remainder
  EXPECT_TRUE(mpz_tstbit(mu, big_n)) << "mu's bit N";
  EXPECT_EQ(mpz_sizeinbase(mu, 2), big_n + 1) << "mu < 2^(N+1)";
  mpz_mul_2exp(xs, x, s);
  EXPECT_LE(mpz_sizeinbase(xs, 2), 2 * big_n) << "x << s < 2^(2N)";
  if (tensor) {
    const uint32_t w = 2 * n;
    // d from R = 2^32 rho + 2^32 - 1 and m', their words w .. w - 2 and w - 1, w - 2.
    mpz_t big_r, mu2, exact, low, part;
    mpz_inits(big_r, mu2, exact, low, part, nullptr);
    mpz_mul_2exp(big_r, rho, 32);
    mpz_add_ui(big_r, big_r, 0xffffffffu);
    const auto word = [](const mpz_t v, uint32_t j) {
      mpz_t p;
      mpz_init(p);
      mpz_tdiv_q_2exp(p, v, 32ull * j);
      const uint32_t out = uint32_t(mpz_fdiv_ui(p, 1ul << 32));
      mpz_clear(p);
      return out;
    };
    const uint32_t d = barrett_guard_word(word(big_r, w), word(big_r, w - 1), word(big_r, w - 2), word(mp, w - 1),
                                          word(mp, w - 2));
    mpz_mul_2exp(mu2, mu, 32);
    mpz_add_ui(mu2, mu2, d);
    mpz_set_ui(exact, 0);
    mpz_setbit(exact, 2 * big_n + 32);
    mpz_sub_ui(exact, exact, 1);
    mpz_tdiv_q(exact, exact, mp);  // floor((2^(2N+32) - 1) / m'): mu2 is it or one less
    mpz_sub(part, exact, mu2);
    EXPECT_TRUE(mpz_cmp_ui(part, 0) == 0 || mpz_cmp_ui(part, 1) == 0) << "mu2 one short at most";
    EXPECT_EQ(mpz_sizeinbase(mu2, 2), big_n + 33) << "mu2 in [2^(N+32), 2^(N+33))";
    const uint32_t g = kernels::modular::barrett_x_guard_words(w);
    mpz_tdiv_q_2exp(q1, xs, big_n - 32ull * g);
    // The dropped columns: byte pairs (i, j), i + j < c0, of q1' and mu2.
    const uint64_t c0 = 4ull * (w + g - 1);
    for (uint64_t i = 0; i < c0; ++i) {
      mpz_tdiv_q_2exp(part, q1, 8 * i);
      const unsigned long byte = mpz_fdiv_ui(part, 256);
      if (byte == 0) continue;
      mpz_tdiv_r_2exp(part, mu2, 8 * (c0 - i));
      mpz_mul_ui(part, part, byte);
      mpz_mul_2exp(part, part, 8 * i);
      mpz_add(low, low, part);
    }
    mpz_mul(q, q1, mu2);
    mpz_sub(q, q, low);
    const uint32_t below_q = word(q, w + g);  // the computed word just below q's
    mpz_tdiv_q_2exp(q, q, big_n + 32 + 32ull * g);
    if (marked_exact)
      *marked_exact = below_q < kernels::block::kQuotientExactLimit && mpz_sizeinbase(q, 2) <= big_n;
    mpz_tdiv_q(part, xs, mp);
    EXPECT_LE(mpz_cmp(q, part), 0) << "q never above floor(x / m')";
    mpz_sub(part, part, q);
    if (q_short) *q_short = mpz_get_ui(part);
    mpz_clears(big_r, mu2, exact, low, part, nullptr);
  } else {
    mpz_clrbit(mu, big_n);  // mu_lo
    mpz_tdiv_q_2exp(q1, xs, big_n);
    mpz_mul(q, q1, mu);
    mpz_tdiv_q_2exp(q, q, big_n);
    mpz_add(q, q, q1);  // = floor(q1 * (2^N + mu_lo) / 2^N)
  }
  EXPECT_LE(mpz_sizeinbase(q, 2), big_n + 1) << "q < 2^(N+1)";
  mpz_mul(t, q, mp);
  mpz_sub(r, xs, t);       // the kernel keeps it mod 2^(N+64): it must be in [0, 2^(N+64))
  EXPECT_GE(mpz_sgn(r), 0);
  EXPECT_LE(mpz_sizeinbase(r, 2), big_n + 64);
  int corrections = 0;
  while (mpz_cmp(r, mp) >= 0 && corrections < 64) mpz_sub(r, r, mp), ++corrections;  // a broken q fails, not hangs
  mpz_tdiv_q_2exp(r, r, s);
  mpz_clears(mp, mu, rho, xs, q1, q, t, bound, nullptr);
  return corrections;
}

TEST(Barrett, ArithmeticMatchesGmpWithinFourCorrections) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 12);
  mpz_t m, a, b, x, r, want;
  mpz_inits(m, a, b, x, r, want, nullptr);
  int worst = 0;
  uint64_t cases = 0;
  for (uint32_t n : {1u, 2u, 3u, 5u, 17u, 64u, 193u}) {
    const uint64_t big_n = 64ull * n;
    for (int k = 0; k < 60; ++k) {
      switch (k % 10) {
        case 0: mpz_set_ui(m, 1); break;
        case 1: mpz_set_ui(m, 0), mpz_setbit(m, big_n - 1); break;                         // m' = 2^(N-1)
        case 2: mpz_set_ui(m, 0), mpz_setbit(m, big_n), mpz_sub_ui(m, m, 1); break;        // 2^N - 1
        case 3: mpz_set_ui(m, 0), mpz_setbit(m, big_n - 1), mpz_add_ui(m, m, 1); break;    // 2^(N-1) + 1
        case 4: mpz_set_ui(m, 2); break;
        case 5: mpz_urandomb(m, rng, 1 + k % 60), mpz_add_ui(m, m, 1); break;              // small
        case 6: mpz_urandomb(m, rng, big_n), mpz_clrbit(m, 0); break;                       // even
        case 7: mpz_rrandomb(m, rng, big_n); break;
        default: mpz_urandomb(m, rng, big_n), mpz_setbit(m, big_n - 1); break;
      }
      if (mpz_sgn(m) == 0) mpz_set_ui(m, 1);
      // Products of reduced operands: the largest (m - 1)^2, random ones.
      for (int j = 0; j < 4; ++j) {
        if (j == 0) mpz_sub_ui(a, m, 1), mpz_set(b, a);
        else mpz_urandomm(a, rng, m), mpz_urandomm(b, rng, m);
        mpz_mul(x, a, b);
        const int c = barrett_steps(r, x, m, n);
        mpz_mod(want, x, m);
        ASSERT_EQ(mpz_cmp(r, want), 0) << "n " << n << " case " << k;
        worst = std::max(worst, c), ++cases;
      }
      // A modulus of N bits (s = 0): unreduced operands below 2^N go
      // straight into the product (barrett_instances.cu), a b < 2^(2N).
      if (mpz_sizeinbase(m, 2) == big_n) {
        mpz_urandomb(a, rng, big_n), mpz_urandomb(b, rng, big_n);
        if (k % 3 == 0) mpz_set_ui(a, 0), mpz_setbit(a, big_n), mpz_sub_ui(a, a, 1), mpz_set(b, a);
        mpz_mul(x, a, b);
        const int c = barrett_steps(r, x, m, n);
        mpz_mod(want, x, m);
        ASSERT_EQ(mpz_cmp(r, want), 0) << "unreduced n " << n << " case " << k;
        worst = std::max(worst, c), ++cases;
      }
      // Operand reduction: any a < 2^N (x = a, no product).
      mpz_urandomb(a, rng, big_n);
      if (k % 3 == 0) mpz_set_ui(a, 0), mpz_setbit(a, big_n), mpz_sub_ui(a, a, 1);  // all ones
      const int c = barrett_steps(r, a, m, n);
      mpz_mod(want, a, m);
      ASSERT_EQ(mpz_cmp(r, want), 0) << "reduce n " << n << " case " << k;
      worst = std::max(worst, c), ++cases;
    }
  }
  EXPECT_LE(worst, int(kBarrettMaxCorrections));
  EXPECT_GE(worst, 1);  // the corrections are exercised
  EXPECT_GT(cases, 2000u);
  mpz_clears(m, a, b, x, r, want, nullptr);
  gmp_randclear(rng);
}

// The tcbarrett variants' quotient with guard words (barrett.hpp,
// launch_barrett_imma_quotient in kernels/variants/mul_const_imma_instances.cu):
// never above floor(x / m') and at most one below, so r < 2 m' always; one
// below only where x / m' is within ~2^-30 above an integer, so random
// products need no correction at all. On the extremes (m' = 2^(N-1), 2^N - 1,
// all-ones operands: the largest column sums), random moduli and products,
// and x = c m' + 1 (x / m' just above an integer: the correction runs). A q
// the wgmma quotient marks exact (barrett.hpp, session 28) is never short;
// random products are all marked, and the short ones at the edge are not.
TEST(Barrett, TensorCoreQuotientIsAtMostOneShort) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 19);
  mpz_t m, a, b, x, r, want;
  mpz_inits(m, a, b, x, r, want, nullptr);
  int worst = 0;
  uint64_t cases = 0, random_corrected = 0, near_corrected = 0, random_unmarked = 0, near_unmarked = 0;
  for (uint32_t n : {1u, 2u, 3u, 5u, 17u, 64u}) {
    const uint64_t big_n = 64ull * n;
    for (int k = 0; k < 30; ++k) {
      switch (k % 5) {
        case 0: mpz_set_ui(m, 0), mpz_setbit(m, big_n - 1); break;                   // m' = 2^(N-1)
        case 1: mpz_set_ui(m, 0), mpz_setbit(m, big_n), mpz_sub_ui(m, m, 1); break;  // 2^N - 1
        case 2: mpz_urandomb(m, rng, 1 + k), mpz_add_ui(m, m, 1); break;             // short
        case 3: mpz_rrandomb(m, rng, big_n); break;                                  // long runs
        default: mpz_urandomb(m, rng, big_n), mpz_setbit(m, big_n - 1); break;
      }
      for (int j = 0; j < 4; ++j) {
        if (j == 0) {
          mpz_sub_ui(a, m, 1), mpz_set(b, a), mpz_mul(x, a, b);
        } else if (j == 3) {
          mpz_urandomm(a, rng, m), mpz_mul(x, a, m), mpz_add_ui(x, x, 1);  // x = c m + 1 < m^2
        } else {
          mpz_urandomm(a, rng, m), mpz_urandomm(b, rng, m), mpz_mul(x, a, b);
        }
        uint64_t q_short = 0;
        bool marked = false;
        const int c = barrett_steps(r, x, m, n, true, &q_short, &marked);
        mpz_mod(want, x, m);
        ASSERT_EQ(mpz_cmp(r, want), 0) << "n " << n << " case " << k << " j " << j;
        ASSERT_LE(q_short, 1u) << "n " << n << " case " << k << " j " << j;
        ASSERT_LE(c, 1) << "n " << n << " case " << k << " j " << j;
        ASSERT_TRUE(!marked || q_short == 0) << "marked exact, yet short: n " << n << " case " << k << " j " << j;
        if (j == 1 || j == 2) random_corrected += c, random_unmarked += !marked;
        if (j == 3) near_corrected += c, near_unmarked += !marked;
        worst = std::max(worst, c), ++cases;
      }
    }
  }
  EXPECT_EQ(random_corrected, 0u) << "random products: q exact but with probability ~2^-30";
  EXPECT_GT(near_corrected, 0u) << "x = c m + 1: q one short, the correction exercised";
  EXPECT_EQ(random_unmarked, 0u) << "random products: marked exact but with probability ~2^-28";
  EXPECT_GE(near_unmarked, near_corrected) << "every short q unmarked";
  EXPECT_EQ(worst, 1);
  EXPECT_GT(cases, 500u);
  mpz_clears(m, a, b, x, r, want, nullptr);
  gmp_randclear(rng);
}

TEST(Barrett, TensorCoreVariantsAndLimits) {
  const auto h100 = kernels::DeviceLimits::h100();
  for (const char* name : {"mulmod.tcbarrett.u64.q1", "sqrmod.tcbarrett.u64.q1", "powm.tcbarrett.u64.q1.w5",
                           "powm.tcbarrett.u64.q1.w6", "powm.tcbarrett.u64.q1.w7"}) {
    const kernels::Variant* v = kernels::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(kernels::max_operand_bits(*v, h100), 65536u) << name;  // the kernel's shared memory
    EXPECT_TRUE(kernels::why_invalid(*v, 1, 1, 1, h100).empty()) << name;
    EXPECT_TRUE(kernels::why_invalid(*v, 65536, 1000, 1, h100).empty()) << name;
    EXPECT_FALSE(kernels::why_invalid(*v, 65537, 1, 1, h100).empty()) << name;
    // powm: the 2^w-entry table of reduced operands in its scratch.
    if (v->op == kernels::Op::PowM)
      EXPECT_GE(kernels::scratch_bytes(*v, 16384, 100), (uint64_t(1) << v->param) * 256 * 8 * 100) << name;
  }
  // Every size up to the limit fits one block (x rows of 2n + g, g the
  // quotient's guard words, and a constant of 2n + 1 32-bit words), the next
  // does not.
  for (uint32_t n = 1; n <= 1024; n += n < 64 ? 1 : 61) {
    const uint32_t g = kernels::modular::barrett_x_guard_words(2 * n);
    EXPECT_TRUE(kernels::variants::mul_const_imma_fits(2 * n + g, 2 * n + 1)) << n;
  }
  EXPECT_TRUE(kernels::variants::mul_const_imma_fits(2048 + kernels::modular::barrett_x_guard_words(2048), 2049));
  EXPECT_FALSE(kernels::variants::mul_const_imma_fits(2 * 1300, 2 * 1300));  // past 227 KB
  EXPECT_FALSE(kernels::variants::mul_const_imma_fits(0, 8));
}

// Above ~16 Kbit the wgmma kernel's A (64 rows of x) outgrows shared
// memory; launch_imma then takes x in parts (mul_const_wgmma_parts), where
// at most three fit: the composed Barrett's quotient and q m' in two at
// 32 Kbit, in three at 40000 bits, up to ~44.5 Kbit. 64 Kbit would take
// seven, past kMaxWgmmaParts (slower than mma.sync on the H200). The
// quotient's words below q go to a low buffer (launch_barrett_imma_quotient's
// scratch); without one a part may lose a carry into q, so never more than
// three.
TEST(Barrett, TensorCoreProductsTakeWgmmaInParts) {
  namespace kv = kernels::variants;
  const auto quotient = [](uint32_t w) {
    return kernels::block::imma_barrett_quotient_args(nullptr, nullptr, nullptr, 2 * w, 1, nullptr, nullptr, w,
                                                      kernels::modular::barrett_x_guard_words(w));
  };
  const auto qm = [](uint32_t w) {
    return kernels::block::imma_barrett_remainder_args(nullptr, nullptr, nullptr, nullptr, nullptr, 2 * w, 1, nullptr,
                                                       nullptr, w);
  };
  EXPECT_TRUE(kv::mul_const_wgmma_fits(quotient(256)));  // 8 Kbit: whole
  EXPECT_TRUE(kv::mul_const_wgmma_fits(qm(256)));
  EXPECT_FALSE(kv::mul_const_wgmma_fits(quotient(1024)));  // 32 Kbit
  EXPECT_FALSE(kv::mul_const_wgmma_fits(qm(1024)));
  EXPECT_EQ(kv::mul_const_wgmma_parts(quotient(1024)), 2u);
  EXPECT_EQ(kv::mul_const_wgmma_parts(qm(1024)), 2u);
  EXPECT_EQ(kv::mul_const_wgmma_parts(qm(1250)), 3u);   // 40000 bits
  EXPECT_EQ(kv::mul_const_wgmma_parts(qm(1400)), 0u);   // 44800 bits: four, past the cap
  EXPECT_EQ(kv::mul_const_wgmma_parts(qm(2048)), 0u);   // 64 Kbit: seven
  uint32_t low_words = 0;
  kernels::block::ImmaArgs q40 = quotient(1250);
  EXPECT_EQ(kv::mul_const_wgmma_parts(q40), 3u);  // (three: the most without a low buffer)
  q40.low = &low_words, q40.low_lo = q40.out_lo - 8, q40.low_stride = 10;
  EXPECT_EQ(kv::mul_const_wgmma_parts(q40), 3u);
  // The q m' pass with its finish where q's rows do not fit whole: q's high
  // words first, then the remainder kernel on the low ones (half of q), from
  // ~30.6 to ~34.8 Kbit (below, the low part goes to the pair kernel; above,
  // it does not fit).
  EXPECT_TRUE(kv::barrett_rem_wgmma_fits(qm(256)));
  EXPECT_FALSE(kv::barrett_rem_wgmma_fits(qm(1024)));
  EXPECT_EQ(kv::barrett_rem_wgmma_split(qm(384)), 0u);    // 12 Kbit: whole, on the pair kernel
  EXPECT_EQ(kv::barrett_rem_wgmma_split(qm(768)), 0u);    // 24 Kbit
  // (520, not the even 512: the high part's words [520, 1026) take 16 tiles, [512, 1026) 17)
  EXPECT_EQ(kv::barrett_rem_wgmma_split(qm(1024)), 520u);
  EXPECT_EQ(kernels::block::wgmma_tiles(kernels::block::imma_barrett_rem_high_part_args(qm(1024), 512)), 17u);
  EXPECT_EQ(kernels::block::wgmma_tiles(kernels::block::imma_barrett_rem_high_part_args(qm(1024), 520)), 16u);
  // The quotient's first part at 32 Kbit: 504 words (16 tiles) where the even 520 took 17; the
  // second part takes the other 528.
  EXPECT_EQ(kv::mul_const_wgmma_part_words(quotient(1024), 2), 504u);
  EXPECT_EQ(kernels::block::wgmma_tiles(kernels::block::imma_x_part_args(quotient(1024), 0, 520, false)), 17u);
  EXPECT_EQ(kernels::block::wgmma_tiles(kernels::block::imma_x_part_args(quotient(1024), 0, 504, false)), 16u);
  EXPECT_EQ(kv::mul_const_wgmma_part_words(qm(1250), 3), 424u);  // (even where the product starts at word 0)
  EXPECT_EQ(kv::barrett_rem_wgmma_split(qm(1250)), 0u);   // 40000 bits
  EXPECT_EQ(kv::barrett_rem_wgmma_split(qm(2048)), 0u);   // 64 Kbit
  for (uint32_t w = 520; w <= 2048; w += 24) {  // every part of a split fits
    for (const kernels::block::ImmaArgs& a : {quotient(w), qm(w)}) {
      if (kv::mul_const_wgmma_fits(a)) continue;
      const uint32_t parts = kv::mul_const_wgmma_parts(a);
      if (parts == 0) continue;
      EXPECT_LE(parts, (a.out_lo > 0 || a.write_lo > 0) && a.low == nullptr ? 3u : kv::kMaxWgmmaParts) << w;
      const uint32_t h = kv::mul_const_wgmma_part_words(a, parts);
      EXPECT_EQ(h % 8, 0u) << w;
      for (uint32_t i = 0, d = 0; i < parts && d < a.x_words; ++i, d += h) {  // (as launch_mul_const_wgmma_parts)
        const uint32_t width = kernels::block::imma_x_part_width(a.x_words, h, parts, i);
        EXPECT_TRUE(kv::mul_const_wgmma_fits(kernels::block::imma_x_part_args(a, d, h, d > 0, width))) << w << " " << d;
      }
    }
    if (const uint32_t h = kv::barrett_rem_wgmma_split(qm(w))) {  // both parts of the q m' pass fit
      EXPECT_EQ(h % 8, 0u) << w;
      EXPECT_TRUE(kv::mul_const_wgmma_fits(kernels::block::imma_barrett_rem_high_part_args(qm(w), h))) << w;
      EXPECT_TRUE(kv::barrett_rem_wgmma_fits(kernels::block::imma_barrett_rem_low_part_args(qm(w), h))) << w;
    }
  }
}

// The fused quotient + remainder kernel (barrett_fused_wgmma.cuh) at 2-4
// Kbit: w % 8 == 0 with eight guard words, and three blocks an SM (the
// registers allow three: with two, 3 and 4 Kbit ran the tensor cores idle
// while the blocks formed words). A of q on A of x, E of m' on E of mu2's
// zero tail and r's top words in x's first slice are what keep 4 Kbit at
// three (76672 bytes a block of 76800).
TEST(Barrett, FusedKernelTakesTwoToFourKbitThreeBlocksAnSm) {
  namespace kv = kernels::variants;
  const auto fused = [](uint32_t w) {
    kernels::block::BarrettFusedArgs a;
    a.quotient = kernels::block::imma_barrett_quotient_args(nullptr, nullptr, nullptr, 2 * w, 1, nullptr, nullptr, w,
                                                            kernels::modular::barrett_x_guard_words(w));
    a.remainder = kernels::block::imma_barrett_remainder_args(nullptr, nullptr, nullptr, nullptr, nullptr, 2 * w, 1,
                                                              nullptr, nullptr, w);
    return a;
  };
  for (uint32_t w = 64; w <= 128; w += 8) {
    EXPECT_TRUE(kv::barrett_fused_wgmma_fits(fused(w))) << w;
    EXPECT_GE(kv::barrett_fused_wgmma_blocks_per_sm(fused(w)), 3u) << w;
  }
  EXPECT_FALSE(kv::barrett_fused_wgmma_fits(fused(100)));  // (w % 8 != 0: q's quads would straddle slices)
  EXPECT_EQ(kv::barrett_fused_wgmma_blocks_per_sm(fused(136)), 2u);
}

TEST(Barrett, RegistryEntriesAndLimits) {
  const auto h100 = kernels::DeviceLimits::h100();
  for (const char* name : {"mulmod.barrett.u64.q1", "sqrmod.barrett.u64.q1", "powm.barrett.u64.q1.w4",
                           "powm.barrett.u64.q1.w5", "powm.barrett.u64.q1.w6"}) {
    const kernels::Variant* v = kernels::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(kernels::max_operand_bits(*v, h100), 524288u) << name;
    EXPECT_TRUE(kernels::why_invalid(*v, 1, 1, 1, h100).empty()) << name;
    EXPECT_TRUE(kernels::why_invalid(*v, 12345, 1000, 1, h100).empty()) << name;
    EXPECT_FALSE(kernels::why_invalid(*v, 524289, 1, 1, h100).empty()) << name;
    // Scratch: at least the operands' copies (m', mu, t, p, q, ...), and the table for powm.
    const uint64_t n_bytes = 256 * 8 * 100;
    const uint64_t scratch = kernels::scratch_bytes(*v, 16384, 100);
    EXPECT_GE(scratch, 10 * n_bytes) << name;
    if (v->op == kernels::Op::PowM) EXPECT_GE(scratch, (uint64_t(1) << v->param) * n_bytes) << name;
  }
}

}  // namespace
}  // namespace bigtune
