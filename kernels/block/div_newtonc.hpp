// Division u / v composed from the library's fast full products (issue 3,
// seed 001 §3.4: "multiplications dispatched by their actual precision"):
// Newton's iteration for the reciprocal of the normalised divisor as a
// sequence of *batched* launches, small per-instance passes (this file) in
// between registered product variants (kernels/variants/div_newtonc_instances.cu).
//
// Every instance of a launch runs the same precisions, so the fast path needs a
// batch-uniform shape: divisor v of n limbs whose top limb is nonzero, dividend
// u of m <= 2n limbs (quotient of at most n + 1 limbs). Anything else (short or
// zero divisors, m > 2n, or an instance the bounded fix-up below cannot finish)
// is marked and divided afterwards by the block shinv kernel (div_shinv.hpp).
//
// Fast path, B = 2^64 (seed 001 §2 notation):
//   V = v 2^s with V[n-1] >= B/2, U = u 2^s (m + 1 limbs).
//   X = B^n + x ~ B^(2n) / V (x: n limbs, the leading 1 implicit, so every
//   product is square with power-of-two sizes where n is one).
//   Newton step p -> q = p + d (d <= p), V_q the top q limbs of V, X_p = B^p + x_p:
//     D   = V_q X_p - B^(q+p)            = V_q B^p + (Vh x_p) B^d + Vl x_p - B^(q+p)
//     X_q = X_p B^d - sign(D) floor(X_p |D| / B^(2p))
//   with Vh, Vl the top p and low d limbs of V_q: three p x p products
//   (Vh x_p, Vl x_p, x_p E_lo, E = |D| / B^p). D is needed only mod B^(q+2):
//   |D| < (delta + 2) B^q for an inverse delta ulps off.
//   Error: delta' <= delta^2 B^(d-p) + 3 (truncations). Steps with d = p - 1
//   keep delta <= ~4; the last kExactSteps steps double exactly (d = p, the
//   products at power-of-two sizes) and square the error: ~2^15 ulps after 3,
//   which the quotient fix-up absorbs in one estimate (measured on the CPU:
//   tests/unit/div_newtonc_algorithm_test.cpp).
//   Quotient: U_1 = floor(U / B^n) (m + 1 - n <= n + 1 limbs),
//     Q' = U_1 + U1hi x + floor(U1lo x / B^n)   (one n x n product),
//     R' = U - Q' V mod B^(n+2)               (one n x n product, Q'lo V),
//   then at most kFixRounds corrections t = |R'| / V estimated from the top
//   limbs (Knuth's qhat with the divisor rounded up) until 0 <= R' < V; r =
//   R' / 2^s. An instance still outside after them goes to the fallback.
//
// The passes are written once against an Ops backend (the div_shinv.hpp
// contract plus map(r, n, f): r[j] = f(j) for j < n, r not read by f), run by
// one CUDA block per instance (block_ops.cuh) or sequentially on the CPU
// (tests), and the driver newtonc_run() issues the same sequence on both.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Steps that double the precision exactly (the costly last ones); the earlier
// ones grow it by p - 1 limbs and keep the error bounded.
constexpr int kNewtoncExactSteps = 3;
constexpr int kNewtoncFixRounds = 6;

enum class NewtoncPhase : uint32_t {
  Prep, StepLoad, StepSum1, StepSum2, StepFinish, QLoad, QComb, QFix,
  // The fused schedule (NewtoncArgs::fused, newtonc_run): per Newton step two
  // passes and two product launches instead of four and three. Vh x_p and
  // Vl x_p are one product launch of 2 count instances (the second half's
  // operands at [count, 2 count)), Sum1 + Sum2 are one pass, and the loads of
  // the next step (or of the quotient) end the previous pass.
  StepSum12, StepFinishNext
};

// Per-instance strides (limbs) of the pass buffers.
BIGTUNE_HD constexpr uint64_t newtonc_t_stride(uint32_t n) { return 4ull * n + 8; }

