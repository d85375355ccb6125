// The NTT Montgomery powm on R = 2^N' + 1 (kernels/modular/nttmont_powm.cuh,
// session 14) on the CPU:
//   - its half-length products: one sub-product t of the D = 2 split plan,
//     in place (ntt.cuh, subs null), doubled, is a·b modulo 2^N' - 1 (t = 0)
//     or 2^N' + 1 (t = 1, with the kernel's bias every coefficient in
//     [0, 2^77)), for squares, products and cached spectra (ntt_cached.cuh);
//   - the step's arithmetic around them (k = v0 - u0 in [-1, 2], u = a b / R
//     mod m after one subtraction), including the rare values T+ = 2^N' and
//     q = 2^N' the kernel takes on thread 0's serial path;
//   - the host constants (nttmont_prep.hpp) and the moduli it refuses;
//   - the registry entries' shapes.
// The whole powm runs against GMP on the GPU (tests/gpu/nttmont_vs_gmp_test.cpp).
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_cached.cuh"
#include "kernels/modular/nttmont_layout.hpp"
#include "kernels/modular/nttmont_prep.hpp"
#include "kernels/registry.hpp"
#include "tests/support/ntt_host.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using Field = kernels::arith::Crt3;
using E = Field::Elem;
namespace kb = kernels::block;
namespace km = kernels::modular;

struct Mpz {
  mpz_t v;
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

void to_mpz(mpz_t r, const std::vector<uint64_t>& w) { mpz_import(r, w.size(), -1, 8, 0, 0, w.data()); }

// The kernel's sub-products on one host "thread".
struct Halves {
  uint32_t nw;
  kb::NttPlan p;
  std::vector<E> table, x, b_hat;
  kb::NttTables<Field> tw;

