// The control flow of the block division (seed 001 Alg. 1–3, as written in
// kernels/block/div_shinv.hpp) run on the CPU backend tests/reference/
// host_limb_ops.hpp and checked against GMP's mpz_tdiv_qr: random and
// run-of-ones operands over many dividend/divisor lengths, and the edge cases
// u < v, u = v, v = 1, v = 2^k, v = 2^bits − 1, one-limb v and v = 0.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/block/div_shinv.hpp"
#include "tests/reference/host_limb_ops.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using Limb = uint64_t;

std::vector<Limb> words(const mpz_t x, uint32_t n) {
  std::vector<Limb> w(n, 0);
  size_t got = 0;
  if (mpz_sgn(x)) mpz_export(w.data(), &got, -1, 8, 0, 0, x);
  EXPECT_LE(got, n);
  return w;
}

void from_words(mpz_t x, const std::vector<Limb>& w) { mpz_import(x, w.size(), -1, 8, 0, 0, w.data()); }

// Divides u (m limbs) by v (n limbs) with the shared algorithm; returns
// whether q, r and the zero flag match GMP, printing the case otherwise.
bool check(const mpz_t u, const mpz_t v, uint32_t m, uint32_t n) {
  test::HostLimbOps ops;
  std::vector<Limb> ws(kernels::block::div_shinv_workspace_limbs(m, n) + 8, 0x5a5a5a5a5a5a5a5aull);
  const Limb guard = 0xdeadbeefdeadbeefull;
  for (size_t i = ws.size() - 8; i < ws.size(); ++i) ws[i] = guard;
  kernels::block::DivShinv<test::HostLimbOps> div(ops, ws.data(), m, n);
  std::vector<Limb> uw = words(u, m), vw = words(v, n), q(m, guard), r(n, guard);
  const bool zero = div.divmod(q.data(), m, r.data(), n, uw.data(), vw.data());
  mpz_t wq, wr, gq, gr;
  mpz_inits(wq, wr, gq, gr, nullptr);
  bool ok;
  if (mpz_sgn(v) == 0) {
    ok = zero && mpz_sgn(q.size() ? (from_words(gq, q), gq) : gq) == 0 && (from_words(gr, r), mpz_sgn(gr) == 0);
  } else {
    mpz_tdiv_qr(wq, wr, u, v);
    from_words(gq, q);
    from_words(gr, r);
    ok = !zero && mpz_cmp(wq, gq) == 0 && mpz_cmp(wr, gr) == 0;
  }
  for (size_t i = ws.size() - 8; i < ws.size(); ++i) ok = ok && ws[i] == guard;
  if (!ok)
    ADD_FAILURE() << "divmod m=" << m << " n=" << n << "\n u=" << test::hex(u) << "\n v=" << test::hex(v)
                  << "\n q=" << test::hex(gq) << " want " << test::hex(wq) << "\n r=" << test::hex(gr) << " want "
                  << test::hex(wr);
  mpz_clears(wq, wr, gq, gr, nullptr);
  return ok;
}

TEST(DivShinvAlgorithm, RandomLengthsMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed());
  mpz_t u, v;
  mpz_inits(u, v, nullptr);
  uint64_t cases = 0, bad = 0;
  const uint32_t lens[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 17, 23, 31, 32, 33, 47, 64, 65, 100, 128, 129};
  for (uint32_t m : lens) {
    for (uint32_t n : lens) {
      if (n > m) continue;
      for (int rep = 0; rep < 12; ++rep) {
        const uint64_t ubits = 64 * m - (rep % 3 == 0 ? 0 : gmp_urandomm_ui(rng, 64));
        const uint64_t vbits = 64 * uint64_t(n) - (rep % 2 ? gmp_urandomm_ui(rng, 64) : 0);
        if (rep % 4 == 1) mpz_rrandomb(u, rng, ubits); else mpz_urandomb(u, rng, ubits);
        if (rep % 4 == 2) mpz_rrandomb(v, rng, vbits); else mpz_urandomb(v, rng, vbits);
        if (mpz_sgn(v) == 0) mpz_set_ui(v, 3);
        ++cases;
        bad += !check(u, v, m, n);
      }
    }
  }
  std::printf("div_shinv host: %llu random cases, %llu mismatches (seed %llu)\n", (unsigned long long)cases,
              (unsigned long long)bad, (unsigned long long)test::test_seed());
  mpz_clears(u, v, nullptr);
  gmp_randclear(rng);
}

TEST(DivShinvAlgorithm, EdgeDivisorsMatchGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1);
  mpz_t u, v;
  mpz_inits(u, v, nullptr);
  for (uint32_t m : {1u, 2u, 3u, 5u, 8u, 16u, 17u, 33u, 64u}) {
    const uint64_t bits = 64ull * m;
    for (uint32_t n : {1u, 2u, (m + 1) / 2, m}) {
      if (n > m || n == 0) continue;
      const uint64_t vbits = 64ull * n;
      mpz_urandomb(u, rng, bits);
      // v = 1, 2, 2^k for several k, 2^vbits − 1, B^j, u itself, u + 1, 0.
      mpz_set_ui(v, 1);
      check(u, v, m, n);
      mpz_set_ui(v, 2);
      check(u, v, m, n);
      for (uint64_t k : {uint64_t(1), uint64_t(63), uint64_t(64), vbits / 2, vbits - 1}) {
        if (k >= vbits) continue;
        mpz_set_ui(v, 0);
        mpz_setbit(v, k);
        check(u, v, m, n);
      }
      mpz_set_ui(v, 0);
      mpz_setbit(v, vbits);
      mpz_sub_ui(v, v, 1);
      check(u, v, m, n);  // all ones
      mpz_set_ui(v, 0);
      check(u, v, m, n);  // zero divisor: flag, q = r = 0
      if (n == m) {
        check(u, u, m, n);  // u = v
        mpz_add_ui(v, u, 1);
        if (mpz_sizeinbase(v, 2) <= vbits) check(u, v, m, n);  // u < v
        mpz_tdiv_q_ui(v, u, 2);
        mpz_add_ui(v, v, 1);
        check(u, v, m, n);  // 2v > u: quotient 1
      }
      // All-ones dividend, top-heavy divisors (2v close to B^h).
      mpz_set_ui(u, 0);
      mpz_setbit(u, bits);
      mpz_sub_ui(u, u, 1);
      mpz_set_ui(v, 0);
      mpz_setbit(v, vbits - 1);
      check(u, v, m, n);
      mpz_add_ui(v, v, 1);
      check(u, v, m, n);
      mpz_set(v, u);
      mpz_tdiv_q_2exp(v, v, bits - vbits);
      check(u, v, m, n);
      mpz_sub_ui(v, v, 1);
      if (mpz_sgn(v)) check(u, v, m, n);
      mpz_set_ui(u, 0);
      check(u, v, m, n);  // u = 0
    }
  }
  mpz_clears(u, v, nullptr);
  gmp_randclear(rng);
}

}  // namespace
}  // namespace bigtune
