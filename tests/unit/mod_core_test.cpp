// The thread-level modular core (kernels/modular/*.cuh) compiled for the host
// and checked against GMP: the very functions the GPU kernels call, so the
// algorithms (CIOS, windows, CRT for even moduli, inverse, gcd, sqrt) are
// tested on every CPU build. The GPU tests (tests/gpu/mod_vs_gmp_test.cpp)
// check the kernels and the host API on top.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/modular/barrett_thread.cuh"
#include "kernels/modular/gcd_inv_sqrt.cuh"
#include "bigtune/bigtune.h"
#include "kernels/registry.hpp"
#include "kernels/variants/mod_fallback.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

using kernels::modular::u32;

template <int N>
std::vector<u32> to_limbs(const mpz_t v) {
  std::vector<u32> w(N, 0);
  size_t n = 0;
  mpz_export(w.data(), &n, -1, 4, 0, 0, v);
  EXPECT_LE(n, size_t(N));
  return w;
}

template <int N>
void from_limbs(mpz_t v, const u32* w) {
  mpz_import(v, N, -1, 4, 0, 0, w);
}

struct Rng {
  gmp_randstate_t s;
  explicit Rng(uint64_t seed) {
    gmp_randinit_default(s);
    gmp_randseed_ui(s, seed);
  }
  ~Rng() { gmp_randclear(s); }
};

// Moduli of every kind the brief names: random odd and even, 1, 2, 2^k +- 1,
// all ones, high bit only, small.
void make_modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, int i) {
  switch (i % 10) {
    case 0: mpz_set_ui(m, 1); return;
    case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); return;  // 2^(b-1) + 1
    case 2: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); return;  // 2^b - 1
    case 3: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1); return;  // 2^(b-1)
    case 4: mpz_set_ui(m, 2); return;
    case 5: mpz_urandomb(m, rng, bits), mpz_setbit(m, 0); return;                       // odd
    case 6: mpz_urandomb(m, rng, bits), mpz_mul_2exp(m, m, i % 7), mpz_tdiv_r_2exp(m, m, bits); break;  // even
    case 7: mpz_rrandomb(m, rng, bits); break;
    case 8: mpz_urandomb(m, rng, 1 + (i % 40)); break;
    default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); return;
  }
  if (mpz_sgn(m) == 0) mpz_set_ui(m, 3);
}

template <int N>
void check_modular(uint64_t bits, int cases) {
  Rng rng(test::test_seed() + bits);
  mpz_t a, b, m, e, want, got;
  mpz_inits(a, b, m, e, want, got, nullptr);
  int bad = 0;
  for (int i = 0; i < cases && bad < 5; ++i) {
    make_modulus(m, rng.s, bits, i);
    test::make_pair(a, b, rng.s, bits, i);  // not reduced: a, b may be >= m
    const auto ma = to_limbs<N>(a), mb = to_limbs<N>(b), mm = to_limbs<N>(m);
    std::vector<u32> r(N);
    // mulmod
    kernels::modular::mulmod_any<N>(r.data(), ma.data(), mb.data(), mm.data());
    mpz_mul(want, a, b);
    mpz_mod(want, want, m);
    from_limbs<N>(got, r.data());
    if (mpz_cmp(want, got) && ++bad)
      ADD_FAILURE() << "mulmod bits " << bits << " case " << i << "\n a=" << test::hex(a) << "\n b=" << test::hex(b)
                    << "\n m=" << test::hex(m) << "\n want " << test::hex(want) << "\n got  " << test::hex(got);
    // powm: exponents of several lengths, 0, 1, 65537
    switch (i % 5) {
      case 0: mpz_set_ui(e, 0); break;
      case 1: mpz_set_ui(e, 1); break;
      case 2: mpz_set_ui(e, 65537); break;
      default: mpz_urandomb(e, rng.s, bits); break;
    }
    const auto me = to_limbs<N>(e);
    mpz_powm(want, a, e, m);
    for (int w = 1; w <= 5; ++w)
      for (bool sliding : {false, true}) {
        if (!sliding && w > 4) continue;
        kernels::modular::powm_any<N>(r.data(), ma.data(), me.data(), N, mm.data(), w, sliding);
        from_limbs<N>(got, r.data());
        if (mpz_cmp(want, got) && ++bad)
          ADD_FAILURE() << "powm w" << w << (sliding ? " sliding" : " fixed") << " bits " << bits << " case " << i
                        << "\n x=" << test::hex(a) << "\n e=" << test::hex(e) << "\n m=" << test::hex(m)
                        << "\n want " << test::hex(want) << "\n got  " << test::hex(got);
      }
    // modinv
    const bool has = kernels::modular::modinv_any<N>(r.data(), ma.data(), mm.data());
    const int want_has = mpz_invert(want, a, m);
    if (!want_has) mpz_set_ui(want, 0);
    from_limbs<N>(got, r.data());
    if ((mpz_cmp(want, got) || has != (want_has != 0)) && ++bad)
      ADD_FAILURE() << "modinv bits " << bits << " case " << i << "\n a=" << test::hex(a) << "\n m=" << test::hex(m)
                    << "\n want " << test::hex(want) << " " << want_has << "\n got  " << test::hex(got) << " " << has;
    // gcd (b, also with 0) and sqrt
    kernels::modular::gcd_binary<N>(r.data(), ma.data(), mb.data());
    mpz_gcd(want, a, b);
    from_limbs<N>(got, r.data());
    if (mpz_cmp(want, got) && ++bad)
      ADD_FAILURE() << "gcd bits " << bits << "\n a=" << test::hex(a) << "\n b=" << test::hex(b);
    kernels::modular::gcd_binary<N>(r.data(), mm.data(), ma.data());
    mpz_gcd(want, m, a);
    from_limbs<N>(got, r.data());
    if (mpz_cmp(want, got) && ++bad)
      ADD_FAILURE() << "gcd bits " << bits << "\n m=" << test::hex(m) << "\n a=" << test::hex(a);
    kernels::modular::sqrt_floor<N>(r.data(), ma.data());
    mpz_sqrt(want, a);
    from_limbs<N>(got, r.data());
    if (mpz_cmp(want, got) && ++bad) ADD_FAILURE() << "sqrt bits " << bits << "\n a=" << test::hex(a);
  }
  mpz_clears(a, b, m, e, want, got, nullptr);
  EXPECT_EQ(bad, 0);
}

