// The Barrett glue kernels (kernels/modular/barrett_kernels.cuh) on the host
// warp emulation: the very device code, 32 host fibers per warp, with the
// registered products and the division of the GPU pipeline replaced by GMP's
// mpn_mul_n / mpn_tdiv_qr. The pipeline below follows barrett_launch()
// (kernels/variants/barrett_instances.cu) step by step: prep -> division ->
// mu -> check -> [reduce a, b] -> t = a*b -> q1 -> q1*mu -> qadd -> q*m' ->
// finish; results against mpz. Also the powm gather (digits straddling words,
// past the exponent) and 1 mod m.
#include "tests/support/warp_emulation.hpp"

#include <gmp.h>
#include <gtest/gtest.h>

#include <vector>

#include "kernels/modular/barrett_kernels.cuh"

namespace bigtune {
namespace {

using kernels::modular::BarrettDev;
namespace km = kernels::modular;

template <class Body>
void each(uint64_t count, Body body) {
  for (uint64_t i = 0; i < count; ++i) emu::run_warp(0, [&](unsigned) { body(i); });
}

struct Host {
  uint32_t n;
  uint64_t count, cm;
  std::vector<uint32_t> shift, d, flag;
  std::vector<uint64_t> mprime, mu, q, p, alt, dividend, divisor, quot, t, ared, bred;
  uint32_t flags_seen = 0;
  Host(uint32_t words, uint64_t c, uint64_t moduli)
      : n(words), count(c), cm(moduli), shift(c), d(c), flag(1), mprime(c * words), mu(c * words), q(c * words),
        p(2 * c * words), alt(2 * c * words), dividend(2 * moduli * words), divisor(2 * moduli * words), quot(2 * moduli * words),
        t(2 * c * words), ared(c * words), bred(c * words) {}
  BarrettDev dev() {
    BarrettDev v{};
    v.count = count, v.count_m = cm, v.n = n;
    v.shift = shift.data(), v.d = d.data(), v.flag = flag.data();
    v.mprime = mprime.data(), v.mu = mu.data(), v.q = q.data(), v.p = p.data(), v.alt = alt.data();
    v.dividend = dividend.data(), v.divisor = divisor.data(), v.quot = quot.data();
    v.corrections = km::kBarrettMaxCorrections;  // as barrett_launch sets it for the composed products
    return v;
  }
  // The registered products' stand-in: r (2n words) = a * b, per instance.
  void product(const uint64_t* a, const uint64_t* b, uint64_t* r) {
    for (uint64_t i = 0; i < count; ++i)
      mpn_mul_n(reinterpret_cast<mp_limb_t*>(r + i * 2 * n), reinterpret_cast<const mp_limb_t*>(a + i * n),
                reinterpret_cast<const mp_limb_t*>(b + i * n), n);
  }
  void reduce(const uint64_t* x, uint32_t t_words, uint64_t* out) {
    BarrettDev v = dev();
    each(count, [&](uint64_t i) { km::barrett_q1_body(v, x, t_words, i); });
    product(q.data(), mu.data(), p.data());
    each(count, [&](uint64_t i) { km::barrett_qadd_body(v, i); });
    product(q.data(), mprime.data(), p.data());
    each(count, [&](uint64_t i) { km::barrett_finish_body(v, x, t_words, out, i); });
  }
  // out = a * b mod m (b = nullptr: a^2), as barrett_launch for mulmod/sqrmod.
  void mulmod(const uint64_t* a, const uint64_t* b, const uint64_t* m, uint64_t* out) {
    BarrettDev v = dev();
    each(cm, [&](uint64_t i) { km::barrett_prep_body(v, m, i); });
    for (uint64_t i = 0; i < cm; ++i) {  // the registered division's stand-in
      std::vector<mp_limb_t> qq(n + 1), rr(n);
      mpn_tdiv_qr(qq.data(), rr.data(), 0, reinterpret_cast<const mp_limb_t*>(dividend.data() + i * 2 * n), 2 * n,
                  reinterpret_cast<const mp_limb_t*>(divisor.data() + i * n), n);
      std::fill(quot.begin() + i * 2 * n, quot.begin() + (i + 1) * 2 * n, 0);
      std::copy(qq.begin(), qq.end(), quot.begin() + i * 2 * n);
    }
    each(count, [&](uint64_t i) { km::barrett_mu_body(v, i); });
    flag[0] = 0;
    each(count, [&](uint64_t i) { km::barrett_check_body(v, a, m, i); });
    if (b) each(count, [&](uint64_t i) { km::barrett_check_body(v, b, m, i); });
    flags_seen |= flag[0];
    if (flag[0]) {  // an operand >= m with a shorter modulus; N-bit moduli need nothing
      reduce(a, n, ared.data());
      a = ared.data();
      if (b) reduce(b, n, bred.data()), b = bred.data();
    }
    product(a, b ? b : a, t.data());
    reduce(t.data(), 2 * n, out);
  }
};

void put(std::vector<uint64_t>& w, uint64_t row, uint32_t n, const mpz_t x) {
  size_t got = 0;
  std::fill(w.begin() + row * n, w.begin() + (row + 1) * n, 0);
  mpz_export(w.data() + row * n, &got, -1, 8, 0, 0, x);
  ASSERT_LE(got, n);
}
void get(mpz_t x, const std::vector<uint64_t>& w, uint64_t row, uint32_t n) {
  mpz_import(x, n, -1, 8, 0, 0, w.data() + row * n);
}

void modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint64_t kind) {
  switch (kind % 9) {
    case 0: mpz_set_ui(m, 1); break;
    case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1); break;
    case 2: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;
    case 3: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;
    case 4: mpz_set_ui(m, 2); break;
    case 5: mpz_urandomb(m, rng, bits), mpz_clrbit(m, 0); break;
    case 6: mpz_urandomb(m, rng, 1 + kind % 70); break;
    case 7: mpz_rrandomb(m, rng, bits); break;
    default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1); break;
  }
  mpz_tdiv_r_2exp(m, m, bits);
  if (mpz_sgn(m) == 0) mpz_set_ui(m, 1);
}

