// Block division (divmod.shinv, seed 001) and the fused ops (mul_add, poly,
// seed 000 §6) against GMP: random and run-of-ones operands at odd and
// power-of-two sizes up to the variant's limit (BIGTUNE_TEST_MAX_BITS caps them
// for sanitizer runs), divisors of every length class (1 limb, n/2, n − 1 bits,
// n), the edge divisors u < v, u = v, v = 1, v = 2^k, v = 2^bits − 1, v = 0
// (with Flags: q = r = 0 and the mark; without: ErrorCode::DivisionByZero),
// outputs poisoned first, and sizes just past the limit (Unsupported).
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"
#include "tests/gpu/device_limits.hpp"
#include "tests/gpu/gpu_available.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

void poison(Batch& b) {
  std::vector<uint64_t> p(b.words_per_instance() * b.count(), 0xdeadbeefdeadbeefull);
  cudaMemcpy(b.device_data(), p.data(), p.size() * 8, cudaMemcpyHostToDevice);
}

// Divisor of instance i: cycles through the edge classes.
void make_divisor(mpz_t v, const mpz_t u, gmp_randstate_t rng, uint64_t vbits, uint64_t i) {
  switch (i % 10) {
    case 0: mpz_urandomb(v, rng, vbits); break;
    case 1: mpz_rrandomb(v, rng, vbits); break;
    case 2: mpz_set_ui(v, 1); break;                                            // v = 1
    case 3: mpz_set_ui(v, 0); mpz_setbit(v, gmp_urandomm_ui(rng, vbits)); break;  // v = 2^k
    case 4: mpz_set_ui(v, 0); mpz_setbit(v, vbits); mpz_sub_ui(v, v, 1); break;  // 2^bits − 1
    case 5: mpz_set_ui(v, 0); break;                                            // zero divisor
    case 6:                                                                     // u = v where it fits
      if (mpz_sizeinbase(u, 2) <= vbits) mpz_set(v, u); else mpz_urandomb(v, rng, vbits);
      break;
    case 7:  // one limb
      if (vbits >= 64) mpz_set_ui(v, 1 + gmp_urandomm_ui(rng, ~0ul)); else mpz_urandomb(v, rng, vbits);
      break;
    default: mpz_urandomb(v, rng, vbits); mpz_setbit(v, vbits - 1); break;
  }
}

// One divmod batch; returns mismatches.
uint64_t run_divmod(Context& ctx, const kernels::Variant& var, uint64_t ubits, uint64_t vbits, uint32_t ipb,
                    uint64_t count, gmp_randstate_t rng) {
  std::vector<mpz_t> u(count), v(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(u[i], v[i], nullptr);
    if (i % 3 == 1) mpz_rrandomb(u[i], rng, ubits); else mpz_urandomb(u[i], rng, ubits);
    if (i % 10 == 9) mpz_set_ui(u[i], 0), mpz_setbit(u[i], ubits), mpz_sub_ui(u[i], u[i], 1);  // all ones
    make_divisor(v[i], u[i], rng, vbits, i);
    if (i % 13 == 11 && vbits == ubits) {  // u < v
      mpz_urandomb(v[i], rng, vbits);
      mpz_setbit(v[i], vbits - 1);
      mpz_tdiv_q_2exp(u[i], v[i], 1);
    }
  }
  Batch du(ctx, ubits, count), dv(ctx, vbits, count), dq(ctx, ubits, count), dr(ctx, vbits, count);
  du.from_mpz(u.data(), count);
  dv.from_mpz(v.data(), count);
  poison(dq);
  poison(dr);
  Flags zero(ctx, count);
  cudaMemset(zero.device_data(), 0x5a, count * 4);
  const Plan plan{var.name, ipb, "explicit", 0.0};
  ctx.divmod(dq, dr, du, dv, &zero, &plan);
  ctx.synchronize();
  const std::vector<uint64_t> qw = dq.download(), rw = dr.download();
  const std::vector<int32_t> f = zero.download();
  uint64_t bad = 0;
  mpz_t q, r, wq, wr;
  mpz_inits(q, r, wq, wr, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_import(q, dq.words_per_instance(), -1, 8, 0, 0, qw.data() + i * dq.words_per_instance());
    mpz_import(r, dr.words_per_instance(), -1, 8, 0, 0, rw.data() + i * dr.words_per_instance());
    int want_flag = 0;
    if (mpz_sgn(v[i]) == 0) {
      mpz_set_ui(wq, 0);
      mpz_set_ui(wr, 0);
      want_flag = 1;
    } else {
      mpz_tdiv_qr(wq, wr, u[i], v[i]);
    }
    const bool ok = mpz_cmp(q, wq) == 0 && mpz_cmp(r, wr) == 0 && f[i] == want_flag;
    if (!ok && ++bad <= 3)
      ADD_FAILURE() << "divmod " << var.name << " ipb " << ipb << " u bits " << ubits << " v bits " << vbits
                    << " instance " << i << " of " << count << "\n  u = " << test::hex(u[i])
                    << "\n  v = " << test::hex(v[i]) << "\n  q = " << test::hex(q) << " want " << test::hex(wq)
                    << "\n  r = " << test::hex(r) << " want " << test::hex(wr) << "\n  flag " << f[i] << " want "
                    << want_flag;
  }
  mpz_clears(q, r, wq, wr, nullptr);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(u[i], v[i], nullptr);
  return bad;
}

