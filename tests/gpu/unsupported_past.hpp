// The check every GPU differential test makes at a variant's size limit: an
// explicit plan must refuse operands just past it with ErrorCode::Unsupported
// (never a wrong result or a hang). One instance, batches as
// runtime::op_layout lays out the op at that size.
#pragma once
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "bigtune/bigtune.hpp"
#include "bigtune/error.hpp"
#include "runtime/run_op.hpp"

namespace bigtune::test {

// Returns the refusal's message (empty when the plan was not refused as
// Unsupported; the test has failed then).
inline std::string expect_unsupported_past(Context& ctx, Op op, const Plan& plan, uint64_t past, uint64_t limit) {
  const runtime::OpLayout l = runtime::op_layout(op, past);
  std::optional<Batch> a, b, c, m, r, r2;
  std::optional<Flags> f;
  runtime::OpBatches io;
  io.a = &a.emplace(ctx, past, 1);
  if (l.b_bits) io.b = &b.emplace(ctx, l.b_bits, 1);
  if (l.c_bits) io.c = &c.emplace(ctx, l.c_bits, 1);
  if (l.m_bits) io.m = &m.emplace(ctx, l.m_bits, 1);
  if (l.r_bits) io.r = &r.emplace(ctx, l.r_bits, 1);
  if (l.r2_bits) io.r2 = &r2.emplace(ctx, l.r2_bits, 1);
  if (l.flags) io.flags = &f.emplace(ctx, 1);
  try {
    runtime::run_op(ctx, op, io, &plan);
    ADD_FAILURE() << plan.variant << " accepted " << past << " bits, past its limit " << limit;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported) << plan.variant << ": " << e.what();
    if (e.code() == ErrorCode::Unsupported) return e.what();
  }
  return "";
}

}  // namespace bigtune::test