// Pointers of one launch: the caller's batches and the scratch areas. Plain
// data, passed by value to the pass kernel.
struct NewtoncArgs {
  const uint64_t* u = nullptr;  // m limbs per instance
  const uint64_t* v = nullptr;  // n limbs
  uint64_t* qo = nullptr;       // qn limbs
  uint64_t* ro = nullptr;       // rn limbs
  uint32_t m = 0, n = 0, qn = 0, rn = 0;
  uint64_t count = 0;
  uint32_t fast_ok = 0;        // batch shape allows the fast path (1 <= n, m <= 2n)
  uint64_t* info = nullptr;    // 1 per instance: bit 0 fast path, bit 1 sign of D, bits 8..15 shift s
  uint64_t* V = nullptr;       // n
  uint64_t* U = nullptr;       // m + 1
  uint64_t* X = nullptr;       // n
  uint64_t* T = nullptr;       // newtonc_t_stride(n)
  uint64_t* Q = nullptr;       // n + 2
  uint64_t* R = nullptr;       // n + 2
  uint64_t* PA = nullptr;      // product operand a, p limbs per instance
  uint64_t* PB = nullptr;      // product operand b, p limbs
  uint64_t* PR = nullptr;      // product, 2p limbs
  uint32_t p = 0, q = 0;       // the step's precisions
  uint32_t fused = 0;          // the fused schedule (two passes per step)
  uint32_t q2 = 0;             // fused: the next step's precision after q (0: the quotient follows)
};

// Scratch layout in limbs (each area 32-limb aligned): the info words first
// (they survive into the fallback), then the union of the fast path's buffers
// and the fallback's compacted batches.
struct NewtoncLayout {
  uint64_t info, idx, counter;                             // idx: uint32 per instance; counter: 1 limb
  uint64_t V, U, X, T, Q, R, PA, PB, PR, prod_scratch;     // fast path
  uint64_t fu, fv, fq, fr, fflags, fb_scratch;             // fallback (same region)
  uint64_t total;                                          // limbs
};
BIGTUNE_HD constexpr uint64_t newtonc_align(uint64_t x) { return (x + 31) / 32 * 32; }
// n_cap: the largest divisor limbs the scratch must hold (m: the runtime sizes
// scratch from the dividend's bits alone).
BIGTUNE_HD inline NewtoncLayout newtonc_layout(uint32_t m, uint32_t n_cap, uint64_t count, uint64_t prod_scratch_bytes,
                                               uint64_t fb_scratch_bytes) {
  NewtoncLayout l{};
  const uint64_t n = n_cap;
  l.info = 0;
  l.idx = newtonc_align(count);
  l.counter = newtonc_align(l.idx + (count + 1) / 2);
  const uint64_t base = newtonc_align(l.counter + 1);
  l.V = base;
  l.U = newtonc_align(l.V + count * n);
  l.X = newtonc_align(l.U + count * (m + 1));
  l.T = newtonc_align(l.X + count * n);
  l.Q = newtonc_align(l.T + count * newtonc_t_stride(uint32_t(n)));
  l.R = newtonc_align(l.Q + count * (n + 2));
  // PA, PB: n + 2 limbs per instance, PR 2 (n + 2): the fused schedule's
  // double batches of a step from p to q hold 2 p <= q + 2 <= n + 2 limbs.
  l.PA = newtonc_align(l.R + count * (n + 2));
  l.PB = newtonc_align(l.PA + count * (n + 2));
  l.PR = newtonc_align(l.PB + count * (n + 2));
  l.prod_scratch = newtonc_align(l.PR + count * 2 * (n + 2));
  const uint64_t fast_end = l.prod_scratch + (prod_scratch_bytes + 7) / 8;
  l.fu = base;
  l.fv = newtonc_align(l.fu + count * m);
  l.fq = newtonc_align(l.fv + count * n);
  l.fr = newtonc_align(l.fq + count * m);
  l.fflags = newtonc_align(l.fr + count * n);
  l.fb_scratch = newtonc_align(l.fflags + (count + 1) / 2);
  const uint64_t fb_end = l.fb_scratch + (fb_scratch_bytes + 7) / 8;
  l.total = newtonc_align(fast_end > fb_end ? fast_end : fb_end);
  return l;
}

