// What the modular GPU differential tests share (mod_vs_gmp, barrett_vs_gmp,
// nttbarrett_vs_gmp, powmregs_vs_gmp): the kinds of moduli, operands and
// exponents issue 9 names, the poisoning of result batches, the comparison
// with GMP (runtime::gmp_reference) that reports the first mismatches, and a
// case runner for tests that list (op, size, modulus kind, exponent kind,
// variant) cases.
#pragma once
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/gmp_reference.hpp"
#include "tests/support/operands.hpp"

namespace bigtune::test {

// Modulus of kind k % 10: 1, 2^(b-1), 2^(b-1) + 1, 2^b - 1, even of full
// size, odd of full size, small (1 + k % 100 bits), runs of ones and zeros,
// 2, half size. Below 2^bits and never 0 (outside the API's contract).
inline void make_modulus_of_kind(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint64_t kind) {
  switch (kind % 10) {
    case 0: mpz_set_ui(m, 1); break;
    case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1); break;
    case 2: mpz_set_ui(m, 0), mpz_setbit(m, bits - 1), mpz_add_ui(m, m, 1); break;
    case 3: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;
    case 4: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_clrbit(m, 0); break;
    case 5: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
    case 6: mpz_urandomb(m, rng, 1 + kind % 100); break;
    case 7: mpz_rrandomb(m, rng, bits); break;
    case 8: mpz_set_ui(m, 2); break;
    default: mpz_urandomb(m, rng, bits / 2 + 1); break;
  }
  mpz_tdiv_r_2exp(m, m, bits);
  if (mpz_sgn(m) == 0) mpz_set_ui(m, 1);
}

// Operand of kind k % 5 for the modulus m: m - 1 (the largest reduced one),
// reduced, all ones (>= m), runs (often >= m), uniform below 2^bits.
inline void make_mod_operand(mpz_t a, gmp_randstate_t rng, uint64_t bits, const mpz_t m, uint64_t kind) {
  switch (kind % 5) {
    case 0: mpz_sub_ui(a, m, 1); break;
    case 1: mpz_urandomm(a, rng, m); break;
    case 2: mpz_set_ui(a, 0), mpz_setbit(a, bits), mpz_sub_ui(a, a, 1); break;
    case 3: mpz_rrandomb(a, rng, bits); break;
    default: mpz_urandomb(a, rng, bits); break;
  }
}

// Exponent of kind k % 6: 0, 1, 65537, all ones of ebits, full length,
// about half length (shorter than the batch's).
inline void make_exponent_of_kind(mpz_t e, gmp_randstate_t rng, uint64_t ebits, uint64_t kind) {
  switch (kind % 6) {
    case 0: mpz_set_ui(e, 0); break;
    case 1: mpz_set_ui(e, 1); break;
    case 2: mpz_set_ui(e, 65537); break;
    case 3: mpz_set_ui(e, 0), mpz_setbit(e, ebits), mpz_sub_ui(e, e, 1); break;
    case 4: mpz_urandomb(e, rng, ebits), mpz_setbit(e, ebits - 1); break;
    default: mpz_urandomb(e, rng, ebits / 2 + 1); break;
  }
  mpz_tdiv_r_2exp(e, e, ebits);
}