TEST(BarrettEmulation, MulmodSqrmodMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, 31);
  mpz_t m, a, b, got, want;
  mpz_inits(m, a, b, got, want, nullptr);
  uint64_t checked = 0, bad = 0;
  uint32_t paths = 0;  // bit 0: operands >= m went straight into the product (N-bit moduli); bit 1: reduced first
  // 129 and 287 words: the finish in registers (from 129 words to n + 1 =
  // 288); 288: past it, the rows form again.
  for (uint32_t n : {1u, 2u, 3u, 33u, 64u, 129u, 287u, 288u}) {
    for (int mode = 0; mode < 7; ++mode) {  // 0, 4: per instance; 1-3, 5, 6: shared (kinds 2, 5, 0, 8, 2)
      // Modes 4, 5: full-width moduli (s = 0 for kinds 2, 8), where operands
      // >= m go straight into the product (a b < 2^(2N)). Mode 6: a word
      // short and more (s = 69: the finish's rows form, not its registers').
      const uint64_t bits = mode == 6 ? (n > 1 ? 64ull * n - 69 : 64) : 64ull * n - (n > 2 && mode < 4 ? 7 : 0), count = 5;
      for (bool square : {false, true}) {
        const uint64_t cm = mode == 0 || mode == 4 ? count : 1;
        Host h(n, count, cm);
        std::vector<uint64_t> va(count * n), vb(count * n), vm(cm * n), out(count * n, 0xdeadbeefull);
        std::vector<mpz_t> ms(cm);
        for (uint64_t i = 0; i < cm; ++i) {
          mpz_init(ms[i]);
          const uint64_t kind = mode == 0 ? i + 3 * n : mode == 1 || mode == 6 ? 2 : mode == 2 ? 5 : mode == 3 ? 0 : mode == 4 ? (i % 2 ? 2 : 8) : 8;
          modulus(ms[i], rng, bits, kind);
          put(vm, i, n, ms[i]);
        }
        bool unreduced = false;
        for (uint64_t i = 0; i < count; ++i) {
          const mpz_t& mi = ms[i % cm];
          switch ((i + mode) % 4) {
            case 0: mpz_sub_ui(a, mi, 1), mpz_set(b, a); break;                 // (m - 1)^2
            case 1: mpz_urandomm(a, rng, mi), mpz_urandomm(b, rng, mi); break;  // reduced
            case 2: mpz_set_ui(a, 0), mpz_setbit(a, bits), mpz_sub_ui(a, a, 1), mpz_rrandomb(b, rng, bits); break;
            default: mpz_urandomb(a, rng, bits), mpz_urandomb(b, rng, bits); break;
          }
          put(va, i, n, a);
          put(vb, i, n, b);
          unreduced = unreduced || mpz_cmp(a, mi) >= 0 || (!square && mpz_cmp(b, mi) >= 0);
        }
        h.mulmod(va.data(), square ? nullptr : vb.data(), vm.data(), out.data());
        paths |= h.flags_seen ? 2u : unreduced ? 1u : 0u;
        for (uint64_t i = 0; i < count; ++i) {
          get(a, va, i, n);
          get(b, vb, i, n);
          if (square) mpz_set(b, a);
          mpz_mul(want, a, b);
          mpz_mod(want, want, ms[i % cm]);
          get(got, out, i, n);
          ++checked;
          if (mpz_cmp(got, want) != 0 && ++bad <= 5)
            ADD_FAILURE() << "n " << n << " mode " << mode << " square " << square << " instance " << i;
        }
        for (auto& x : ms) mpz_clear(x);
      }
    }
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(checked, 8u * 7 * 2 * 5);  // sizes x modes x {mul, sqr} x instances
  EXPECT_EQ(paths, 3u) << "both operand paths (unreduced into the product; Barrett first) ran";
  mpz_clears(m, a, b, got, want, nullptr);
  gmp_randclear(rng);
}