  explicit Halves(uint32_t n) : nw(km::nttmont_words(n)), p(km::nttmont_plan(n)) {
    table.resize(kb::ntt_table_elems(p));
    const E w = Field::root_of_unity(int(p.log_n)), wi = Field::pow(w, p.n() - 1);
    for (uint64_t k = 0; k < table.size(); ++k) table[k] = kb::ntt_twiddle_entry<Field>(w, wi, p.log_n, k);
    tw = kb::NttTables<Field>::over(table.data(), p.log_n);
    x.resize(kb::ntt_x_elems(p));
    b_hat.resize(p.m());
  }
  // sum_k c_k 2^(32k) with the kernel's coefficients (nttmont_powm.cuh, NmParts):
  // 2 s_k, plus the bias for t = 1; every c_k checked nonnegative and < 2^77.
  void value(mpz_t r, uint32_t t) {
    const uint32_t m = p.m();
    const E b_m1 = Field::from_digit(0xffffffffull), d = Field::mul(Field::from_digit(m), b_m1);
    const E bias = Field::mul(d, b_m1), bias0 = Field::mul(d, Field::add(b_m1, Field::from_digit(2)));
    Mpz c;
    mpz_set_ui(r, 0);
    for (uint32_t k = m; k-- > 0;) {
      E e = x[kb::ntt_phys(k)];
      e = Field::add(e, e);
      if (t == 1) e = Field::add(e, k == 0 ? bias0 : bias);
      uint64_t lo, hi;
      Field::to_integer(e, lo, hi);
      EXPECT_LT(hi, uint64_t(1) << 13) << "coefficient " << k << " past 2^77 (a negative one without its bias)";
      mpz_set_ui(c.v, hi);
      mpz_mul_2exp(c.v, c.v, 64);
      mpz_add_ui(c.v, c.v, lo);
      mpz_mul_2exp(r, r, 32);
      mpz_add(r, r, c.v);
    }
  }
  void product(mpz_t r, const std::vector<uint64_t>& a, const std::vector<uint64_t>* b, uint32_t t) {
    std::fill(x.begin(), x.end(), E{});
    if (b == nullptr)
      kb::ntt_sub_product<Field, true>(x.data(), nullptr, nullptr, p, tw, a.data(), nw, a.data(), nw, t, 0, 1,
                                       [](bool) {});
    else
      kb::ntt_sub_product<Field, false>(x.data(), b_hat.data(), nullptr, p, tw, a.data(), nw, b->data(), nw, t, 0,
                                        1, [](bool) {});
    value(r, t);
  }
  void cached(mpz_t r, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, uint32_t t) {
    std::vector<E> hat(p.m());
    kb::ntt_cache_operand<Field>(hat.data(), x.data(), p, tw, b.data(), nw, 0, 1, [](bool) {}, t);
    std::fill(x.begin(), x.end(), E{});
    kb::ntt_cached_coefficients<Field>(x.data(), hat.data(), p, tw, a.data(), nw, 0, 1, [](bool) {}, t);
    value(r, t);
  }
};

TEST(NttMont, HalfProductsAreCyclicAndNegacyclic) {
  std::mt19937_64 rng(test::test_seed() + 1410);
  int checked = 0;
  // M = 128 (the smallest plan), 256, 1024 and 2048 points (32 and 64 Kbit).
  for (uint32_t n : {1u, 64u, 100u, 512u, 1024u}) {
    Halves h(n);
    Mpz mod_p, mod_m, want, got, A, B;
    mpz_setbit(mod_p.v, 64ull * h.nw), mpz_add_ui(mod_p.v, mod_p.v, 1);
    mpz_setbit(mod_m.v, 64ull * h.nw), mpz_sub_ui(mod_m.v, mod_m.v, 1);
    for (int kind : {0, 1, 2}) {
      const auto a = test::ntt_operand(rng, h.nw, kind), b = test::ntt_operand(rng, h.nw, (kind + 1) % 3);
      to_mpz(A.v, a), to_mpz(B.v, b);
      for (uint32_t t : {0u, 1u}) {
        const mpz_t& mod = t ? mod_p.v : mod_m.v;
        for (int form = 0; form < 3; ++form) {
          if (form == 0) h.product(got.v, a, nullptr, t), mpz_mul(want.v, A.v, A.v);
          else if (form == 1) h.product(got.v, a, &b, t), mpz_mul(want.v, A.v, B.v);
          else h.cached(got.v, a, b, t), mpz_mul(want.v, A.v, B.v);
          mpz_mod(want.v, want.v, mod);
          mpz_mod(got.v, got.v, mod);
          EXPECT_EQ(mpz_cmp(got.v, want.v), 0) << "n " << n << " t " << t << " form " << form << " kind " << kind;
          ++checked;
        }
      }
    }
  }
  std::printf("half-length products: %d checked\n", checked);
}

// The step of nttmont_powm.cuh on integers: the residues from GMP, the
// reconstruction (k-fix, one subtraction) as the kernel does it.
uint64_t low_word(const mpz_t v) { return mpz_size(v) ? mpz_getlimbn(v, 0) : 0; }

void check_step(const mpz_t a, const mpz_t b, const mpz_t m, uint64_t bits, int* rare_tp, int* rare_q) {
  Mpz r, rm1, mu, t, tp, tm, q, v, u, want;
  mpz_setbit(r.v, bits), mpz_add_ui(r.v, r.v, 1);
  mpz_setbit(rm1.v, bits), mpz_sub_ui(rm1.v, rm1.v, 1);
  ASSERT_NE(mpz_invert(mu.v, m, r.v), 0);
  mpz_sub(mu.v, r.v, mu.v);
  mpz_mul(t.v, a, b);
  mpz_mod(tp.v, t.v, r.v);
  mpz_mod(tm.v, t.v, rm1.v);
  if (mpz_sizeinbase(tp.v, 2) > bits) ++*rare_tp;  // T+ = 2^N'
  mpz_mul(q.v, tp.v, mu.v), mpz_mod(q.v, q.v, r.v);
  if (mpz_sizeinbase(q.v, 2) > bits) ++*rare_q;  // q = 2^N'
  // V = T- + q m mod 2^N' - 1 (q = 2^N': 1), v = V / 2: V rotated right by one bit.
  if (mpz_sizeinbase(q.v, 2) > bits) mpz_set(v.v, m);
  else mpz_mul(v.v, q.v, m);
  mpz_add(v.v, v.v, tm.v), mpz_mod(v.v, v.v, rm1.v);
  const uint64_t low_bit = mpz_odd_p(v.v) ? 1 : 0;
  mpz_fdiv_q_2exp(v.v, v.v, 1);
  if (low_bit) mpz_setbit(v.v, bits - 1);
  const uint64_t u0 = low_word(a) * low_word(b) + low_word(q.v) * low_word(m);
  const int64_t k = int64_t(low_word(v.v) - u0);
  ASSERT_GE(k, -1);
  ASSERT_LE(k, 2);
  mpz_set(u.v, v.v);
  if (k >= 0) mpz_addmul_ui(u.v, rm1.v, uint64_t(k));
  else mpz_sub(u.v, u.v, rm1.v);
  if (mpz_cmp(u.v, m) >= 0) mpz_sub(u.v, u.v, m);
  // want = a b R^-1 mod m
  mpz_invert(want.v, r.v, m);
  mpz_mul(want.v, want.v, t.v), mpz_mod(want.v, want.v, m);
  EXPECT_EQ(mpz_cmp(u.v, want.v), 0);
}

TEST(NttMont, StepArithmeticMatchesGmp) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1411);
  int rare_tp = 0, rare_q = 0, steps = 0;
  for (uint64_t bits : {4096ull, 32768ull}) {
    Mpz m, a, b, r, inv;
    mpz_setbit(r.v, bits), mpz_add_ui(r.v, r.v, 1);
    for (int mk = 0; mk < 4; ++mk) {
      mpz_set_ui(m.v, 0);
      if (mk == 0) mpz_setbit(m.v, bits), mpz_sub_ui(m.v, m.v, 1);  // 2^N' - 1: the largest
      else if (mk == 1) mpz_setbit(m.v, bits - 1), mpz_add_ui(m.v, m.v, 1);
      else if (mk == 2) mpz_set_ui(m.v, 1000003);  // small
      else mpz_urandomb(m.v, rng, bits), mpz_setbit(m.v, 0);
      for (int i = 0; i < 12; ++i) {
        if (i == 0) mpz_sub_ui(a.v, m.v, 1), mpz_set(b.v, a.v);
        else mpz_urandomm(a.v, rng, m.v), mpz_urandomm(b.v, rng, m.v);
        check_step(a.v, b.v, m.v, bits, &rare_tp, &rare_q);
        ++steps;
      }
      // T+ = 2^N' (= -1): a = b = 2^(N'/2), where below m.
      mpz_set_ui(a.v, 0), mpz_setbit(a.v, bits / 2);
      if (mpz_cmp(a.v, m.v) < 0) check_step(a.v, a.v, m.v, bits, &rare_tp, &rare_q), ++steps;
    }
    // q = 2^N': t = m (q = -t m^-1 = -1 mod R), m = f^2, a = b = f.
    Mpz f;
    mpz_urandomb(f.v, rng, bits / 2 - 1), mpz_setbit(f.v, 0), mpz_setbit(f.v, bits / 2 - 2);
    mpz_mul(m.v, f.v, f.v);
    check_step(f.v, f.v, m.v, bits, &rare_tp, &rare_q), ++steps;
  }
  gmp_randclear(rng);
  std::printf("Montgomery steps: %d checked, T+ = 2^N' in %d, q = 2^N' in %d\n", steps, rare_tp, rare_q);
  EXPECT_GE(rare_tp, 2);
  EXPECT_GE(rare_q, 2);
}

