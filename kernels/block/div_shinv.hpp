// Division by Watt's whole shifted inverse: seed 001 §2.2, Alg. 1–3, base
// B = 2^64 (a digit is a 64-bit limb).
//
// divmod(u, v) -> (q, r), u = q v + r, 0 <= r < v:
//   1. w = shinv_h(v) = floor(B^h / v) (+1 at most, seed 001 Thm. 2), h = prec(u);
//   2. q = shift_{-h}(u w), then the quotient fix-up for δ (Alg. 3 as amended
//      in seed 001 §2.2: one step down; here up to two steps up, see step 5).
// Special cases: v = 0 -> q = r = 0 and the flag (the caller's contract, never a
// hang); u < v -> (0, u); one-digit v -> a short division (Alg. 1 line 7 does the
// same for the inverse); v = B^k and 2v > B^h (Alg. 1 lines 8–10).
//
// The algorithm is written once, against an `Ops` backend of multi-precision
// primitives on limb arrays, so that the same control flow runs
//   - on the CPU (tests/unit/div_shinv_algorithm_test.cpp checks it against GMP),
//   - in one CUDA block (block_ops.cuh: every thread calls every primitive, scalar
//     results are broadcast; all scalars below are block-uniform).
// Ops must provide (sizes in limbs; outputs never alias inputs unless stated):
//   zero(r, n); copy_shift(r, rn, a, an, e): r = floor(a B^e) mod B^rn;
//   prec(a, n); cmp(a, an, b, bn) -> -1/0/1; read(a, i); write(a, i, x);
//   add_n / sub_n(r, a, b, n) -> carry (r == a allowed);
//   add_1 / sub_1(r, a, n, x) -> carry (r == a allowed);
//   pow_sub(r, a, an, e): r[0, e) = B^e - a  (0 < a < B^e);
//   mul(r, a, an, b, bn): r[0, an+bn) = a b — the one multiplication dispatch
//     point, called with the operands' actual precisions (seed 001 §3.4);
//   div_1(q, a, n, d) -> remainder.
//
// Precisions follow seed 001 §3.4: every product is taken at the operands'
// actual digit counts (prec), so the refinement's early steps are short and the
// whole costs about 5–7 full products (§2.3).
//
// Workspace: div_shinv_workspace_limbs(M, N) limbs for a dividend of M limbs and
// a divisor of N limbs.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Buffer capacities (limbs). w grows to h - k + 1 digits plus the guard digits
// (g = 2) and one digit of Newton overshoot; products of w with anything of at
// most M + 8 digits fit 2M + 16.
BIGTUNE_HD constexpr uint32_t shinv_w_cap(uint32_t m) { return m + 8; }
BIGTUNE_HD constexpr uint32_t shinv_wide_cap(uint32_t m) { return 2 * m + 16; }
BIGTUNE_HD constexpr uint64_t div_shinv_workspace_limbs(uint32_t m, uint32_t n) {
  return uint64_t(n) + shinv_w_cap(m) + 3ull * shinv_wide_cap(m);
}

// floor(2^192 / V) for V = v1 B + v0 with v1 >= 1 (Alg. 1 line 13, "divide 4
// digits by 2 digits"), as three digits. Restoring binary division: run once
// per instance on one thread, so simplicity beats speed here.
BIGTUNE_HD inline void b3_quo_2digits(uint64_t v1, uint64_t v0, uint64_t (&w)[3]) {
  w[0] = w[1] = w[2] = 0;
  if (v1 == 1 && v0 == 0) {  // V = B: the quotient B^2 is the only one past 2^128
    w[2] = 1;
    return;
  }
  // Remainder (r1, r0) < V < 2^128; numerator bit 192 is its only one bit.
  uint64_t r1 = 0, r0 = 0;
  for (int bit = 192; bit >= 0; --bit) {
    const uint64_t top = r1 >> 63;
    r1 = (r1 << 1) | (r0 >> 63);
    r0 = (r0 << 1) | (bit == 192 ? 1u : 0u);
    const bool ge = top || r1 > v1 || (r1 == v1 && r0 >= v0);
    if (ge) {
      const uint64_t borrow = r0 < v0;
      r0 -= v0;
      r1 = r1 - v1 - borrow;
      if (bit < 128) w[bit / 64] |= uint64_t(1) << (bit % 64);
    }
  }
}

