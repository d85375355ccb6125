// `bigtune profile`'s launch targets (cli/profile_target.cpp) for every op:
// each op's default variant, profiled as the command does, must run on the
// profiler's stream without a fault. Session 6 found the target handing the
// modular variants no modulus (a null m: cudaErrorIllegalAddress) and
// divmod no remainder batch; the target now lays batches out as
// runtime::op_layout says and calls the op through the Context.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

#include "bigtune/bigtune.hpp"
#include "cli/profile_target.hpp"
#include "tests/gpu/gpu_available.hpp"

namespace bigtune {
namespace {

TEST(ProfileTarget, EveryOpsDefaultVariantRunsOnTheProfilersStream) {
  BIGTUNE_REQUIRE_GPU();
  Context ctx;
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  int checked = 0;
  // 1000 bits: a size every op takes, odd in limbs; 4096 and 40000 reach the
  // warp Montgomery/Barrett and the composed (multi-kernel) variants.
  for (const uint64_t bits : {1000ull, 4096ull, 40000ull}) {
    for (int o = int(Op::Add); o <= int(Op::Sqrt); ++o) {
      const Op op = static_cast<Op>(o);
      const uint64_t count = bits > 8192 ? 64 : 512;
      Plan plan;
      try {
        plan = ctx.plan(op, bits, count);
      } catch (const Error&) {
        continue;  // no variant of this op at this size (gcd/sqrt above their range)
      }
      cli::ProfileRequest req;
      req.variant = plan.variant;
      req.bits = bits;
      req.count = count;
      req.ipb = plan.ipb;
      req.rotations = 2;
      SCOPED_TRACE(std::string(op_name(op)) + " " + plan.variant + " bits=" + std::to_string(bits));
      const profiler::LaunchTarget t = cli::make_profile_target(req);
      ASSERT_EQ(t.rotations, 2);
      for (int rotation = 0; rotation < t.rotations; ++rotation) t.launch(stream, rotation);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess) << cudaGetErrorString(cudaGetLastError());
      ++checked;
    }
  }
  cudaStreamDestroy(stream);
  EXPECT_GE(checked, 40) << "too few ops had a default plan";
}

}  // namespace
}  // namespace bigtune