// Fills a result batch with a pattern, so that a word the kernel does not
// write cannot pass. The copy runs on the legacy stream, which the Context's
// stream does not wait for: finished here before the launch.
inline void poison(Batch& b) {
  std::vector<uint64_t> p(b.words_per_instance() * b.count(), 0xdeadbeefdeadbeefull);
  ASSERT_EQ(cudaMemcpy(b.device_data(), p.data(), p.size() * 8, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Results r[i] against GMP's op on a[i], b[i % b.size()] (none where b is
// empty) and m[i % m.size()]; with flags (modinv: "no inverse"), the flags
// too. Reports the first three mismatches under `label`; returns the count.
inline uint64_t count_mod_mismatches(Op op, uint64_t bits, uint64_t r_bits, const std::vector<mpz_t>& a,
                                     const std::vector<mpz_t>& b, const std::vector<mpz_t>& m,
                                     const std::vector<mpz_t>& r, const std::string& label,
                                     const std::vector<int32_t>* flags = nullptr) {
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (size_t i = 0; i < r.size(); ++i) {
    runtime::RefOperands in;
    in.a = a[i];
    if (!b.empty()) in.b = b[i % b.size()];
    if (!m.empty()) in.m = m[i % m.size()];
    int want_flag = 0;
    runtime::gmp_reference(op, bits, r_bits, in, want, nullptr, &want_flag);
    const bool flag_ok = !flags || (*flags)[i] == want_flag;
    if ((mpz_cmp(want, r[i]) || !flag_ok) && ++bad <= 3) {
      std::string got = "\n  got  = " + hex(r[i]);
      if (flags) got += " flag " + std::to_string((*flags)[i]) + " (want " + std::to_string(want_flag) + ")";
      ADD_FAILURE() << op_name(op) << " " << label << " bits " << bits << " instance " << i << " of " << r.size()
                    << "\n  a    = " << hex(a[i]) << (b.empty() ? "" : "\n  b/e  = " + hex(b[i % b.size()]))
                    << (m.empty() ? "" : "\n  m    = " + hex(m[i % m.size()])) << "\n  want = " << hex(want) << got;
    }
  }
  mpz_clear(want);
  return bad;
}

// A vector of count initialised mpz_t, cleared with it.
struct MpzVector {
  std::vector<mpz_t> v;
  explicit MpzVector(size_t count) : v(count) {
    for (auto& x : v) mpz_init(x);
  }
  ~MpzVector() {
    for (auto& x : v) mpz_clear(x);
  }
  MpzVector(const MpzVector&) = delete;
  MpzVector& operator=(const MpzVector&) = delete;
};

// One case of a listed modular test: mulmod / sqrmod / powm on `count`
// instances of `bits`, moduli per instance (m_kind -1: kinds 0, 1, ...) or
// one shared of kind m_kind; powm's exponents of ebits, per instance (e_kind
// -1: kinds 0, 1, ...) or one shared of kind e_kind; variant null: the default
// plan. Operands of every kind (often >= m: reduced, as documented).
struct ModCase {
  Op op;
  uint64_t bits, count;
  int64_t m_kind;
  uint64_t ebits = 0;
  int64_t e_kind = -1;
  const char* variant = nullptr;
};

// Returns mismatches.
inline uint64_t run_mod_case(Context& ctx, const ModCase& c, gmp_randstate_t rng) {
  const bool powm = c.op == Op::PowM;
  const uint64_t count = c.count, mc = c.m_kind < 0 ? count : 1;
  const uint64_t bc = c.op == Op::SqrMod ? 0 : powm && c.e_kind >= 0 ? 1 : count;
  MpzVector a(count), b(bc), m(mc), r(count);
  for (uint64_t i = 0; i < mc; ++i) make_modulus_of_kind(m.v[i], rng, c.bits, c.m_kind < 0 ? i : uint64_t(c.m_kind));
  for (uint64_t i = 0; i < bc; ++i) {
    if (powm) make_exponent_of_kind(b.v[i], rng, c.ebits, c.e_kind < 0 ? i : uint64_t(c.e_kind));
    else make_mod_operand(b.v[i], rng, c.bits, m.v[i % mc], i / 5 + 1);
  }
  for (uint64_t i = 0; i < count; ++i) make_mod_operand(a.v[i], rng, c.bits, m.v[i % mc], i / 2 + i);
  Batch da(ctx, c.bits, count), db(ctx, powm ? c.ebits : c.bits, bc ? bc : 1), dm(ctx, c.bits, mc),
      dr(ctx, c.bits, count);
  da.from_mpz(a.v.data(), count);
  if (bc) db.from_mpz(b.v.data(), bc);
  dm.from_mpz(m.v.data(), mc);
  poison(dr);
  const Plan plan{c.variant ? c.variant : "", 1, "explicit", 0.0};
  const Plan* p = c.variant ? &plan : nullptr;
  switch (c.op) {
    case Op::MulMod: ctx.mulmod(dr, da, db, dm, p); break;
    case Op::SqrMod: ctx.sqrmod(dr, da, dm, p); break;
    default: ctx.powm(dr, da, db, dm, p); break;
  }
  ctx.synchronize();
  dr.to_mpz(r.v.data(), count);
  const std::string label = std::string(c.variant ? c.variant : "(default)") + " m_kind " +
                            std::to_string(c.m_kind) + (powm ? " e_kind " + std::to_string(c.e_kind) : "");
  return count_mod_mismatches(c.op, c.bits, c.bits, a.v, b.v, m.v, r.v, label);
}

// Runs the cases on one Context and generator seeded test_seed() + seed;
// prints "[ what ] cases, instances, mismatches" and returns the mismatches.
inline uint64_t run_mod_cases(const std::vector<ModCase>& cases, uint64_t seed, const std::string& what) {
  Context ctx;
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test_seed() + seed);
  uint64_t bad = 0, instances = 0;
  for (const ModCase& c : cases) bad += run_mod_case(ctx, c, rng), instances += c.count;
  gmp_randclear(rng);
  std::printf("[ %s ] %zu cases, %llu instances, %llu mismatches\n", what.c_str(), cases.size(),
              (unsigned long long)instances, (unsigned long long)bad);
  return bad;
}

}  // namespace bigtune::test