BIGTUNE_HD constexpr uint32_t ceil_log2_u32(uint32_t x) {  // x >= 1
  uint32_t r = 0;
  while ((uint32_t(1) << r) < x) ++r;
  return r;
}

template <class Ops>
class DivShinv {
 public:
  using Limb = uint64_t;

  // ws: div_shinv_workspace_limbs(m, n) limbs (m: dividend limbs, n: divisor's).
  BIGTUNE_HD DivShinv(Ops& ops, Limb* ws, uint32_t m, uint32_t n) : o_(ops), m_(m), n_(n) {
    vs_ = ws;
    w_ = vs_ + n;
    x_ = w_ + shinv_w_cap(m);
    t_ = x_ + shinv_wide_cap(m);
    y_ = t_ + shinv_wide_cap(m);
  }

  // q (qn limbs) and r (rn limbs) from u (m limbs) and v (n limbs). Returns
  // true for a zero divisor (q = r = 0 then). q and r must not alias u or v.
  BIGTUNE_HD bool divmod(Limb* q, uint32_t qn, Limb* r, uint32_t rn, const Limb* u, const Limb* v) {
    const uint32_t kv = o_.prec(v, n_);
    if (kv == 0) {
      o_.zero(q, qn);
      o_.zero(r, rn);
      return true;
    }
    const uint32_t hu = o_.prec(u, m_);
    if (o_.cmp(u, hu, v, kv) < 0) {  // q = 0, r = u (< v, so it fits rn)
      o_.zero(q, qn);
      o_.copy_shift(r, rn, u, hu, 0);
      return false;
    }
    if (kv == 1) {  // one-digit divisor: short division (Alg. 1 line 7)
      o_.zero(q, qn);
      const Limb rem = o_.div_1(q, u, hu, o_.read(v, 0));
      o_.zero(r, rn);
      o_.write(r, 0, rem);
      return false;
    }
    // 1. w = shinv_h(v), h = prec(u) (Alg. 3 line 1).
    const uint32_t h = hu, k = kv - 1;
    uint32_t wn = shinv(v, kv, h, k);
    // 2. q = shift_{-h}(u w) (line 2): the low h digits of the product are dropped.
    o_.mul(t_, u, hu, w_, wn);
    uint32_t qw = hu + wn > h ? hu + wn - h : 0;
    o_.copy_shift(y_, qw + 3, t_, hu + wn, -int(h));  // y = q, zero digits above for q + 1, q + 2
    qw = o_.prec(y_, qw + 1);
    // 3. mm = v q (line 3), into x; at most h + 1 digits matter (v q <= u + v).
    uint32_t mn = 0;
    if (qw > 0) {
      o_.mul(x_, v, kv, y_, qw);
      mn = o_.prec(x_, kv + qw);
    }
    // 4. δ = −1 (lines 4–6): q overshot.
    if (o_.cmp(u, hu, x_, mn) < 0) {
      o_.sub_1(y_, y_, qw, 1);
      sub_padded(x_, mn, v, kv);
      mn = o_.prec(x_, mn);
    }
    // 5. r = u − mm (line 7), into t; δ > 0 (lines 8–10). Seed 001 Thm. 2
    //    bounds the inverse's error by λ ∈ {0, 1}; this implementation of Refine
    //    also returns floor − 1 now and then (λ = −1 in 0.8 % of 200 000 random
    //    inverses, +1 in 3.7 %, never more: measured on the CPU backend), and
    //    λ = −1 can make δ = 2, so the step up runs at most twice. Bounded,
    //    never a loop that could hang.
    o_.copy_shift(t_, hu, x_, mn, 0);
    o_.sub_n(t_, u, t_, hu);
    uint32_t rw = o_.prec(t_, hu);
    for (int fix = 0; fix < 2 && o_.cmp(t_, rw, v, kv) >= 0; ++fix) {
      o_.add_1(y_, y_, qw + 1, 1);
      sub_padded(t_, rw, v, kv);
      rw = o_.prec(t_, rw);
      qw = o_.prec(y_, qw + 1);
    }
    qw = o_.prec(y_, qw + 1);
    o_.copy_shift(q, qn, y_, qw, 0);
    o_.copy_shift(r, rn, t_, rw, 0);
    return false;
  }