// The fast path's buffers of `a` in scratch `s` laid out as `l` (the device
// launch and the CPU test bind them alike).
inline void newtonc_bind_scratch(NewtoncArgs& a, uint64_t* s, const NewtoncLayout& l) {
  a.info = s + l.info;
  a.V = s + l.V;
  a.U = s + l.U;
  a.X = s + l.X;
  a.T = s + l.T;
  a.Q = s + l.Q;
  a.R = s + l.R;
  a.PA = s + l.PA;
  a.PB = s + l.PB;
  a.PR = s + l.PR;
}

// Precisions of the Newton steps, ascending, ending at n: ps[0] = 1, ps[k-1] = n.
// Returns k (<= 64).
BIGTUNE_HD inline int newtonc_precisions(uint32_t n, uint32_t (&ps)[64]) {
  uint32_t desc[64];
  int k = 0;
  desc[k++] = n;
  while (desc[k - 1] > 1) {
    const uint32_t p = desc[k - 1];
    uint32_t next = k - 1 < kNewtoncExactSteps ? (p + 1) / 2 : (p + 2) / 2;  // ceil(p/2) or ceil((p+1)/2)
    if (next >= p) next = p - 1;  // p = 2: 1 -> 2
    desc[k++] = next;
  }
  for (int i = 0; i < k; ++i) ps[i] = desc[k - 1 - i];
  return k;
}

BIGTUNE_HD inline int newtonc_clz(uint64_t x) {
#ifdef __CUDA_ARCH__
  return __clzll(static_cast<long long>(x));
#else
  return x ? __builtin_clzll(x) : 64;
#endif
}

// Limb j of a (an limbs) shifted left by s bits, 0 <= s < 64.
BIGTUNE_HD inline uint64_t newtonc_shl_at(const uint64_t* a, uint32_t an, uint32_t j, int s) {
  const uint64_t lo = j < an ? a[j] << s : 0;
  const uint64_t hi = (s != 0 && j >= 1 && j - 1 < an) ? a[j - 1] >> (64 - s) : 0;
  return lo | hi;
}
BIGTUNE_HD inline uint64_t newtonc_shr_at(const uint64_t* a, uint32_t an, uint32_t j, int s) {
  const uint64_t lo = j < an ? a[j] >> s : 0;
  const uint64_t hi = (s != 0 && j + 1 < an) ? a[j + 1] << (64 - s) : 0;
  return lo | hi;
}

// r[0, w) += (or -=, sub) (a[0, an) t) B^k mod B^w, with two w-limb
// temporaries: the low and high halves of the limb products, then two adds.
// The scalar products of the passes (E_hi x_p, U1hi x, Q'hi V, t V) take this
// rather than Ops::mul, whose classical tiles cost 64-limb squares per piece
// (8 tiles and 16 block scans for 512 limbs by one).
template <class Ops>
BIGTUNE_HD void newtonc_addmul_1(Ops& o, bool sub, uint64_t* r, uint32_t w, const uint64_t* a, uint32_t an,
                                 uint64_t t, uint32_t k, uint64_t* t1, uint64_t* t2) {
  using Wide = unsigned __int128;
  o.map(t1, w, [&](uint32_t j) { return j >= k && j - k < an ? uint64_t(Wide(a[j - k]) * t) : uint64_t(0); });
  o.map(t2, w, [&](uint32_t j) {
    return j >= k + 1 && j - k - 1 < an ? uint64_t((Wide(a[j - k - 1]) * t) >> 64) : uint64_t(0);
  });
  if (sub) {
    o.sub_n(r, r, t1, w);
    o.sub_n(r, r, t2, w);
  } else {
    o.add_n(r, r, t1, w);
    o.add_n(r, r, t2, w);
  }
}

