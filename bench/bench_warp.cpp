// bigtune-bench-warp: the ops bigtune-bench does not time — divmod n/(n/2)
// (TARGETS.md's shape) and sqr — for every warp variant, at bits x count =
// 2^32 (as bigtune-bench), widest valid instances-per-block plus one below.
// Timing: CUDA events, 2 warm-ups, median of 7 runs. Prints one CSV row per
// (op, bits, variant, ipb) and the best per (op, bits).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <fmt/format.h>

#include "bench/device_fill.cuh"
#include "bench/event_timing.hpp"
#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"

using namespace bigtune;

namespace {
// 2 warm-ups, 7 timed runs.
template <class F>
double median_ms(F&& launch, cudaStream_t stream) {
  return bench::time_with_events(launch, stream, {2, 7, 7, 0.0f}).median_ms;
}
}  // namespace

int main(int argc, char** argv) {
  const int min_log = argc > 1 ? std::atoi(argv[1]) : 8, max_log = argc > 2 ? std::atoi(argv[2]) : 15;
  try {
    Context ctx;
    cudaStream_t stream = ctx.impl().stream;
    fmt::print("op,bits,count,variant,ipb,median_ms,inst_per_s\n");
    for (Op op : {Op::DivMod, Op::Sqr}) {
      for (int lg = min_log; lg <= max_log; ++lg) {
        const uint64_t bits = uint64_t(1) << lg, count = uint64_t(1) << (32 - lg);
        const runtime::OpLayout lay = runtime::op_layout(op, bits);
        Batch a(ctx, bits, count), r(ctx, lay.r_bits, count);
        Batch b(ctx, lay.b_bits ? lay.b_bits : 1, count), r2(ctx, lay.r2_bits ? lay.r2_bits : 1, count);
        Flags flags(ctx, count);
        BIGTUNE_CUDA_CHECK(bench::fill_random(static_cast<uint64_t*>(a.device_data()), a.words_per_instance(), count, bits, 1, stream));
        BIGTUNE_CUDA_CHECK(bench::fill_random(static_cast<uint64_t*>(b.device_data()), b.words_per_instance(), count, b.bits(), 2, stream));
        runtime::OpBatches io;
        io.r = &r;
        io.a = &a;
        if (op == Op::DivMod) io.b = &b, io.r2 = &r2, io.flags = &flags;
        double best = 0;
        std::string best_name;
        for (const kernels::Variant& v : kernels::registry()) {
          if (v.op != runtime::to_kernel_op(op) || std::string(v.family) != "warp") continue;
          std::vector<uint32_t> ipbs;
          for (uint32_t ipb = 1; ipb <= 1024; ipb *= 2)
            if (kernels::why_invalid(v, bits, count, ipb, ctx.impl().limits).empty()) ipbs.push_back(ipb);
          if (ipbs.size() > 2) ipbs.erase(ipbs.begin(), ipbs.end() - 2);
          for (uint32_t ipb : ipbs) {
            const Plan p{v.name, ipb, "explicit", 0};
            const double ms = median_ms([&] { runtime::run_op(ctx, op, io, &p); }, stream);
            const double rate = count / (ms * 1e-3);
            fmt::print("{},{},{},{},{},{:.6f},{:.6g}\n", op_name(op), bits, count, v.name, ipb, ms, rate);
            if (rate > best) best = rate, best_name = v.name + "/ipb" + std::to_string(ipb);
          }
        }
        if (best > 0) std::fprintf(stderr, "BEST %s %llu bits: %s %.3g inst/s\n", op_name(op), (unsigned long long)bits, best_name.c_str(), best);
      }
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "bigtune-bench-warp: %s\n", e.what());
    return 1;
  }
  return 0;
}
