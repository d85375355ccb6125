// Errors a user can meet on a GPU: each is a bigtune::Error with the right code
// and a message saying what to do, and the context stays usable afterwards.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bigtune/bigtune.h"
#include "bigtune/bigtune.hpp"
#include "tests/gpu/gpu_available.hpp"

namespace bigtune {
namespace {

template <class F>
ErrorCode code_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(" — "), std::string::npos) << "no advice in: " << e.what();
    return e.code();
  }
  ADD_FAILURE() << "no error raised";
  return ErrorCode::Internal;
}

TEST(GpuErrors, ShapesPlansAndMemory) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  Batch a(ctx, 1000, 10), b(ctx, 1000, 10), c(ctx, 1000, 11), w(ctx, 1064, 10), p(ctx, 1999, 10);
  EXPECT_EQ(code_of([&] { ctx.add(a, a, c); }), ErrorCode::InvalidArgument);      // counts differ
  EXPECT_EQ(code_of([&] { ctx.add(a, a, w); }), ErrorCode::InvalidArgument);      // bit-sizes differ
  EXPECT_EQ(code_of([&] { ctx.mul(p, a, b); }), ErrorCode::InvalidArgument);      // product does not fit
  Flags f(ctx, 9);
  EXPECT_EQ(code_of([&] { ctx.add(a, a, b, &f); }), ErrorCode::InvalidArgument);  // flags count
  const Plan wrong_op{"mul.classical.u64.q4", 1, "explicit", 0};
  EXPECT_EQ(code_of([&] { ctx.add(a, a, b, nullptr, &wrong_op); }), ErrorCode::InvalidArgument);
  const Plan unknown{"add.magic.u64.q3", 1, "explicit", 0};
  EXPECT_EQ(code_of([&] { ctx.add(a, a, b, nullptr, &unknown); }), ErrorCode::InvalidArgument);
  const Plan too_wide{"add.scan.u64.q1", 1000, "explicit", 0};
  EXPECT_EQ(code_of([&] { ctx.add(a, a, b, nullptr, &too_wide); }), ErrorCode::Unsupported);
  EXPECT_EQ(code_of([&] { Batch huge(ctx, uint64_t(1) << 30, uint64_t(1) << 12); }), ErrorCode::OutOfMemory);
  std::vector<uint64_t> words(a.words_per_instance() * a.count(), ~0ull);
  EXPECT_EQ(code_of([&] { a.upload(words.data(), words.size()); }), ErrorCode::InvalidArgument);  // > 2^1000
  EXPECT_EQ(code_of([&] { a.upload(words.data(), words.size() - 1); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { ctx.mul(p, a, b, nullptr); }), ErrorCode::InvalidArgument);
  // Still usable after all of that.
  std::vector<uint64_t> ones(a.words_per_instance() * a.count(), 0);
  for (size_t i = 0; i < ones.size(); i += a.words_per_instance()) ones[i] = 1;
  a.upload(ones.data(), ones.size());
  b.upload(ones.data(), ones.size());
  ctx.add(a, a, b);
  const auto out = a.download();
  EXPECT_EQ(out[0], 2u);
}

TEST(GpuErrors, CAbiRoundTripAndMessages) {
  BIGTUNE_REQUIRE_GPU();
  bigtune_context* ctx = nullptr;
  ASSERT_EQ(bigtune_context_create(0, &ctx), BIGTUNE_OK);
  bigtune_batch *a = nullptr, *b = nullptr, *r = nullptr;
  ASSERT_EQ(bigtune_batch_create(ctx, 128, 4, &a), BIGTUNE_OK);
  ASSERT_EQ(bigtune_batch_create(ctx, 128, 4, &b), BIGTUNE_OK);
  ASSERT_EQ(bigtune_batch_create(ctx, 256, 4, &r), BIGTUNE_OK);
  std::vector<uint64_t> x(8, 0);
  for (int i = 0; i < 4; ++i) x[2 * i] = uint64_t(i + 3), x[2 * i + 1] = 1;  // 2^64 + i + 3
  ASSERT_EQ(bigtune_batch_upload(a, x.data(), x.size()), BIGTUNE_OK);
  ASSERT_EQ(bigtune_batch_upload(b, x.data(), x.size()), BIGTUNE_OK);
  ASSERT_EQ(bigtune_mul(ctx, r, a, b, nullptr), BIGTUNE_OK) << bigtune_last_error();
  std::vector<uint64_t> out(16);
  ASSERT_EQ(bigtune_batch_download(r, out.data(), out.size()), BIGTUNE_OK);
  for (int i = 0; i < 4; ++i) {  // (2^64 + c)^2 = 2^128 + 2c 2^64 + c^2
    const uint64_t c = uint64_t(i + 3);
    EXPECT_EQ(out[4 * i], c * c);
    EXPECT_EQ(out[4 * i + 1], 2 * c);
    EXPECT_EQ(out[4 * i + 2], 1u);
    EXPECT_EQ(out[4 * i + 3], 0u);
  }
  EXPECT_EQ(bigtune_mul(ctx, a, a, b, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(bigtune_last_error()).find("too small for the full product"), std::string::npos);
  char name[64];
  uint32_t ipb = 0;
  ASSERT_EQ(bigtune_plan_for(ctx, BIGTUNE_OP_MUL, 128, 4, name, sizeof name, &ipb), BIGTUNE_OK);
  EXPECT_EQ(std::string(name).rfind("mul.", 0), 0u);
  EXPECT_GE(ipb, 1u);
  bigtune_batch_destroy(a);
  bigtune_batch_destroy(b);
  bigtune_batch_destroy(r);
  bigtune_context_destroy(ctx);
}

}  // namespace
}  // namespace bigtune
