// Sequential CPU backend of the multi-precision primitives that
// kernels/block/div_shinv.hpp (and the fused ops) are written against: the
// same contract as the block backend (kernels/block/block_ops.cuh), one limb
// at a time, written for obviousness, not speed (STYLE.md: tests/reference/).
// It lets the CPU tests run the division's exact control flow against GMP;
// it shares no arithmetic with the device code.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace bigtune::test {

struct HostLimbOps {
  using Limb = uint64_t;
  using Wide = unsigned __int128;
  uint64_t mul_calls = 0, mul_limb_products = 0;  // what the precision dispatch costs

  void zero(Limb* r, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) r[i] = 0;
  }
  void copy_shift(Limb* r, uint32_t rn, const Limb* a, uint32_t an, int e) {
    if (r == a && e != 0) throw std::logic_error("copy_shift: aliased shift");
    std::vector<Limb> tmp(rn);
    for (uint32_t i = 0; i < rn; ++i) {
      const int64_t j = int64_t(i) - e;
      tmp[i] = (j >= 0 && j < int64_t(an)) ? a[j] : 0;
    }
    for (uint32_t i = 0; i < rn; ++i) r[i] = tmp[i];
  }
  uint32_t prec(const Limb* a, uint32_t n) {
    while (n > 0 && a[n - 1] == 0) --n;
    return n;
  }
  int cmp(const Limb* a, uint32_t an, const Limb* b, uint32_t bn) {
    for (uint32_t i = an > bn ? an : bn; i-- > 0;) {
      const Limb x = i < an ? a[i] : 0, y = i < bn ? b[i] : 0;
      if (x != y) return x < y ? -1 : 1;
    }
    return 0;
  }
  Limb read(const Limb* a, uint32_t i) { return a[i]; }
  void write(Limb* a, uint32_t i, Limb x) { a[i] = x; }
  Limb add_n(Limb* r, const Limb* a, const Limb* b, uint32_t n) {
    Wide c = 0;
    for (uint32_t i = 0; i < n; ++i) {
      c += Wide(a[i]) + b[i];
      r[i] = Limb(c);
      c >>= 64;
    }
    return Limb(c);
  }
  Limb sub_n(Limb* r, const Limb* a, const Limb* b, uint32_t n) {
    Limb borrow = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const Wide d = Wide(a[i]) - b[i] - borrow;
      r[i] = Limb(d);
      borrow = Limb(d >> 64) ? 1 : 0;
    }
    return borrow;
  }
  Limb add_1(Limb* r, const Limb* a, uint32_t n, Limb x) {
    for (uint32_t i = 0; i < n; ++i) {
      const Wide s = Wide(a[i]) + x;
      r[i] = Limb(s);
      x = Limb(s >> 64);
    }
    return x;
  }
  Limb sub_1(Limb* r, const Limb* a, uint32_t n, Limb x) {
    for (uint32_t i = 0; i < n; ++i) {
      const Limb ai = a[i];
      r[i] = ai - x;
      x = ai < x ? 1 : 0;
    }
    return x;
  }
  void pow_sub(Limb* r, const Limb* a, uint32_t an, uint32_t e) {
    std::vector<Limb> t(e, 0);
    for (uint32_t i = 0; i < an && i < e; ++i) t[i] = a[i];
    std::vector<Limb> z(e, 0);
    sub_n(r, z.data(), t.data(), e);
  }
  void mul(Limb* r, const Limb* a, uint32_t an, const Limb* b, uint32_t bn) {
    ++mul_calls;
    mul_limb_products += uint64_t(an) * bn;
    std::vector<Limb> t(an + bn, 0);
    for (uint32_t i = 0; i < an; ++i) {
      Wide c = 0;
      for (uint32_t j = 0; j < bn; ++j) {
        c += Wide(a[i]) * b[j] + t[i + j];
        t[i + j] = Limb(c);
        c >>= 64;
      }
      t[i + bn] = Limb(c);
    }
    for (uint32_t i = 0; i < an + bn; ++i) r[i] = t[i];
  }
  Limb div_1(Limb* q, const Limb* a, uint32_t n, Limb d) {
    Wide rem = 0;
    for (uint32_t i = n; i-- > 0;) {
      rem = (rem << 64) | a[i];
      q[i] = Limb(rem / d);
      rem %= d;
    }
    return Limb(rem);
  }
};

}  // namespace bigtune::test
