// Shared by the CPU tests of divmod.newtonc (tests/unit/div_newtonc_*_test.cpp):
// one batch through newtonc_run on a host backend (passes and products on the
// CPU), the handed-back instances divided by the DivShinv algorithm (what the
// GPU fallback runs), every answer checked against GMP's mpz_tdiv_qr.
#pragma once
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/block/div_newtonc.hpp"
#include "kernels/block/div_shinv.hpp"
#include "tests/reference/host_limb_ops.hpp"
#include "tests/support/operands.hpp"

namespace bigtune::test::newtonc {

using kernels::block::NewtoncArgs;
using kernels::block::NewtoncPhase;
using Limb = uint64_t;
using kernels::block::NewtoncArgs;
using kernels::block::NewtoncPhase;

struct MapOps : HostLimbOps {
  template <class F>
  void map(Limb* r, uint32_t n, F f) {
    for (uint32_t j = 0; j < n; ++j) r[j] = f(j);
  }
};

// Passes on `Ops` (one instance after another), products schoolbook.
template <class Ops = MapOps>
struct HostBackend {
  Ops ops;
  HostLimbOps mul_ops;
  std::vector<uint64_t> fallback;  // instances QFix handed back
  void pass(NewtoncPhase ph, const NewtoncArgs& a) {
    for (uint64_t i = 0; i < a.count; ++i)
      if (!kernels::block::newtonc_pass(ops, ph, a, i)) fallback.push_back(i);
  }
  void product(uint32_t p, const Limb* pa, const Limb* pb, Limb* pr, const NewtoncArgs&, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) mul_ops.mul(pr + i * 2 * p, pa + i * p, p, pb + i * p, p);
  }
};

inline std::vector<Limb> words(const mpz_t x, uint32_t n) {
  std::vector<Limb> w(n, 0);
  size_t got = 0;
  if (mpz_sgn(x)) mpz_export(w.data(), &got, -1, 8, 0, 0, x);
  EXPECT_LE(got, n);
  return w;
}
inline void from_words(mpz_t x, const Limb* w, uint32_t n) { mpz_import(x, n, -1, 8, 0, 0, w); }

struct BatchResult {
  uint64_t cases = 0, bad = 0, fallback = 0;
};

// Divides the batch (u[i], v[i]) of m- and n-limb operands; counts mismatches
// against GMP and the instances the fast path handed back.
// fused: the fused schedule (NewtoncArgs::fused). Backend: HostBackend's
// contract (pass, product, fallback).
template <class Backend = HostBackend<>>
BatchResult run_batch(const std::vector<mpz_t*>& us, const std::vector<mpz_t*>& vs, uint32_t m, uint32_t n,
                      bool fused = false) {
  const uint64_t count = us.size();
  const auto l = kernels::block::newtonc_layout(m, m, count, 0, 0);
  const Limb guard = 0x5a5a5a5a5a5a5a5aull;
  std::vector<Limb> scratch(l.total + 8, guard);
  std::vector<Limb> u(count * m), v(count * n), q(count * m, guard), r(count * n, guard);
  for (uint64_t i = 0; i < count; ++i) {
    const auto uw = words(*us[i], m), vw = words(*vs[i], n);
    std::copy(uw.begin(), uw.end(), u.begin() + i * m);
    std::copy(vw.begin(), vw.end(), v.begin() + i * n);
  }
  Limb* s = scratch.data();
  NewtoncArgs a{};
  a.u = u.data();
  a.v = v.data();
  a.qo = q.data();
  a.ro = r.data();
  a.m = m;
  a.n = n;
  a.qn = m;
  a.rn = n;
  a.count = count;
  a.fast_ok = m <= 2 * n;
  a.fused = fused ? 1 : 0;
  kernels::block::newtonc_bind_scratch(a, s, l);
  Backend be;
  kernels::block::newtonc_run(be, a);
  BatchResult res;
  res.fallback = be.fallback.size();
  // The fallback: the block division's algorithm on the handed-back instances.
  std::vector<Limb> ws(kernels::block::div_shinv_workspace_limbs(m, n));
  std::vector<uint8_t> zero(count, 0);
  for (uint64_t i : be.fallback) {
    kernels::block::DivShinv<HostLimbOps> div(be.mul_ops, ws.data(), m, n);
    zero[i] = div.divmod(q.data() + i * m, m, r.data() + i * n, n, u.data() + i * m, v.data() + i * n);
  }
  for (size_t i = l.total; i < scratch.size(); ++i) EXPECT_EQ(scratch[i], guard) << "scratch overrun";
  mpz_t wq, wr, gq, gr;
  mpz_inits(wq, wr, gq, gr, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    ++res.cases;
    from_words(gq, q.data() + i * m, m);
    from_words(gr, r.data() + i * n, n);
    bool ok;
    if (mpz_sgn(*vs[i]) == 0) {
      ok = zero[i] && mpz_sgn(gq) == 0 && mpz_sgn(gr) == 0;
    } else {
      mpz_tdiv_qr(wq, wr, *us[i], *vs[i]);
      ok = !zero[i] && mpz_cmp(wq, gq) == 0 && mpz_cmp(wr, gr) == 0;
    }
    if (!ok) {
      ++res.bad;
      if (res.bad <= 3)
        ADD_FAILURE() << "newtonc" << (fused ? " fused" : "") << " m=" << m << " n=" << n << "\n u=" << hex(*us[i]) << "\n v=" << hex(*vs[i])
                      << "\n q=" << hex(gq) << " want " << hex(wq) << "\n r=" << hex(gr)
                      << " want " << hex(wr);
    }
  }
  mpz_clears(wq, wr, gq, gr, nullptr);
  return res;
}

struct Operands {
  std::vector<mpz_t> u, v;
  explicit Operands(size_t k) : u(k), v(k) {
    for (size_t i = 0; i < k; ++i) mpz_inits(u[i], v[i], nullptr);
  }
  ~Operands() {
    for (size_t i = 0; i < u.size(); ++i) mpz_clears(u[i], v[i], nullptr);
  }
  std::vector<mpz_t*> us() {
    std::vector<mpz_t*> r;
    for (auto& x : u) r.push_back(&x);
    return r;
  }
  std::vector<mpz_t*> vs() {
    std::vector<mpz_t*> r;
    for (auto& x : v) r.push_back(&x);
    return r;
  }
};

}  // namespace bigtune::test::newtonc