// The end of StepSum2 / StepSum12: D (in Ts, mod B^(q+2)) to Tt = |D|, its
// sign into info bit 1, PA = E_lo = Tt[p, 2p).
template <class Ops>
BIGTUNE_HD void newtonc_sign_elo(Ops& o, const NewtoncArgs& a, uint64_t i, uint64_t info, uint32_t p, uint32_t q,
                                 uint64_t* Ts, uint64_t* Tt, uint64_t* PA) {
  using Limb = uint64_t;
  if (q + p < q + 2) o.sub_1(Ts + q + p, Ts + q + p, 2 - p, 1);  // p = 1: B^(q+1) is in range
  const bool neg = o.read(Ts, q + 1) >> 63;
  if (neg) o.pow_sub(Tt, Ts, q + 2, q + 2);
  else o.copy_shift(Tt, q + 2, Ts, q + 2, 0);
  o.write(a.info + i, 0, (info & ~Limb(2)) | (neg ? Limb(2) : Limb(0)));
  o.map(PA, p, [&](uint32_t j) { return p + j < q + 2 ? Tt[p + j] : Limb(0); });
}

// StepFinish for an instance of the fast path: x_q from x_p, E (Tt) and the
// product x_p E_lo (PR).
template <class Ops>
BIGTUNE_HD void newtonc_finish(Ops& o, const NewtoncArgs& a, uint64_t i, uint64_t* X, uint64_t* Ts, const uint64_t* Tt,
                               uint64_t* Tu, uint64_t* Tv, uint64_t info, uint32_t p, uint32_t q) {
  using Limb = uint64_t;
  const uint32_t w = q + 2, d = q - p;
  const Limb* PR = a.PR + i * 2 * p;
  o.map(Ts, w, [&](uint32_t j) {  // Ts = E, Tu = floor(x_p E_lo / B^p)
    Tu[j] = j < p ? PR[p + j] : Limb(0);
    return j < w - p ? Tt[p + j] : Limb(0);
  });
  o.add_n(Ts, Ts, Tu, w);
  const uint32_t h = w > 2 * p ? w - 2 * p : 0;  // E_hi = Tt[2p, w), at most 2 limbs
  for (uint32_t k = 0; k < h; ++k) {
    const Limb t = o.read(Tt, 2 * p + k);
    if (t) newtonc_addmul_1(o, false, Ts, w, X, p, t, k, Tu, Tv);
  }
  o.map(Tu, w, [&](uint32_t j) { return j >= d && j - d < p ? X[j - d] : Limb(0); });
  if (info & 2) o.add_n(Tu, Tu, Ts, w);  // D < 0: the inverse was short
  else o.sub_n(Tu, Tu, Ts, w);
  if (o.read(Tu, q + 1) >> 63) o.zero(X, q);                                // X_q < B^q: clamp
  else if (o.prec(Tu, w) > q) o.map(X, q, [](uint32_t) { return ~Limb(0); });  // X_q >= 2 B^q
  else o.copy_shift(X, q, Tu, q, 0);
}