TEST(NttMont, HostConstantsAndRefusedModuli) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 1412);
  const uint32_t n = 40, nw = km::nttmont_words(n);  // 2560 bits on N' = 4096 (R = F_12)
  ASSERT_EQ(nw, 64u);
  const uint64_t bits = 64ull * nw;
  Mpz m, r, x;
  mpz_setbit(r.v, bits), mpz_add_ui(r.v, r.v, 1);
  std::vector<uint64_t> words(3 * n, 0), out(3 * km::kNttMontConstRows * nw);
  ASSERT_EQ(km::kNttMontConstRows, 4u);
  for (int i = 0; i < 3; ++i) {
    mpz_urandomb(m.v, rng, 64 * n), mpz_setbit(m.v, 0);
    size_t c = 0;
    mpz_export(words.data() + i * n, &c, -1, 8, 0, 0, m.v);
  }
  ASSERT_TRUE(km::nttmont_constants(words.data(), 3, n, nw, out.data()));
  for (int i = 0; i < 3; ++i) {
    const auto row = [&](int k) {
      const uint64_t* p = out.data() + (uint64_t(i) * km::kNttMontConstRows + k) * nw;
      return std::vector<uint64_t>(p, p + nw);
    };
    to_mpz(m.v, std::vector<uint64_t>(words.begin() + i * n, words.begin() + (i + 1) * n));
    to_mpz(x.v, row(0));
    EXPECT_EQ(mpz_cmp(x.v, m.v), 0);
    to_mpz(x.v, row(1));  // m mu = -1 mod R
    mpz_mul(x.v, x.v, m.v), mpz_add_ui(x.v, x.v, 1), mpz_mod(x.v, x.v, r.v);
    EXPECT_EQ(mpz_sgn(x.v), 0);
    to_mpz(x.v, row(2));  // R mod m
    EXPECT_LT(mpz_cmp(x.v, m.v), 0);
    mpz_sub(x.v, r.v, x.v), mpz_mod(x.v, x.v, m.v);
    EXPECT_EQ(mpz_sgn(x.v), 0);
    to_mpz(x.v, row(3));  // R^2 mod m
    Mpz r2;
    mpz_mul(r2.v, r.v, r.v), mpz_mod(r2.v, r2.v, m.v);
    EXPECT_EQ(mpz_cmp(x.v, r2.v), 0);
  }
  // Refused: even, 1, and a multiple of 114689 = 7 2^14 + 1, a factor of F_12 = 2^4096 + 1.
  for (int kind = 0; kind < 3; ++kind) {
    if (kind == 0) mpz_urandomb(m.v, rng, 64 * n), mpz_clrbit(m.v, 0);
    else if (kind == 1) mpz_set_ui(m.v, 1);
    else mpz_urandomb(m.v, rng, 64 * n - 20), mpz_setbit(m.v, 0), mpz_mul_ui(m.v, m.v, 114689);
    std::fill(words.begin(), words.end(), 0);
    size_t c = 0;
    mpz_export(words.data() + n, &c, -1, 8, 0, 0, m.v);  // the second of three
    mpz_set_ui(x.v, 3);
    mpz_export(words.data(), &c, -1, 8, 0, 0, x.v);
    mpz_export(words.data() + 2 * n, &c, -1, 8, 0, 0, x.v);
    EXPECT_FALSE(km::nttmont_constants(words.data(), 3, n, nw, out.data())) << "kind " << kind;
  }
  gmp_randclear(rng);
}

