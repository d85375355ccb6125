// One entry for "run op on these batches": the dispatch from an Op value to
// the Context method, for code that iterates over ops (bigtune check, the
// benchmark, the GPU tests). `b` is ignored by shifts, `shift` by the rest;
// `flags` receives carries, borrows or the cmp result.
#pragma once
#include <cstdint>

#include "bigtune/bigtune.hpp"

namespace bigtune::runtime {

void run_op(Context& ctx, Op op, Batch& r, const Batch& a, const Batch& b, Flags* flags, uint64_t shift,
            const Plan* plan = nullptr);

}  // namespace bigtune::runtime