// The fused schedule's loads after x_(a.q) is final: the step from p = a.q to
// q = a.q2 on the double batch (PA[i] = Vh, PA[count + i] = Vl padded to p
// limbs, PB[i] = PB[count + i] = x_p, stride p), or for a.q2 = 0 QLoad's
// PA = U1lo (stride n). Every instance loads (the products run on all).
template <class Ops>
BIGTUNE_HD void newtonc_load_next(Ops& o, const NewtoncArgs& a, uint64_t i) {
  using Limb = uint64_t;
  const uint32_t n = a.n;
  if (a.q2 == 0) {
    const uint32_t k = a.m + 1 - n;
    const Limb* U = a.U + i * (a.m + 1);
    o.map(a.PA + i * n, n, [&](uint32_t j) { return j < k ? U[n + j] : Limb(0); });
    return;
  }
  const uint32_t p = a.q, q = a.q2, d = q - p;
  const Limb* V = a.V + i * n;
  const Limb* X = a.X + i * n;
  Limb* PA1 = a.PA + (a.count + i) * p;
  Limb* PB0 = a.PB + i * p;
  Limb* PB1 = a.PB + (a.count + i) * p;
  o.map(a.PA + i * p, p, [&](uint32_t j) {  // one map for four arrays
    PA1[j] = j < d ? V[n - q + j] : Limb(0);
    const Limb x = X[j];
    PB0[j] = x;
    PB1[j] = x;
    return V[n - p + j];
  });
}