TEST(ModCore, MatchesGmp64Bits) { check_modular<2>(64, 400); }
TEST(ModCore, MatchesGmp65Bits) { check_modular<4>(65, 300); }
TEST(ModCore, MatchesGmp255Bits) { check_modular<8>(255, 200); }
TEST(ModCore, MatchesGmp256Bits) { check_modular<8>(256, 200); }
TEST(ModCore, MatchesGmp521Bits) { check_modular<18>(521, 60); }
TEST(ModCore, MatchesGmp1000Bits) { check_modular<32>(1000, 30); }
TEST(ModCore, MatchesGmp2047Bits) { check_modular<64>(2047, 11); }

// The shared-modulus Barrett mulmod (kernels/modular/barrett_thread.cuh)
// against GMP: moduli with a nonzero top limb (random odd, 2^(32(N-1)) + 1,
// all ones, odd with a run of ones or zeros), operands of every edge kind up
// to all ones (not reduced), m - 1 and m itself; and that other moduli (even,
// a shorter top limb) are refused.
template <int N>
void check_barrett(int count, uint64_t seed) {
  Rng rng(test::test_seed() + seed);
  mpz_t a, b, m, want, got;
  mpz_inits(a, b, m, want, got, nullptr);
  int bad = 0;
  for (int k = 0; k < 12; ++k) {
    const uint64_t bits = 32 * N;
    switch (k % 4) {
      case 0: mpz_urandomb(m, rng.s, bits), mpz_setbit(m, bits - 1 - (k % 31)), mpz_setbit(m, 0); break;
      case 1: mpz_set_ui(m, 0), mpz_setbit(m, 32 * (N - 1)), mpz_add_ui(m, m, 1); break;  // smallest usable
      case 2: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;        // all ones
      default: mpz_rrandomb(m, rng.s, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
    }
    kernels::modular::BarrettShared<N> c;
    const std::vector<u32> vm = to_limbs<N>(m);
    kernels::modular::barrett_setup<N>(c, vm.data());
    EXPECT_TRUE(c.usable) << test::hex(m);
    mpz_set_ui(want, 0);
    mpz_setbit(want, 64 * N);
    mpz_fdiv_q(want, want, m);  // mu = floor(b^2N / m)
    from_limbs<N + 1>(got, c.mu);
    EXPECT_EQ(mpz_cmp(want, got), 0) << "mu of " << test::hex(m);
    for (int i = 0; i < count; ++i) {
      test::make_pair(a, b, rng.s, bits, uint64_t(i));
      mpz_tdiv_r_2exp(a, a, bits);
      mpz_tdiv_r_2exp(b, b, bits);
      if (i % 9 == 4) mpz_sub_ui(a, m, 1);
      if (i % 11 == 5) mpz_set(b, m);
      const std::vector<u32> va = to_limbs<N>(a), vb = to_limbs<N>(b);
      u32 r[N];
      kernels::modular::barrett_mulmod<N>(r, va.data(), vb.data(), vm.data(), c);
      from_limbs<N>(got, r);
      mpz_mul(want, a, b);
      mpz_mod(want, want, m);
      if (mpz_cmp(want, got) && ++bad <= 3)
        ADD_FAILURE() << "barrett N " << N << "\n a=" << test::hex(a) << "\n b=" << test::hex(b)
                      << "\n m=" << test::hex(m) << "\n want " << test::hex(want) << "\n got  " << test::hex(got);
    }
  }
  // Not usable: even, or a zero top limb.
  for (int k = 0; k < 2; ++k) {
    mpz_urandomb(m, rng.s, 32 * N - 32 * k);
    mpz_setbit(m, 32 * N - 32 * k - 1);
    if (k == 0) mpz_clrbit(m, 0); else mpz_setbit(m, 0);
    kernels::modular::BarrettShared<N> c;
    kernels::modular::barrett_setup<N>(c, to_limbs<N>(m).data());
    EXPECT_FALSE(c.usable) << test::hex(m);
  }
  mpz_clears(a, b, m, want, got, nullptr);
  EXPECT_EQ(bad, 0);
}

TEST(ModCore, BarrettSharedModulusMatchesGmp) {
  check_barrett<4>(300, 8100);
  check_barrett<8>(300, 8200);
  check_barrett<16>(100, 8300);
}

// The registry offers each thread-level modular op up to its proven size:
// gcd and sqrt 8192 bits, modinv 2048 (registry.cpp), the Montgomery ops 2048
// (warp kernels hold 4 and 8 Kbit: mod_variants.cuh), and says why past it.
TEST(ModRegistry, LimitsAndMessages) {
  const kernels::DeviceLimits h100 = kernels::DeviceLimits::h100();
  for (kernels::Op op : {kernels::Op::MulMod, kernels::Op::SqrMod, kernels::Op::PowM, kernels::Op::Gcd,
                         kernels::Op::ModInv, kernels::Op::Sqrt}) {
    uint64_t largest = 0;
    int n = 0;
    for (const kernels::Variant& v : kernels::registry()) {
      if (v.op != op || std::string(v.family) != "thread") continue;
      ++n;
      const uint64_t limit = kernels::max_operand_bits(v, h100);
      EXPECT_EQ(limit, uint64_t(v.q) * v.limb_bits) << v.name;
      const uint32_t ipb = std::min(128u, v.max_threads);  // the 2048-bit DFMA powm: 64-thread blocks
      EXPECT_TRUE(kernels::why_invalid(v, limit, 1000, ipb, h100).empty()) << v.name;
      const std::string past = kernels::why_invalid(v, limit + 1, 1000, ipb, h100);
      EXPECT_NE(past.find("at most"), std::string::npos) << v.name << ": " << past;
      EXPECT_EQ(kernels::threads_per_instance(v, limit), 1u);
      largest = std::max(largest, limit);
    }
    EXPECT_GT(n, 0) << kernels::op_name(op);
    const bool to_8k = op == kernels::Op::Gcd || op == kernels::Op::Sqrt;
    EXPECT_EQ(largest, to_8k ? 8192u : 2048u) << kernels::op_name(op);
  }
  // powm: fixed and sliding windows for every limb count, window in the name.
  const kernels::Variant* v = kernels::find_variant("powm.fixed.u32.q32.w4");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->param, 4u);
  EXPECT_NE(kernels::find_variant("powm.sliding.u32.q64.w5"), nullptr);
  EXPECT_EQ(kernels::find_variant("powm.sliding.u32.q256.w5"), nullptr);
  // The warp modular kernels hand even moduli to a thread-level kernel of the
  // same limb count (warp_mod_launch.cu): a registered variant up to 64
  // limbs, a kept kernel at 128 and 256 limbs (no variants); at 512 limbs
  // (16 Kbit powm) a call with an even modulus runs the composed Barrett powm.
  for (const kernels::Variant& w : kernels::registry()) {
    if (std::string(w.family) != "warp" ||
        (w.op != kernels::Op::MulMod && w.op != kernels::Op::SqrMod && w.op != kernels::Op::PowM))
      continue;
    const uint32_t limbs = uint32_t(kernels::max_operand_bits(w, h100) / 32);
    // The team DFMA powm (dfma_team_instances.cu): the smallest kept kernel
    // that holds m (128 or 256 limbs), the composed Barrett past 256.
    if (std::string(w.algorithm) == "dfmat") {
      EXPECT_EQ(w.op, kernels::Op::PowM) << w.name;
      if (limbs <= 256)
        EXPECT_NE(kernels::variants::large_even_modulus_kernel(w.op, limbs <= 128 ? 128 : 256), nullptr) << w.name;
      else
        EXPECT_NE(kernels::find_variant("powm.barrett.u64.q1.w6"), nullptr) << w.name;
      continue;
    }
    if (limbs == 512) {  // 16 Kbit, powm only (task powmregs)
      EXPECT_EQ(w.op, kernels::Op::PowM) << w.name;
      EXPECT_NE(kernels::find_variant("powm.barrett.u64.q1.w6"), nullptr) << w.name;
      EXPECT_EQ(kernels::variants::large_even_modulus_kernel(w.op, limbs), nullptr) << w.name;
    } else if (limbs > 64) {
      EXPECT_NE(kernels::variants::large_even_modulus_kernel(w.op, limbs), nullptr) << w.name;
    } else {
      const std::string n = std::to_string(limbs);
      const std::string name = w.op == kernels::Op::PowM ? "powm.fixed.u32.q" + n + ".w4"
                                                         : std::string(kernels::op_name(w.op)) + ".mont.u32.q" + n;
      EXPECT_NE(kernels::find_variant(name), nullptr) << w.name << " needs " << name;
    }
  }
  // The DFMA variants (dfma_mod_instances.cu) hand what they cannot do to
  // registered variants: mulmod / sqrmod to the warp Barrett at 1 Kbit, the
  // even moduli of powm to the thread Montgomery powm of 4 to 32 limbs.
  for (const char* name : {"mulmod.wbarrett.u32.q8.l4", "sqrmod.wbarrett.u32.q8.l4", "powm.fixed.u32.q4.w4",
                           "powm.fixed.u32.q8.w4", "powm.fixed.u32.q16.w4", "powm.fixed.u32.q32.w4"})
    EXPECT_NE(kernels::find_variant(name), nullptr) << name;
  // Every modular op still reaches 8192 bits through some family.
  for (kernels::Op op : {kernels::Op::MulMod, kernels::Op::SqrMod, kernels::Op::PowM, kernels::Op::Gcd, kernels::Op::Sqrt}) {
    uint64_t largest = 0;
    for (const kernels::Variant& w : kernels::registry())
      if (w.op == op) largest = std::max(largest, kernels::max_operand_bits(w, h100));
    EXPECT_GE(largest, 8192u) << kernels::op_name(op);
  }
}

// The C ABI's modular calls refuse missing handles with a message (no device needed).
TEST(ModCAbi, NullHandlesAreInvalidArguments) {
  EXPECT_EQ(bigtune_mulmod(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(bigtune_last_error()).find("NULL"), std::string::npos);
  EXPECT_EQ(bigtune_sqrmod(nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bigtune_powm(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bigtune_gcd(nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bigtune_modinv(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bigtune_sqrt(nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
}

TEST(ModCore, GcdWithZeroAndEqual) {
  constexpr int N = 4;
  u32 a[N] = {5, 0, 0, 7}, z[N] = {0, 0, 0, 0}, r[N];
  kernels::modular::gcd_binary<N>(r, a, z);
  EXPECT_EQ(0, kernels::modular::cmp<N>(r, a));
  kernels::modular::gcd_binary<N>(r, z, a);
  EXPECT_EQ(0, kernels::modular::cmp<N>(r, a));
  kernels::modular::gcd_binary<N>(r, z, z);
  EXPECT_TRUE(kernels::modular::is_zero<N>(r));
  kernels::modular::gcd_binary<N>(r, a, a);
  EXPECT_EQ(0, kernels::modular::cmp<N>(r, a));
}

}  // namespace
}  // namespace bigtune
