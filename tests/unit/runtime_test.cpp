// Host-side runtime pieces without a GPU: argument validation, the default
// plan, mpz <-> words conversion, the GMP reference semantics, the C ABI's
// handling of bad arguments and of a missing device.
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bigtune/bigtune.h"
#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/default_plan.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/mpz_words.hpp"
#include "runtime/validate.hpp"
#include "tests/support/operands.hpp"

namespace bigtune::runtime {
namespace {

const kernels::DeviceLimits kH100 = kernels::DeviceLimits::h100();

ErrorCode code_of_shapes(Op op, Shape r, Shape a, Shape b) {
  try {
    validate_shapes(op, r, a, b);
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::Internal;  // "no error"
}

TEST(Validate, ShapesPerOp) {
  const Shape s{1000, 10};
  EXPECT_EQ(code_of_shapes(Op::Add, s, s, s), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Add, s, s, {1000, 11}), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Add, s, s, {1064, 10}), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Add, {1064, 10}, s, s), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Add, {1000, 9}, s, s), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Mul, {2000, 10}, s, s), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Mul, {1999, 10}, s, s), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Shl, s, s, {}), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Cmp, {0, 10}, s, s), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Cmp, {0, 3}, s, s), ErrorCode::InvalidArgument);
  try {
    validate_shapes(Op::Mul, {1999, 10}, s, s);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at least 2000 bits"), std::string::npos) << e.what();
  }
}

TEST(Validate, PlansNameTheirProblem) {
  EXPECT_NO_THROW(validate_plan({"add.scan.u64.q4", 2, "explicit", 0}, Op::Add, 4096, 10, kH100));
  try {
    validate_plan({"add.scan.u64.q4", 2, "explicit", 0}, Op::Mul, 4096, 10, kH100);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
  }
  try {
    validate_plan({"add.scan.u64.q1", 1, "explicit", 0}, Op::Add, 1 << 20, 10, kH100);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("threads per block"), std::string::npos) << e.what();
  }
}

TEST(DefaultPlan, ValidForEverySupportedSizeAndNoneBeyond) {
  for (Op op : {Op::Add, Op::Sub, Op::Cmp, Op::Shl, Op::Shr, Op::MulLow, Op::Mul}) {
    uint64_t largest = 0;
    for (const kernels::Variant& v : kernels::registry())
      if (v.op == to_kernel_op(op)) largest = std::max(largest, kernels::max_operand_bits(v, kH100));
    for (uint64_t bits = 1; bits <= largest; bits = bits * 3 / 2 + 7) {
      for (uint64_t count : {1ull, 100ull, 1ull << 22}) {
        const auto plan = default_plan(op, bits, count, kH100);
        ASSERT_TRUE(plan) << op_name(op) << " " << bits;
        EXPECT_NO_THROW(validate_plan(*plan, op, bits, count, kH100)) << plan->variant;
        EXPECT_LE(plan->ipb, count);
        EXPECT_EQ(plan->source, "default");
      }
    }
    EXPECT_TRUE(default_plan(op, largest, 10, kH100));
    EXPECT_FALSE(default_plan(op, largest + 64, 10, kH100)) << op_name(op);
  }
}

TEST(MpzWords, RoundTripAndRange) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed());
  mpz_t v, back;
  mpz_inits(v, back, nullptr);
  for (uint64_t bits : {1ull, 63ull, 64ull, 65ull, 1000ull, 4097ull}) {
    const size_t words = (bits + 63) / 64;
    for (int kind = 0; kind < test::kOperandKinds; ++kind) {
      test::make_operand(v, rng, bits, static_cast<test::OperandKind>(kind));
      std::vector<uint64_t> w(words, 0x1234);
      mpz_to_words(w.data(), words, bits, v);
      EXPECT_TRUE(words_fit_bits(w.data(), words, bits));
      words_to_mpz(back, w.data(), words);
      EXPECT_EQ(mpz_cmp(v, back), 0) << bits << " " << test::hex(v);
    }
    mpz_set_ui(v, 0);
    mpz_setbit(v, bits);  // 2^bits: one too many
    std::vector<uint64_t> w(words + 1);
    EXPECT_THROW(mpz_to_words(w.data(), words, bits, v), Error);
    mpz_set_si(v, -1);
    EXPECT_THROW(mpz_to_words(w.data(), words, bits, v), Error);
  }
  std::vector<uint64_t> w{0, 1};
  EXPECT_TRUE(words_fit_bits(w.data(), 2, 65));
  EXPECT_FALSE(words_fit_bits(w.data(), 2, 64));
  mpz_clears(v, back, nullptr);
  gmp_randclear(rng);
}

TEST(GmpReference, FlagsAndModularResults) {
  mpz_t a, b, r;
  mpz_inits(a, b, r, nullptr);
  int flag = 0;
  mpz_set_ui(a, 0);
  mpz_setbit(a, 100);
  mpz_sub_ui(a, a, 1);  // 2^100 - 1
  mpz_set_ui(b, 1);
  gmp_reference(Op::Add, 100, 0, a, b, r, &flag);
  EXPECT_EQ(mpz_sgn(r), 0);
  EXPECT_EQ(flag, 1);
  gmp_reference(Op::Sub, 100, 0, b, a, r, &flag);  // 1 - (2^100 - 1) mod 2^100 = 2
  EXPECT_EQ(mpz_cmp_ui(r, 2), 0);
  EXPECT_EQ(flag, 1);
  gmp_reference(Op::Cmp, 100, 0, b, a, r, &flag);
  EXPECT_EQ(flag, -1);
  gmp_reference(Op::Shl, 100, 99, b, b, r, &flag);
  EXPECT_EQ(mpz_sizeinbase(r, 2), 100u);
  gmp_reference(Op::Shl, 100, 100, b, b, r, &flag);
  EXPECT_EQ(mpz_sgn(r), 0);
  gmp_reference(Op::MulLow, 100, 0, a, a, r, &flag);  // (2^100-1)^2 mod 2^100 = 1
  EXPECT_EQ(mpz_cmp_ui(r, 1), 0);
  mpz_clears(a, b, r, nullptr);
}

TEST(CAbi, NullArgumentsAndNoDevice) {
  EXPECT_EQ(bigtune_context_create(0, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(bigtune_last_error()).find("NULL"), std::string::npos);
  EXPECT_EQ(bigtune_add(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  int n = 0;
  const bool gpu = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  bigtune_context* ctx = nullptr;
  const bigtune_status st = bigtune_context_create(gpu ? n : 0, &ctx);  // device n never exists
  EXPECT_EQ(st, gpu ? BIGTUNE_ERROR_INVALID_ARGUMENT : BIGTUNE_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(bigtune_last_error()).find(" — "), std::string::npos) << bigtune_last_error();
  EXPECT_EQ(ctx, nullptr);
}

TEST(Context, NoDeviceIsAClearError) {
  int n = 0;
  if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) GTEST_SKIP() << "a GPU is present";
  cudaGetLastError();
  try {
    Context ctx;
    FAIL() << "a Context was created without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::NoDevice);
    EXPECT_NE(std::string(e.what()).find("bigtune query"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bigtune::runtime