const kernels::DeviceLimits& limits() {
  static const kernels::DeviceLimits l = test::device_limits();
  return l;
}

TEST(DivVsGmp, EveryDivisorClassAndSize) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 300);
  uint64_t cases = 0, bad = 0;
  for (const kernels::Variant& var : kernels::registry()) {
    if (var.op != kernels::Op::DivMod) continue;
    const uint64_t limit = kernels::max_operand_bits(var, limits());
    const uint64_t top = std::min(limit, test::max_bits_cap());
    std::vector<uint64_t> sizes;
    for (uint64_t b : {64ull, 65ull, 128ull, 255ull, 521ull, 1000ull, 1024ull, 3072ull, 4097ull, 8192ull, 12345ull,
                       32768ull, 65536ull, 100003ull, 131072ull, 262144ull})
      if (b <= top) sizes.push_back(b);
    if (top == limit) sizes.push_back(limit);  // exactly at the limit
    for (uint64_t ub : sizes) {
      std::vector<uint64_t> vbs{ub, (ub + 1) / 2, std::min<uint64_t>(ub, 64), std::max<uint64_t>(1, ub - 1)};
      if (ub > 130) vbs.push_back(65);
      std::sort(vbs.begin(), vbs.end());
      vbs.erase(std::unique(vbs.begin(), vbs.end()), vbs.end());
      for (uint64_t vb : vbs) {
        for (uint32_t ipb : {1u, 2u}) {
          if (!kernels::why_invalid(var, ub, 1, ipb, limits()).empty()) continue;
          if (ipb == 2 && ub > 8192) continue;
          const uint64_t count = ub >= 1000000 ? 3 : ub >= 131072 ? 11 : ub >= 8192 ? 23 : 41;
          bad += run_divmod(ctx, var, ub, vb, ipb, count, rng);
          ++cases;
        }
      }
    }
    // Just past the limit: Unsupported, never a wrong result.
    const uint64_t past = limit + 64;
    Batch u(ctx, past, 1), v(ctx, past / 2, 1), q(ctx, past, 1), r(ctx, past / 2, 1);
    Flags f(ctx, 1);
    const Plan plan{var.name, 1, "explicit", 0.0};
    try {
      ctx.divmod(q, r, u, v, &f, &plan);
      ADD_FAILURE() << var.name << " accepted " << past << " bits, past its limit " << limit;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported) << e.what();
    }
  }
  gmp_randclear(rng);
  std::printf("[ divmod ] %llu cases, %llu mismatches\n", (unsigned long long)cases, (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

TEST(DivVsGmp, ZeroDivisorWithoutFlagsRaises) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  const uint64_t bits = 4096;
  std::vector<mpz_t> u(3), v(3);
  for (int i = 0; i < 3; ++i) {
    mpz_inits(u[i], v[i], nullptr);
    mpz_set_ui(u[i], 12345 + i);
    mpz_set_ui(v[i], i == 1 ? 0 : 7);
  }
  Batch du(ctx, bits, 3), dv(ctx, bits / 2, 3), dq(ctx, bits, 3), dr(ctx, bits / 2, 3);
  du.from_mpz(u.data(), 3);
  dv.from_mpz(v.data(), 3);
  try {
    ctx.divmod(dq, dr, du, dv);
    ADD_FAILURE() << "a zero divisor without Flags did not raise";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DivisionByZero) << e.what();
  }
  for (int i = 0; i < 3; ++i) mpz_clears(u[i], v[i], nullptr);
}

