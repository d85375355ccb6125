// Operands that exercise the Karatsuba split (kernels/block/karatsuba.hpp):
// equal halves (|a0 - a1| = 0), a0 < a1 against b0 > b1 (a negative middle
// product), all-ones, and the general mix of operands.hpp. Words are 64-bit,
// little-endian; the top split is at N/2 = 2^(L-1) * ceil(n / 2^L) words.
#pragma once
#include <gmp.h>

#include <cstdint>
#include <vector>

#include "tests/support/operands.hpp"

namespace bigtune::test {

constexpr int kKaraOperandKinds = 6;

// Operand pair kind `kind` (0 .. kKaraOperandKinds-1) of n words, top split at `half` words.
inline void make_kara_pair(std::vector<uint64_t>& a, std::vector<uint64_t>& b, uint32_t n, uint32_t half, int kind,
                           gmp_randstate_t rng, uint64_t index) {
  a.assign(n, 0);
  b.assign(n, 0);
  auto rnd = [&] { return (uint64_t(gmp_urandomb_ui(rng, 32)) << 32) | gmp_urandomb_ui(rng, 32); };
  const uint32_t hi_words = n > half ? n - half : 0;  // words of a1
  switch (kind) {
    case 0: {  // operands.hpp's mix (uniform, runs, 0, 1, all-ones, edge limbs)
      mpz_t x, y;
      mpz_inits(x, y, nullptr);
      make_pair(x, y, rng, uint64_t(n) * 64, index);
      mpz_export(a.data(), nullptr, -1, 8, 0, 0, x);
      mpz_export(b.data(), nullptr, -1, 8, 0, 0, y);
      mpz_clears(x, y, nullptr);
      break;
    }
    case 1:  // a0 = a1 and b0 = b1 (where a1 is as long as a0; else a0's extra words 0)
      for (uint32_t k = 0; k < hi_words; ++k) a[k] = a[half + k] = rnd(), b[k] = b[half + k] = rnd();
      break;
    case 2:  // a0 < a1, b0 > b1: the middle product enters with a minus sign
      for (uint32_t k = 0; k < n; ++k) a[k] = rnd(), b[k] = rnd();
      if (hi_words) a[hi_words - 1] = 0, b[half + hi_words - 1] = 0, a[half + hi_words - 1] |= 1;
      if (hi_words) b[hi_words - 1] = ~uint64_t(0);
      for (uint32_t k = hi_words; k < half && k < n; ++k) a[k] = 0;
      break;
    case 3:  // all-ones: every column sum and carry at its largest
      for (uint32_t k = 0; k < n; ++k) a[k] = b[k] = ~uint64_t(0);
      break;
    case 4:  // all-ones times one / random: long carry ripples through the combine
      for (uint32_t k = 0; k < n; ++k) a[k] = ~uint64_t(0), b[k] = k == 0 ? 1 : 0;
      break;
    default:  // halves differing only in the lowest word: the compare scans every word
      for (uint32_t k = 0; k < n; ++k) a[k] = b[k] = ~uint64_t(0) >> 1;
      if (hi_words) a[0] ^= 1, b[half] ^= 1;
      break;
  }
}

}  // namespace bigtune::test