// One pass for instance i. Returns false only from QFix for an instance the
// fast path did not finish (the caller queues it for the fallback).
template <class Ops>
BIGTUNE_HD bool newtonc_pass(Ops& o, NewtoncPhase phase, const NewtoncArgs& a, uint64_t i) {
  using Limb = uint64_t;
  using Wide = unsigned __int128;
  const uint32_t n = a.n, m = a.m, p = a.p, q = a.q;
  Limb* V = a.V + i * n;
  Limb* U = a.U + i * (m + 1);
  Limb* X = a.X + i * n;
  Limb* T = a.T + i * newtonc_t_stride(n);
  Limb* Ts = T;                  // q + 2 limbs: D, then the correction
  Limb* Tt = T + (n + 2);        // q + 2 limbs: |D|
  Limb* Tu = T + 2 * (n + 2);    // q + 2 limbs: temporaries
  Limb* Tv = T + 3 * (n + 2);    // q + 2 limbs: temporaries
  Limb* Q = a.Q + i * (n + 2);
  Limb* R = a.R + i * (n + 2);
  const uint32_t d = q - p;
  if (phase == NewtoncPhase::Prep) {
    const Limb* v = a.v + i * n;
    const Limb* u = a.u + i * m;
    const Limb vt = o.read(v, n - 1);
    const bool mine = a.fast_ok && vt != 0;
    const int s = mine ? newtonc_clz(vt) : 0;
    o.map(V, n, [&](uint32_t j) { return newtonc_shl_at(v, n, j, s); });
    o.map(U, m + 1, [&](uint32_t j) { return newtonc_shl_at(u, m, j, s); });
    o.zero(X, n);
    if (mine) {  // x_1 = floor((B^2 - 1) / V[n-1]) - B: one limb, error < 1 ulp
      const Limb top = o.read(V, n - 1);
      o.write(X, 0, Limb(~Wide(0) / top));
    }
    o.write(a.info + i, 0, Limb(mine ? 1 : 0) | (Limb(s) << 8));
    if (a.fused) newtonc_load_next(o, a, i);  // the first step's (a.q = 1, a.q2) or the quotient's loads
    return true;
  }
  const Limb info = o.read(a.info + i, 0);
  const bool mine = info & 1;
  Limb* PA = a.PA + i * p;
  Limb* PB = a.PB + i * p;
  const Limb* PR = a.PR + i * 2 * p;
  switch (phase) {
    case NewtoncPhase::StepLoad:  // PA = Vh (top p limbs of V), PB = x_p
      o.map(PA, p, [&](uint32_t j) { return V[n - p + j]; });
      o.map(PB, p, [&](uint32_t j) { return X[j]; });
      return true;
    case NewtoncPhase::StepSum1:  // Ts = V_q B^p + (Vh x_p) B^d mod B^(q+2); PA = Vl
      if (mine) {
        o.map(Ts, q + 2, [&](uint32_t j) { return j >= p && j - p < q ? V[n - q + (j - p)] : Limb(0); });
        o.map(Tu, q + 2, [&](uint32_t j) { return j >= d && j - d < 2 * p ? PR[j - d] : Limb(0); });
        o.add_n(Ts, Ts, Tu, q + 2);
      }
      o.map(PA, p, [&](uint32_t j) { return j < d ? V[n - q + j] : Limb(0); });
      return true;
    case NewtoncPhase::StepSum2: {  // D = Ts + Vl x_p - B^(q+p); Tt = |D|; PA = E_lo
      if (!mine) return true;
      o.map(Tu, q + 2, [&](uint32_t j) { return j < 2 * p ? PR[j] : Limb(0); });
      o.add_n(Ts, Ts, Tu, q + 2);
      newtonc_sign_elo(o, a, i, info, p, q, Ts, Tt, PA);
      return true;
    }
    case NewtoncPhase::StepSum12: {  // StepSum1 + StepSum2 on the double batch: Vh x_p at PR, Vl x_p at PR1
      if (!mine) return true;
      const Limb* PR1 = a.PR + (a.count + i) * 2 * p;
      o.map(Ts, q + 2, [&](uint32_t j) {  // one map for three arrays (the backends call f once per j)
        Tu[j] = j >= d && j - d < 2 * p ? PR[j - d] : Limb(0);
        Tv[j] = j < 2 * p ? PR1[j] : Limb(0);
        return j >= p && j - p < q ? V[n - q + (j - p)] : Limb(0);
      });
      o.add_n(Ts, Ts, Tu, q + 2);
      o.add_n(Ts, Ts, Tv, q + 2);
      newtonc_sign_elo(o, a, i, info, p, q, Ts, Tt, PA);
      return true;
    }
    case NewtoncPhase::StepFinish:
    case NewtoncPhase::StepFinishNext: {  // corr = E + E_hi x_p + floor(x_p E_lo / B^p); x_q = x_p B^d -+ corr
      if (mine) newtonc_finish(o, a, i, X, Ts, Tt, Tu, Tv, info, p, q);
      if (phase == NewtoncPhase::StepFinishNext) newtonc_load_next(o, a, i);
      return true;
    }
    case NewtoncPhase::QLoad: {  // PA = U1lo (p = n here), PB is X itself
      const uint32_t k = m + 1 - n;
      o.map(PA, n, [&](uint32_t j) { return j < k ? U[n + j] : Limb(0); });
      return true;
    }
    case NewtoncPhase::QComb: {  // Q' = U_1 + U1hi x + floor(U1lo x / B^n); PA = Q'lo
      if (mine) {
        const uint32_t k = m + 1 - n;
        o.map(Q, n + 2, [&](uint32_t j) { return j < k ? U[n + j] : Limb(0); });
        o.map(Tu, n + 2, [&](uint32_t j) { return j < n ? PR[n + j] : Limb(0); });
        o.add_n(Q, Q, Tu, n + 2);
        if (k > n) {
          const Limb hi = o.read(U, 2 * n);
          if (hi) newtonc_addmul_1(o, false, Q, n + 2, X, n, hi, 0, Tu, Tv);
        }
      }
      o.map(PA, n, [&](uint32_t j) { return mine ? Q[j] : Limb(0); });
      return true;
    }
    case NewtoncPhase::QFix: {  // R' = U - Q'V mod B^(n+2), corrections, outputs
      if (!mine) return false;
      const int s = int((info >> 8) & 63);
      const uint32_t w = n + 2;
      o.map(R, w, [&](uint32_t j) { return j < m + 1 ? U[j] : Limb(0); });
      o.map(Tu, w, [&](uint32_t j) { return j < 2 * n ? PR[j] : Limb(0); });
      o.sub_n(R, R, Tu, w);
      for (uint32_t k = 0; k < 2; ++k) {  // (Q'hi V) B^n mod B^(n+2)
        const Limb t = o.read(Q, n + k);
        if (t) newtonc_addmul_1(o, true, R, w, V, n, t, n + k, Tu, Tv);
      }
      bool done = false;
      const Limb vt = o.read(V, n - 1);
      for (int round = 0; round < kNewtoncFixRounds; ++round) {
        const bool neg = o.read(R, n + 1) >> 63;
        if (!neg && o.cmp(R, w, V, n) < 0) {
          done = true;
          break;
        }
        if (neg) o.pow_sub(Tt, R, w, w);
        else o.copy_shift(Tt, w, R, w, 0);
        if (o.read(Tt, n + 1) != 0) break;  // |R'| >= B^(n+1): beyond one estimate
        const Wide num = (Wide(o.read(Tt, n)) << 64) | o.read(Tt, n - 1);
        const Wide est = num / (Wide(vt) + 1);  // <= |R'| / V: the divisor rounded up
        if (est >> 64) break;
        Limb t = Limb(est);
        if (!neg) t = t ? t : 1;
        else if (t == ~Limb(0)) break;
        else t += 1;
        newtonc_addmul_1(o, !neg, R, w, V, n, t, 0, Tu, Tv);
        if (!neg) o.add_1(Q, Q, w, t);
        else o.sub_1(Q, Q, w, t);
      }
      if (!done) return false;
      Limb* qo = a.qo + i * a.qn;
      Limb* ro = a.ro + i * a.rn;
      o.map(qo, a.qn, [&](uint32_t j) { return j < w ? Q[j] : Limb(0); });
      o.map(ro, a.rn, [&](uint32_t j) { return newtonc_shr_at(R, w, j, s); });
      return true;
    }
    default: return true;
  }
}