TEST(NttMont, RegistryEntriesShapes) {
  const auto h100 = kernels::DeviceLimits::h100();
  for (const char* name : {"powm.nttmont.u64.q1.w5", "powm.nttmont.u64.q1.w6", "powm.nttmont.u64.q1.w7",
                           "powm.nttmont.u64.q1.sw8"}) {
    const kernels::Variant* v = kernels::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(kernels::max_operand_bits(*v, h100), 65536u) << name;
    for (uint64_t bits : {1ull, 64ull, 1000ull, 16385ull, 40001ull, 65536ull})
      EXPECT_TRUE(kernels::why_invalid(*v, bits, 1000, 1, h100).empty()) << name << " " << bits;
    EXPECT_FALSE(kernels::why_invalid(*v, 65537, 1, 1, h100).empty()) << name;
    // Half the Barrett powm's transform: M/8 threads, M = 2^11 at 64 Kbit.
    EXPECT_EQ(kernels::threads_per_instance(*v, 65536), 256u);
    EXPECT_EQ(kernels::threads_per_instance(*v, 32768), 128u);
    EXPECT_EQ(kernels::threads_per_instance(*v, 64), 32u);
    // 64 Kbit: 2^11 elements of 16 bytes with the pad, the carry words, four rows of 1024 words.
    EXPECT_EQ(kernels::smem_bytes(*v, 65536, 1), (2048u + 256u + 1u) * 16u + (2 * 256 + 2) * 8 + 4 * 1024 * 8);
    EXPECT_LT(2 * (kernels::smem_bytes(*v, 65536, 1) + 2048), 228u * 1024);
  }
  // Sliding windows keep 2^(w-1) odd powers and x^2: sw9 holds 128 more
  // entries (of 1024 words at 64 Kbit) per slot than sw8, not 256.
  const kernels::Variant* sw8 = kernels::find_variant("powm.nttmont.u64.q1.sw8");
  const kernels::Variant* sw9 = kernels::find_variant("powm.nttmont.u64.q1.sw9");
  ASSERT_TRUE(sw8 && sw9);
  EXPECT_EQ(kernels::scratch_bytes(*sw9, 65536, 100) - kernels::scratch_bytes(*sw8, 65536, 100),
            100ull * 128 * 1024 * 8);
}

}  // namespace
}  // namespace bigtune
