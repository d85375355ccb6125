#include "tests/support/operands.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace bigtune::test {

uint64_t test_seed() {
  static const uint64_t seed = [] {
    const char* env = std::getenv("BIGTUNE_TEST_SEED");
    const uint64_t s = env ? std::strtoull(env, nullptr, 0) : 20261122;
    std::printf("BIGTUNE_TEST_SEED=%llu\n", static_cast<unsigned long long>(s));
    return s;
  }();
  return seed;
}

void make_operand(mpz_t v, gmp_randstate_t rng, uint64_t bits, OperandKind kind) {
  switch (kind) {
    case OperandKind::Uniform: mpz_urandomb(v, rng, bits); return;
    case OperandKind::Runs: mpz_rrandomb(v, rng, bits); return;
    case OperandKind::Zero: mpz_set_ui(v, 0); return;
    case OperandKind::One: mpz_set_ui(v, 1); return;
    case OperandKind::AllOnes:
      mpz_set_ui(v, 0);
      mpz_setbit(v, bits);
      mpz_sub_ui(v, v, 1);
      return;
    case OperandKind::HighBitOnly:
      mpz_set_ui(v, 0);
      mpz_setbit(v, bits - 1);
      return;
    case OperandKind::EdgeLimbs: {
      static const uint64_t limbs[] = {0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull,
                                       0xffffffffull, 0x100000000ull};
      mpz_set_ui(v, 0);
      mpz_t limb;
      mpz_init(limb);
      for (uint64_t w = 0; w * 64 < bits; ++w) {
        const uint64_t x = limbs[gmp_urandomm_ui(rng, sizeof limbs / sizeof limbs[0])];
        mpz_import(limb, 1, -1, sizeof x, 0, 0, &x);
        mpz_mul_2exp(limb, limb, 64 * w);
        mpz_ior(v, v, limb);
      }
      mpz_clear(limb);
      mpz_fdiv_r_2exp(v, v, bits);
      return;
    }
  }
}

void make_pair(mpz_t a, mpz_t b, gmp_randstate_t rng, uint64_t bits, uint64_t i) {
  switch (i % 12) {
    case 0:  // a carry through every limb: (2^bits - 1) + 1
      make_operand(a, rng, bits, OperandKind::AllOnes);
      make_operand(b, rng, bits, OperandKind::One);
      return;
    case 1:  // a borrow through every limb: 0 - 1
      make_operand(a, rng, bits, OperandKind::Zero);
      make_operand(b, rng, bits, OperandKind::One);
      return;
    case 2:  // equal operands
      make_operand(a, rng, bits, OperandKind::Uniform);
      mpz_set(b, a);
      return;
    case 3:
      make_operand(a, rng, bits, OperandKind::AllOnes);
      make_operand(b, rng, bits, OperandKind::AllOnes);
      return;
    case 4:
      make_operand(a, rng, bits, OperandKind::HighBitOnly);
      make_operand(b, rng, bits, OperandKind::Runs);
      return;
    case 5:
      make_operand(a, rng, bits, OperandKind::EdgeLimbs);
      make_operand(b, rng, bits, OperandKind::EdgeLimbs);
      return;
    case 6:
      make_operand(a, rng, bits, OperandKind::Runs);
      make_operand(b, rng, bits, OperandKind::Runs);
      return;
    case 7:  // differ only in the lowest bit
      make_operand(a, rng, bits, OperandKind::Uniform);
      mpz_set(b, a);
      mpz_combit(b, 0);
      return;
    default:
      make_operand(a, rng, bits, OperandKind::Uniform);
      make_operand(b, rng, bits, OperandKind::Uniform);
      return;
  }
}

std::string hex(const mpz_t v) {
  char* s = mpz_get_str(nullptr, 16, v);
  std::string out = std::string("0x") + s;
  void (*free_fn)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_fn);
  free_fn(s, out.size() - 1);  // strlen(s) + 1 bytes were allocated
  return out;
}

uint64_t max_bits_cap() {
  const char* env = std::getenv("BIGTUNE_TEST_MAX_BITS");
  return env ? std::strtoull(env, nullptr, 0) : ~uint64_t(0);
}

}  // namespace bigtune::test