// mul_add and poly through run_op's layout, plus a narrower result (reduced
// modulo 2^r_bits); GMP's reference through gmp_reference.
uint64_t run_fused(Context& ctx, Op op, const kernels::Variant& var, uint64_t bits, uint64_t r_bits, uint64_t count,
                   gmp_randstate_t rng) {
  const runtime::OpLayout l = runtime::op_layout(op, bits);
  std::vector<mpz_t> a(count), b(count), c(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], c[i], nullptr);
    test::make_pair(a[i], b[i], rng, bits, i);
    if (l.c_bits) {
      if (i % 4 == 3) mpz_set_ui(c[i], 0), mpz_setbit(c[i], l.c_bits), mpz_sub_ui(c[i], c[i], 1);
      else mpz_urandomb(c[i], rng, l.c_bits);
    }
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, r_bits, count);
  Batch dc(ctx, l.c_bits ? std::min(l.c_bits, r_bits) : 1, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  if (l.c_bits) {
    for (uint64_t i = 0; i < count; ++i) mpz_fdiv_r_2exp(c[i], c[i], std::min(l.c_bits, r_bits));
    dc.from_mpz(c.data(), count);
  }
  poison(dr);
  const Plan plan{var.name, 1, "explicit", 0.0};
  runtime::OpBatches x;
  x.r = &dr;
  x.a = &da;
  x.b = &db;
  if (l.c_bits) x.c = &dc;
  runtime::run_op(ctx, op, x, &plan);
  ctx.synchronize();
  const std::vector<uint64_t> rw = dr.download();
  uint64_t bad = 0;
  mpz_t got, want;
  mpz_inits(got, want, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_import(got, dr.words_per_instance(), -1, 8, 0, 0, rw.data() + i * dr.words_per_instance());
    runtime::RefOperands in;
    in.a = a[i];
    in.b = b[i];
    in.c = l.c_bits ? c[i] : nullptr;
    int flag = 0;
    runtime::gmp_reference(op, bits, r_bits, in, want, nullptr, &flag);
    if (mpz_cmp(got, want) != 0 && ++bad <= 3)
      ADD_FAILURE() << op_name(op) << " " << var.name << " bits " << bits << " r_bits " << r_bits << " instance "
                    << i << "\n  a = " << test::hex(a[i]) << "\n  b = " << test::hex(b[i])
                    << "\n  got  " << test::hex(got) << "\n  want " << test::hex(want);
  }
  mpz_clears(got, want, nullptr);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], c[i], nullptr);
  return bad;
}

class FusedVsGmp : public ::testing::TestWithParam<Op> {};

TEST_P(FusedVsGmp, MatchesGmp) {
  BIGTUNE_REQUIRE_GPU();
  const Op op = GetParam();
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + 400 + int(op));
  uint64_t cases = 0, bad = 0;
  for (const kernels::Variant& var : kernels::registry()) {
    if (var.op != runtime::to_kernel_op(op)) continue;
    for (uint64_t bits : {1ull, 64ull, 65ull, 255ull, 521ull, 1000ull, 3072ull, 4097ull, 12345ull, 32768ull,
                          65536ull, 131072ull}) {
      if (bits > test::max_bits_cap()) continue;
      if (!kernels::why_invalid(var, bits, 1, 1, limits()).empty()) continue;
      const runtime::OpLayout l = runtime::op_layout(op, bits);
      const uint64_t count = bits >= 65536 ? 7 : bits >= 8192 ? 17 : 37;
      for (uint64_t rb : {l.r_bits, bits + 13}) {
        bad += run_fused(ctx, op, var, bits, rb, count, rng);
        ++cases;
      }
    }
  }
  gmp_randclear(rng);
  std::printf("[ %s ] %llu cases, %llu mismatches\n", op_name(op), (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_GT(cases, 0u);
  EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(Fused, FusedVsGmp, ::testing::Values(Op::MulAdd, Op::Poly),
                         [](const ::testing::TestParamInfo<Op>& info) { return std::string(op_name(info.param)); });

}  // namespace
}  // namespace bigtune
