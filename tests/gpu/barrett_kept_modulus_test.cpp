// The kept Barrett constants of a shared modulus (kernels/variants/
// barrett_kept_modulus.hpp) on the GPU against GMP: the tensor-core mulmod
// and sqrmod called again and again on one Context while the modulus stays,
// changes in place (new words at the same device address), changes length
// (s > 0, operands >= m reduced first) and comes back; a second Context
// interleaved with its own modulus; another operand size on the same stream.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/gpu/mod_check.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

struct Operands {
  std::vector<mpz_t> a, b, r;
  explicit Operands(size_t n) : a(n), b(n), r(n) {
    for (size_t i = 0; i < n; ++i) mpz_inits(a[i], b[i], r[i], nullptr);
  }
  ~Operands() {
    for (size_t i = 0; i < a.size(); ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  }
};

// One Context's batches at one size, its modulus rewritten only when asked.
struct Side {
  Context& ctx;
  uint64_t bits, count;
  Batch a, b, r, m;
  mpz_t mod;
  Operands ops;
  Side(Context& c, uint64_t bits_, uint64_t count_)
      : ctx(c), bits(bits_), count(count_), a(c, bits_, count_), b(c, bits_, count_), r(c, bits_, count_),
        m(c, bits_, 1), ops(count_) {
    mpz_init(mod);
  }
  ~Side() { mpz_clear(mod); }
  void set_modulus(gmp_randstate_t rng, uint64_t kind) {
    test::make_modulus_of_kind(mod, rng, bits, kind);
    m.from_mpz(&mod, 1);
  }
  // mulmod (sqrmod: square) on fresh operands of every kind; mismatches.
  uint64_t run(gmp_randstate_t rng, bool square, const char* what) {
    for (uint64_t i = 0; i < count; ++i) {
      test::make_mod_operand(ops.a[i], rng, bits, mod, i);
      test::make_mod_operand(ops.b[i], rng, bits, mod, i + 2);
    }
    a.from_mpz(ops.a.data(), count);
    b.from_mpz(ops.b.data(), count);
    const Plan plan{square ? "sqrmod.tcbarrett.u64.q1" : "mulmod.tcbarrett.u64.q1", 1, "explicit", 0.0};
    if (square)
      ctx.sqrmod(r, a, m, &plan);
    else
      ctx.mulmod(r, a, b, m, &plan);
    r.to_mpz(ops.r.data(), count);
    uint64_t bad = 0;
    mpz_t want;
    mpz_init(want);
    for (uint64_t i = 0; i < count; ++i) {
      mpz_mul(want, ops.a[i], square ? ops.a[i] : ops.b[i]);
      mpz_mod(want, want, mod);
      if (mpz_cmp(want, ops.r[i]) != 0 && bad++ < 3)
        ADD_FAILURE() << what << ": " << (square ? "sqrmod" : "mulmod") << " at " << bits << " bits, instance " << i
                      << "\n  m    = " << test::hex(mod) << "\n  got  = " << test::hex(ops.r[i])
                      << "\n  want = " << test::hex(want);
    }
    mpz_clear(want);
    return bad;
  }
};

TEST(KeptModulus, CallAfterCallMatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 9300);
  Context ctx, other;
  uint64_t bad = 0, calls = 0;
  for (uint64_t bits : {2048ull, 4097ull, 8192ull}) {
    Side s(ctx, bits, 97), o(other, bits, 45);
    o.set_modulus(rng, 5);
    // (modulus kind, rewrite it first?): a full odd one, the same again,
    // sqrmod on it, another full one in the same words, a short one (s > 0,
    // operands >= m), the same again, m = 1, a full even one.
    const struct { uint64_t kind; bool rewrite; bool square; } steps[] = {
        {5, true, false}, {5, false, false}, {5, false, true}, {5, true, false}, {9, true, false},
        {9, false, true}, {0, true, false},  {4, true, false}, {4, false, false}};
    for (const auto& step : steps) {
      if (step.rewrite) s.set_modulus(rng, step.kind);
      bad += s.run(rng, step.square, "main context");
      bad += o.run(rng, false, "second context");  // its own stream, region and modulus
      calls += 2;
    }
  }
  gmp_randclear(rng);
  std::printf("[ kept modulus ] %llu calls, %llu mismatches\n", (unsigned long long)calls, (unsigned long long)bad);
  EXPECT_EQ(bad, 0u);
}

}  // namespace
}  // namespace bigtune