 private:
  // a[0, an) -= b[0, bn), an >= bn, a >= b.
  BIGTUNE_HD void sub_padded(Limb* a, uint32_t an, const Limb* b, uint32_t bn) {
    const Limb borrow = o_.sub_n(a, a, b, bn);
    if (an > bn) o_.sub_1(a + bn, a + bn, an - bn, borrow);
  }

  // Alg. 1 for v of kv = k + 1 digits, 1 <= k < h. Leaves floor(B^h / v) (+1 at
  // most) in w_ and returns its digit count.
  BIGTUNE_HD uint32_t shinv(const Limb* v, uint32_t kv, uint32_t h, uint32_t k) {
    const Limb vk = o_.read(v, k), vk1 = o_.read(v, k - 1);
    // v = B^k (line 10): exactly B^(h-k).
    if (vk == 1 && o_.prec(v, k) == 0) {
      o_.zero(w_, h - k + 1);
      o_.write(w_, h - k, 1);
      return h - k + 1;
    }
    // 2v > B^h (line 9), possible only for k = h - 1: the inverse is 1.
    if (k + 1 == h && (vk > (Limb(1) << 63) || (vk == (Limb(1) << 63) && o_.prec(v, k) > 0))) {
      o_.zero(w_, 1);
      o_.write(w_, 0, 1);
      return 1;
    }
    // Initial approximation from the two top digits (lines 12–13).
    Limb w3[3];
    b3_quo_2digits(vk, vk1, w3);
    o_.zero(w_, 3);
    for (int i = 0; i < 3; ++i)
      if (w3[i]) o_.write(w_, i, w3[i]);
    uint32_t wn = w3[2] ? 3 : 2;
    return refine(v, kv, h, k, wn);
  }

  // Refine of Alg. 1 (lines 15–28): w approximates shinv_{k+l+g}(v) with l
  // correct digits; each Step adds m digits using only the prefix of v that
  // matters (s digits dropped, "divisor prefixes"). The first two iterations
  // (i < 2) only sharpen the two-digit start; afterwards l grows to h − k.
  BIGTUNE_HD uint32_t refine(const Limb* v, uint32_t kv, uint32_t h, uint32_t k, uint32_t wn) {
    const int g = 2;
    int l = 2;
    o_.copy_shift(y_, wn + g, w_, wn, g);  // w <- shift_g(w)
    o_.copy_shift(w_, wn + g, y_, wn + g, 0);
    wn += g;
    const int hk = int(h) - int(k);
    const uint32_t iters = (hk - 1 > 1 ? ceil_log2_u32(uint32_t(hk - 1)) : 0) + 2;
    for (uint32_t i = 0; i < iters; ++i) {
      const int m = hk + 1 - l < l ? hk + 1 - l : l;
      const int s0 = int(k) - 2 * l + 1 - g;
      const int s = s0 > 0 ? s0 : 0;
      // v' = shift_{-s}(v), trimmed.
      const uint32_t vn = kv - uint32_t(s);
      o_.copy_shift(vs_, vn, v, kv, -s);
      const uint32_t rn = step(int(k) + l + m - s + g, vs_, vn, wn, m, l, g);  // result in y_
      const int down = i < 2 ? m : 1;
      const uint32_t nn = rn > uint32_t(down) ? rn - uint32_t(down) : 0;
      o_.copy_shift(w_, nn, y_, rn, -down);
      wn = o_.prec(w_, nn);
      if (i >= 2) l += m - 1;
    }
    // Final scale to shinv_h (line 27–28): w approximates shinv_{k+l+g}(v).
    const int sh = int(h) - (int(k) + l + g);
    const uint32_t nn = int(wn) + sh > 0 ? uint32_t(int(wn) + sh) : 0;
    o_.copy_shift(y_, nn, w_, wn, sh);
    o_.copy_shift(w_, nn, y_, nn, 0);
    return o_.prec(w_, nn);
  }

