// The host path of a launch without its per-call overheads (addbw, session 6:
// bench/notes/add-cluster.md): validate_shapes' message-free fast path must
// take exactly validate_shapes_reporting's decisions, and find_variant's index
// must find what a scan of the registry finds.
#include <gtest/gtest.h>

#include <string>

#include "kernels/registry.hpp"
#include "runtime/validate.hpp"

namespace bigtune::runtime {
namespace {

bool reporting_accepts(Op op, Shape r, Shape a, Shape b) {
  try {
    validate_shapes_reporting(op, r, a, b);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    return false;
  }
  return true;
}

TEST(LaunchHostPath, ShapesFastPathDecidesAsTheReportingPath) {
  // Every op, shapes around the boundaries each check tests: zero and equal
  // counts, equal / one-off / double bit-sizes, the sqrt half.
  const uint64_t bits[] = {0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 1999, 2000, 2001};
  const uint64_t counts[] = {0, 1, 5, 6};
  uint64_t checked = 0, accepted = 0;
  for (kernels::Op kop : kernels::kAllOps) {
    const Op op = static_cast<Op>(static_cast<int>(kop));
    for (uint64_t ab : bits)
      for (uint64_t rb : bits)
        for (uint64_t bb : {ab, ab + 1, ab / 2}) {
          for (uint64_t ac : counts)
            for (uint64_t rc : {ac, ac + 1})
              for (uint64_t bc : {ac, ac + 1}) {
                const Shape r{rb, rc}, a{ab, ac}, b{bb, bc};
                const bool fast = shapes_valid(op, r, a, b), slow = reporting_accepts(op, r, a, b);
                EXPECT_EQ(fast, slow) << op_name(op) << " r " << rb << "x" << rc << " a " << ab << "x" << ac << " b "
                                      << bb << "x" << bc;
                ++checked;
                accepted += slow;
                // And validate_shapes itself throws exactly when the reporting path does.
                bool threw = false;
                try {
                  validate_shapes(op, r, a, b);
                } catch (const Error&) {
                  threw = true;
                }
                EXPECT_EQ(threw, !slow);
              }
        }
  }
  EXPECT_GT(accepted, 1000u);  // both outcomes exercised
  EXPECT_GT(checked - accepted, 1000u);
}

TEST(LaunchHostPath, FindVariantIndexMatchesAScan) {
  const auto& all = kernels::registry();
  for (const kernels::Variant& v : all) {
    const kernels::Variant* first = nullptr;
    for (const kernels::Variant& w : all)
      if (w.name == v.name) {
        first = &w;
        break;
      }
    EXPECT_EQ(kernels::find_variant(v.name), first) << v.name;
  }
  EXPECT_EQ(kernels::find_variant("add.cluster.u64.q4.t512.nonexistent"), nullptr);
  EXPECT_EQ(kernels::find_variant(""), nullptr);
  const std::string name = "add.cluster.u64.q4.t512";  // a view into a temporary buffer works too
  ASSERT_NE(kernels::find_variant(std::string_view(name).substr(0)), nullptr);
}

}  // namespace
}  // namespace bigtune::runtime