TEST(BarrettEmulation, GatherAndOne) {
  const uint32_t n = 3, w = 5;
  const uint64_t count = 4, entries = uint64_t(1) << w;
  Host h(n, count, count);
  std::vector<uint64_t> table(entries * count * n);
  for (uint64_t k = 0; k < table.size(); ++k) table[k] = 0x1000 * k + 7;
  // Exponents of 2 words: digits at bit 0, across the word boundary (60 - 64),
  // at the top of word 1 and past the exponent.
  std::vector<uint64_t> e = {0x0123456789abcdefull, 0xfedcba9876543210ull, 0xf000000000000001ull, 0x8000000000000003ull,
                             0, ~0ull, ~0ull, 0};
  std::vector<uint64_t> out(count * n);
  BarrettDev v = h.dev();
  for (uint64_t lo : {0ull, 60ull, 62ull, 123ull, 125ull, 130ull}) {
    each(count, [&](uint64_t i) { km::barrett_gather_body(v, table.data(), e.data(), 2, 0, lo, w, out.data(), i); });
    for (uint64_t i = 0; i < count; ++i) {
      unsigned __int128 x = (unsigned __int128)e[2 * i + 1] << 64 | e[2 * i];
      const uint64_t digit = lo >= 128 ? 0 : uint64_t(x >> lo) & (entries - 1);
      for (uint32_t j = 0; j < n; ++j)
        EXPECT_EQ(out[i * n + j], table[(digit * count + i) * n + j]) << "lo " << lo << " instance " << i;
    }
  }
  // Shared exponent: instance i reads row 0.
  each(count, [&](uint64_t i) { km::barrett_gather_body(v, table.data(), e.data(), 2, 1, 4, w, out.data(), i); });
  for (uint64_t i = 0; i < count; ++i) EXPECT_EQ(out[i * n], table[((0xdeull & 31) * count + i) * n]);
  // 1 mod m: 0 exactly when m = 1 (s = N - 1).
  h.shift = {0, 64 * n - 1, 5, 64 * n - 2};
  v = h.dev();
  each(count, [&](uint64_t i) { km::barrett_one_body(v, out.data(), i); });
  for (uint64_t i = 0; i < count; ++i) {
    EXPECT_EQ(out[i * n], i == 1 ? 0u : 1u);
    EXPECT_EQ(out[i * n + 1] | out[i * n + 2], 0u);
  }
}

}  // namespace
}  // namespace bigtune