// The launch sequence, shared by the GPU launch and the CPU test. Backend:
//   pass(phase, args)                     every instance, args.p/q set;
//   product(p, a, b, r, args, count)      count full products of p-limb
//                                         operands (a, b: p limbs per
//                                         instance, r: 2p).
// args.fused picks the fused schedule (NewtoncPhase::StepSum12): per step
// two passes and two product launches, the first on 2 count instances.
template <class Backend>
void newtonc_run(Backend& be, NewtoncArgs args) {
  uint32_t ps[64];
  const int k = newtonc_precisions(args.n, ps);
  const uint64_t c = args.count;
  if (args.fused) {
    args.p = 0;
    args.q = ps[0];
    args.q2 = k > 1 ? ps[1] : 0;
    be.pass(NewtoncPhase::Prep, args);  // with the first step's loads
    for (int j = 1; j < k; ++j) {
      args.p = ps[j - 1];
      args.q = ps[j];
      args.q2 = j + 1 < k ? ps[j + 1] : 0;
      be.product(args.p, args.PA, args.PB, args.PR, args, 2 * c);
      be.pass(NewtoncPhase::StepSum12, args);
      be.product(args.p, args.PA, args.PB, args.PR, args, c);
      be.pass(NewtoncPhase::StepFinishNext, args);  // with the next step's or the quotient's loads
    }
  } else {
    args.p = args.q = 0;
    be.pass(NewtoncPhase::Prep, args);
    for (int j = 1; j < k; ++j) {
      args.p = ps[j - 1];
      args.q = ps[j];
      be.pass(NewtoncPhase::StepLoad, args);
      be.product(args.p, args.PA, args.PB, args.PR, args, c);
      be.pass(NewtoncPhase::StepSum1, args);
      be.product(args.p, args.PA, args.PB, args.PR, args, c);
      be.pass(NewtoncPhase::StepSum2, args);
      be.product(args.p, args.PA, args.PB, args.PR, args, c);
      be.pass(NewtoncPhase::StepFinish, args);
    }
    args.p = args.q = args.n;
    be.pass(NewtoncPhase::QLoad, args);
  }
  args.p = args.q = args.n;
  args.q2 = 0;
  be.product(args.n, args.PA, args.X, args.PR, args, c);
  be.pass(NewtoncPhase::QComb, args);
  be.product(args.n, args.PA, args.V, args.PR, args, c);
  be.pass(NewtoncPhase::QFix, args);
}

}  // namespace bigtune::kernels::block
