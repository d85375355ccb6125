// Arithmetic in the prime field p = 2^64 - 2^32 + 1 ("Goldilocks"), the 64-bit
// field of bigtune's NTT multiplication (kernels/block/ntt.cuh).
//
// Why this field rather than seed 000 §4's p = 29·2^57 + 1: p - 1 = 2^32·(2^32 - 1)
// has 2-power roots of unity up to length 2^32, and 2^64 ≡ 2^32 - 1, 2^96 ≡ -1
// (mod p), so a 128-bit product reduces with two shifts, one subtraction and
// one addition instead of a Montgomery or Barrett step (issue 3 names it as
// the field with cheaper reduction).
//
// Every function takes canonical values (< p) and returns canonical values.
// Host and device share this code: the CPU unit tests run the same math.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define BIGTUNE_FIELD_HD __host__ __device__ __forceinline__
#else
#define BIGTUNE_FIELD_HD inline
#endif

namespace bigtune::kernels::arith {

struct Goldilocks {
  using Elem = uint64_t;
  static constexpr uint64_t kP = 0xffffffff00000001ull;
  static constexpr uint64_t kEpsilon = 0xffffffffull;  // 2^64 mod p
  static constexpr uint64_t kGenerator = 7;            // generates the whole multiplicative group
  static constexpr int kMaxLog = 32;                   // roots of unity of order 2^k, k <= 32
  // Digit width of the transform: a product coefficient is a sum of at most
  // n terms below 2^32, exact while n * (2^16-1)^2 < p, i.e. for any n < 2^32
  // coefficients (operands far beyond a block's reach). Wider digits would
  // not shorten power-of-two transforms below 2^32 digits (see ntt_layout.hpp).
  static constexpr int kDigitBits = 16;

  BIGTUNE_FIELD_HD static uint64_t add(uint64_t a, uint64_t b) {
    uint64_t s = a + b;
    if (s < a) return s + kEpsilon;  // a + b - 2^64 + (2^64 mod p) < p: no second overflow
    return s >= kP ? s - kP : s;
  }
  BIGTUNE_FIELD_HD static uint64_t sub(uint64_t a, uint64_t b) {
    const uint64_t d = a - b;
    return a < b ? d - kEpsilon : d;  // wrapped by 2^64, i.e. by p + epsilon
  }
  BIGTUNE_FIELD_HD static uint64_t neg(uint64_t a) { return a == 0 ? 0 : kP - a; }

  // (hi·2^64 + lo) mod p for any 128-bit value: hi = h1·2^32 + h0 gives
  // lo - h1 + h0·(2^32 - 1).
  BIGTUNE_FIELD_HD static uint64_t reduce128(uint64_t lo, uint64_t hi) {
    const uint64_t h1 = hi >> 32, h0 = hi & 0xffffffffull;
    uint64_t t = lo - h1;
    if (lo < h1) t -= kEpsilon;
    const uint64_t u = (h0 << 32) - h0;
    uint64_t r = t + u;
    if (r < u) return r + kEpsilon;  // canonical: see the bound in add()
    return r >= kP ? r - kP : r;
  }

  BIGTUNE_FIELD_HD static uint64_t mul(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
    return reduce128(a * b, __umul64hi(a, b));
#else
    const unsigned __int128 x = static_cast<unsigned __int128>(a) * b;
    return reduce128(uint64_t(x), uint64_t(x >> 64));
#endif
  }

  BIGTUNE_FIELD_HD static uint64_t pow(uint64_t base, uint64_t e) {
    uint64_t r = 1;
    while (e) {
      if (e & 1) r = mul(r, base);
      base = mul(base, base);
      e >>= 1;
    }
    return r;
  }

  // Twiddles (ntt.cuh NttTables): the element itself, one table element each
  // (crt3_field.cuh stores Shoup pairs).
  struct Twiddle {
    uint64_t w;
  };
  static constexpr int kTwiddleElems = 1;
  BIGTUNE_FIELD_HD static uint64_t twiddle_part(uint64_t w, int) { return w; }
  BIGTUNE_FIELD_HD static uint64_t mul_twiddle(uint64_t x, const Twiddle& t) { return mul(x, t.w); }
  BIGTUNE_FIELD_HD static uint64_t sub_mul_twiddle(uint64_t u, uint64_t v, const Twiddle& t) {
    return mul(sub(u, v), t.w);
  }

  // The hooks kernels/block/ntt.cuh calls on any field (arith/crt3_field.cuh
  // has the same): the unit, a digit as an element (digits < 2^16 < p), the
  // exact integer of a coefficient (< p < 2^64: hi = 0), a read-only load.
  BIGTUNE_FIELD_HD static uint64_t one() { return 1; }
  BIGTUNE_FIELD_HD static uint64_t from_digit(uint64_t d) { return d; }
  // d·s (the inverse transform's N^-1 folded into an operand, ntt.cuh).
  BIGTUNE_FIELD_HD static Twiddle digit_scale(uint64_t s) { return Twiddle{s}; }
  BIGTUNE_FIELD_HD static uint64_t from_digit_scaled(uint64_t d, const Twiddle& c) { return mul(d, c.w); }
  BIGTUNE_FIELD_HD static void to_integer(uint64_t c, uint64_t& lo, uint64_t& hi) { lo = c, hi = 0; }
  BIGTUNE_FIELD_HD static uint64_t load(const uint64_t* p) {
#if defined(__CUDA_ARCH__)
    return __ldg(p);
#else
    return *p;
#endif
  }
  BIGTUNE_FIELD_HD static Twiddle load_twiddle(const Twiddle* p) { return Twiddle{load(&p->w)}; }

  // A primitive 2^log_n-th root of unity and the inverse of 2^log_n.
  BIGTUNE_FIELD_HD static uint64_t root_of_unity(int log_n) { return pow(kGenerator, (kP - 1) >> log_n); }
  BIGTUNE_FIELD_HD static uint64_t inverse_pow2(int log_n) {
    // 2^k · (p-1)/2^k = p - 1 ≡ -1, so 2^-k = p - (p-1)/2^k.
    return kP - ((kP - 1) >> log_n);
  }
};

}  // namespace bigtune::kernels::arith
