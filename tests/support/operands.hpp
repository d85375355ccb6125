// Test operands: one seed (BIGTUNE_TEST_SEED, printed by every run), uniform
// values mixed with GMP random2-style runs of ones and zeros, and the edge
// values that break carry handling.
#pragma once
#include <gmp.h>

#include <cstdint>
#include <string>

namespace bigtune::test {

// The run's seed: $BIGTUNE_TEST_SEED, or a fixed default; printed once.
uint64_t test_seed();

// The largest operand bit-size the GPU tests use: $BIGTUNE_TEST_MAX_BITS
// (compute-sanitizer runs cap the sizes with it), else no cap.
uint64_t max_bits_cap();

enum class OperandKind {
  Uniform,     // uniform bits
  Runs,        // long runs of ones and zeros (mpz_rrandomb)
  Zero,
  One,
  AllOnes,     // 2^bits - 1: every limb 0xff..f
  HighBitOnly, // 2^(bits-1)
  EdgeLimbs,   // limbs drawn from {0, 1, 0x7f..f, 0x80..0, 0xff..f}
};
constexpr int kOperandKinds = 7;

// An operand below 2^bits of the given kind.
void make_operand(mpz_t v, gmp_randstate_t rng, uint64_t bits, OperandKind kind);

// For instance i of a batch: a mix where every kind appears and pairs like
// (all-ones, one) — a carry rippling through every limb — occur.
void make_pair(mpz_t a, mpz_t b, gmp_randstate_t rng, uint64_t bits, uint64_t i);

std::string hex(const mpz_t v);

}  // namespace bigtune::test