  // Step of Alg. 1 (lines 29–37) with the sign of PowDiff tracked (seed 001
  // §2.2): y = shift_m(w) ± shift_{2m−H}(w · |B^(H−m) − v w|), rounded down.
  // Returns y's digit count.
  BIGTUNE_HD uint32_t step(int H, const Limb* v, uint32_t vn, uint32_t wn, int m, int l, int g) {
    uint32_t xn = 0;
    const bool positive = powdiff(v, vn, wn, H - m, l - g, xn);  // |diff| in x_
    // t = w x
    uint32_t tn = 0;
    if (xn > 0 && wn > 0) {
      o_.mul(t_, w_, wn, x_, xn);
      tn = o_.prec(t_, wn + xn);
    }
    const int e = 2 * m - H;
    const uint32_t wide = int(wn) + m > int(tn) + e ? uint32_t(int(wn) + m) : uint32_t(int(tn) + e > 0 ? int(tn) + e : 0);
    const uint32_t rn = wide + 1;
    o_.copy_shift(y_, rn, w_, wn, m);  // shift_m(w)
    o_.copy_shift(x_, rn, t_, tn, e);  // shift_{2m-H}(t); x is free now
    if (positive) {
      o_.add_n(y_, y_, x_, rn);
    } else {
      o_.sub_n(y_, y_, x_, rn);
      // Rounding down a negative term: −floor(t B^e) − 1 when digits were dropped.
      if (e < 0) {
        const uint32_t dropped = uint32_t(-e) < tn ? uint32_t(-e) : tn;
        if (dropped > 0 && o_.prec(t_, dropped) > 0) o_.sub_1(y_, y_, rn, 1);
      }
    }
    return o_.prec(y_, rn);
  }

  // PowDiff (Alg. 2): |B^hp − v w| into x_ (xn digits); returns its sign
  // (true: B^hp >= v w). The close-product case needs only v w mod B^L.
  BIGTUNE_HD bool powdiff(const Limb* v, uint32_t vn, uint32_t wn, int hp, int lp, uint32_t& xn) {
    const uint32_t pv = o_.prec(v, vn);
    const int L = int(pv) + int(wn) - lp + 1;
    if (pv == 0 || wn == 0) {  // B^hp − 0
      o_.zero(x_, uint32_t(hp) + 1);
      o_.write(x_, uint32_t(hp), 1);
      xn = uint32_t(hp) + 1;
      return true;
    }
    o_.mul(t_, v, pv, w_, wn);
    const uint32_t pn = o_.prec(t_, pv + wn);
    if (L >= hp) {
      if (pn <= uint32_t(hp)) {  // v w < B^hp
        o_.pow_sub(x_, t_, pn, uint32_t(hp));
        xn = uint32_t(hp);
        return true;
      }
      o_.copy_shift(x_, pn, t_, pn, 0);  // v w − B^hp
      o_.sub_1(x_ + hp, x_ + hp, pn - uint32_t(hp), 1);
      xn = pn;
      return false;
    }
    // Close product: P = v w mod B^L (the multiplication's low L digits).
    const uint32_t pl = o_.prec(t_, uint32_t(L) < pn ? uint32_t(L) : pn);
    if (pl == 0) {
      xn = 0;
      return true;
    }
    if (pl < uint32_t(L)) {  // P_{L−1} = 0: v w > B^hp by P
      o_.copy_shift(x_, pl, t_, pl, 0);
      xn = pl;
      return false;
    }
    o_.pow_sub(x_, t_, uint32_t(L), uint32_t(L));
    xn = uint32_t(L);
    return true;
  }

  Ops& o_;
  uint32_t m_, n_;
  Limb *vs_, *w_, *x_, *t_, *y_;
};

}  // namespace bigtune::kernels::block
