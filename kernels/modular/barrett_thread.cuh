// Barrett reduction for one thread's mulmod with a shared modulus of N
// 32-bit limbs whose top limb is nonzero (HAC 14.42, Menezes, van Oorschot &
// Vanstone, "Handbook of Applied Cryptography", ch. 14; base b = 2^32, k = N):
// x = a b < b^2k, q1 = floor(x / b^(k-1)), q3 = floor(q1 mu / b^(k+1)) with
// mu = floor(b^2k / m), r = (x - q3 m) mod b^(k+1), then r -= m while r >= m.
// The product q1 mu skips its columns below k - 1 (HAC note 14.44): the
// dropped part is below (k - 1) b^k, which lowers q3 by at most 1 more than
// the full estimate's 2 (HAC fact 14.43), so r < 4m < b^(k+1): three
// subtractions finish it, the code runs four. One full product (N^2 limb products),
// the upper part of q1 mu (about (N+1)^2 - N(N-1)/2) and the low N+1 limbs of
// q3 m (about (N+1)(N+2)/2): 160 at N = 8 against the 256 of the two
// Montgomery products of mont_mulmod (montgomery.cuh), with a, b any values
// below b^k (not only below m).
#pragma once
#include "kernels/modular/limbs.cuh"
#include "kernels/thread/divmod_knuth.cuh"

namespace bigtune::kernels::modular {

// Every loop of barrett_mulmod fully unrolled (trip counts N .. 2N + 1, N <=
// 16): compile-time indices keep x, w, t and r in registers.
constexpr int kBarrettUnroll = 64;

template <int N>
struct BarrettShared {
  int usable;     // m has N limbs (top limb nonzero) and is odd: mu fits N + 1 limbs
  u32 mu[N + 1];  // floor((b^2N - 1) / m) = floor(b^2N / m) for such m
};

// mu by Knuth's Algorithm D (kernels/thread/divmod_knuth.cuh) on the
// dividend b^2N - 1 (2N limbs of ones): one thread, once per launch, N + 1
// quotient limbs of N limb products each (a bit-by-bit division took 64N
// steps of N + 1 limbs: ~0.2 ms of one thread at N = 16).
template <int N>
BIGTUNE_HD inline void barrett_setup(BarrettShared<N>& c, const u32* m) {
  c.usable = m[N - 1] != 0 && (m[0] & 1u);
  for (int j = 0; j <= N; ++j) c.mu[j] = 0;
  if (!c.usable) return;
  u32 x[4 * N + 1];  // Algorithm D's region: dividend 2N limbs, a free limb, divisor N limbs
  for (int j = 0; j < 2 * N; ++j) x[j] = ~0u;
  x[2 * N] = 0;
  for (int j = 0; j < N; ++j) x[2 * N + 1 + j] = m[j];
  for (int j = 3 * N + 1; j < 4 * N + 1; ++j) x[j] = 0;
  thread::divmod_knuth(x, 2 * N, N);
  for (int j = 0; j <= N; ++j) c.mu[j] = x[j];  // the quotient is below b^(N+1)
}

// r = a b mod m (r < m) for a, b < b^N, with c.usable.
template <int N>
BIGTUNE_HD inline void barrett_mulmod(u32* r, const u32* a, const u32* b, const u32* m, const BarrettShared<N>& c) {
  // x = a b
  u32 x[2 * N];
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int j = 0; j < 2 * N; ++j) x[j] = 0;
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int i = 0; i < N; ++i) {
    u64 carry = 0;
    BIGTUNE_MOD_UNROLL(kBarrettUnroll)
    for (int j = 0; j < N; ++j) {
      const u64 p = u64(a[j]) * b[i] + x[i + j] + carry;
      x[i + j] = u32(p);
      carry = p >> 32;
    }
    x[i + N] = u32(carry);
  }
  // w = columns k - 1 .. 2k + 1 of q1 mu, q1 = x[k-1 .. 2k-1]
  u32 w[N + 3];
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int j = 0; j < N + 3; ++j) w[j] = 0;
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int i = 0; i <= N; ++i) {
    u64 carry = 0;
    BIGTUNE_MOD_UNROLL(kBarrettUnroll)
    for (int j = 0; j <= N; ++j) {
      if (i + j < N - 1) continue;
      const int col = i + j - (N - 1);
      const u64 p = u64(x[N - 1 + i]) * c.mu[j] + w[col] + carry;
      w[col] = u32(p);
      carry = p >> 32;
    }
    w[i + 2] = u32(carry);  // column i + N + 1 - (N - 1)
  }
  // q3 = w[2 .. N + 2]; t = (q3 m) mod b^(k+1); r = x mod b^(k+1) - t
  u32 t[N + 1];
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int j = 0; j <= N; ++j) t[j] = 0;
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int i = 0; i <= N; ++i) {
    u64 carry = 0;
    BIGTUNE_MOD_UNROLL(kBarrettUnroll)
    for (int j = 0; j < N; ++j) {
      if (i + j > N) continue;
      const u64 p = u64(w[2 + i]) * m[j] + t[i + j] + carry;
      t[i + j] = u32(p);
      carry = p >> 32;
    }
    if (i == 0) t[N] = u32(carry);  // rows i > 0 end at limb N: their carry is above b^(k+1)
  }
  u32 rr[N + 1];
  u64 borrow = 0;
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int j = 0; j <= N; ++j) {
    const u64 d = u64(x[j]) - t[j] - borrow;
    rr[j] = u32(d);
    borrow = (d >> 32) & 1u;
  }
  // at most four subtractions of m (see the file comment)
  BIGTUNE_MOD_UNROLL(4)
  for (int s = 0; s < 4; ++s) {
    u32 d[N + 1];
    u64 bw = 0;
    BIGTUNE_MOD_UNROLL(kBarrettUnroll)
    for (int j = 0; j <= N; ++j) {
      const u64 v = u64(rr[j]) - (j < N ? m[j] : 0u) - bw;
      d[j] = u32(v);
      bw = (v >> 32) & 1u;
    }
    const bool ge = bw == 0;  // rr >= m
    BIGTUNE_MOD_UNROLL(kBarrettUnroll)
    for (int j = 0; j <= N; ++j) rr[j] = ge ? d[j] : rr[j];
  }
  BIGTUNE_MOD_UNROLL(kBarrettUnroll)
  for (int j = 0; j < N; ++j) r[j] = rr[j];
}

}  // namespace bigtune::kernels::modular
