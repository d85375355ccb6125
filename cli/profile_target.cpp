// The factory `bigtune profile` uses to turn (variant, bits, count, ipb) into
// a profiler::LaunchTarget: batches for each input rotation, random operands,
// and a launch closure that runs the variant on the profiler's stream.
#include "cli/profile_target.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/validate.hpp"

namespace bigtune::cli {

namespace {
struct Buffers {
  std::unique_ptr<Context> ctx;
  std::vector<Batch> a, b, r;
  std::unique_ptr<Flags> flags;
};

void fill_random(Batch& batch, std::mt19937_64& rng) {
  std::vector<uint64_t> w(batch.words_per_instance() * batch.count());
  const uint64_t per = batch.words_per_instance(), top = batch.bits() / 64, rest = batch.bits() % 64;
  for (size_t i = 0; i < w.size(); ++i) {
    const uint64_t j = i % per;
    uint64_t v = rng();
    if (j > top || (j == top && rest == 0)) v = 0;
    else if (j == top) v &= (uint64_t(1) << rest) - 1;
    w[i] = v;
  }
  batch.upload(w.data(), w.size());
}
}  // namespace

profiler::LaunchTarget make_profile_target(const ProfileRequest& req) {
  const kernels::Variant* v = kernels::find_variant(req.variant);
  if (!v)
    throw Error(ErrorCode::InvalidArgument, "no variant named '" + req.variant + "'",
                "list them with `bigtune variants`");
  const Op op = static_cast<Op>(static_cast<int>(v->op));
  auto buffers = std::make_shared<Buffers>();
  buffers->ctx = std::make_unique<Context>(req.device);
  Context& ctx = *buffers->ctx;
  const uint64_t result_bits = op == Op::Mul || op == Op::Sqr ? 2 * req.bits : req.bits;
  Plan plan{v->name, req.ipb, "explicit", 0.0};
  if (plan.ipb == 0) {  // the variant's own choice: the default rule restricted to it
    plan.ipb = std::max<uint32_t>(1, 256 / std::max<uint32_t>(1, kernels::threads_per_instance(*v, req.bits)));
    while (plan.ipb > 1 && !kernels::why_invalid(*v, req.bits, req.count, plan.ipb, ctx.impl().limits).empty())
      plan.ipb /= 2;
  }
  PreparedLaunch prepared = prepare_launch(op, plan, req.bits, req.count, result_bits, ctx.impl().limits);
  // Variants with global scratch (the NTT family's twiddles and spectra), as Context's launch gives them.
  if (const uint64_t sb = kernels::scratch_bytes(*v, req.bits, req.count)) prepared.args.scratch = ctx.impl().scratch_of(sb);
  // Enough input sets to exceed twice the L2 (50 MB on an H100), at most 8.
  const uint64_t bytes = 3 * (req.bits / 8 + 8) * req.count;
  int rotations = req.rotations > 0 ? req.rotations : int(std::clamp<uint64_t>(100'000'000 / std::max<uint64_t>(bytes, 1) + 1, 1, 8));
  std::mt19937_64 rng(req.bits * 1000003 + req.count);
  for (int k = 0; k < rotations; ++k) {
    buffers->a.emplace_back(ctx, req.bits, req.count);
    buffers->b.emplace_back(ctx, req.bits, req.count);
    buffers->r.emplace_back(ctx, result_bits, req.count);
    fill_random(buffers->a.back(), rng);
    fill_random(buffers->b.back(), rng);
  }
  buffers->flags = std::make_unique<Flags>(ctx, req.count);
  profiler::LaunchTarget t;
  t.name = v->name + " bits=" + std::to_string(req.bits) + " count=" + std::to_string(req.count) +
           " ipb=" + std::to_string(plan.ipb);
  t.rotations = rotations;
  t.kernel = v->kernel;
  // Raise the kernel's dynamic shared-memory limit now, as the launch would:
  // the occupancy the profiler reports is computed before the first launch,
  // and above 48 KB the API answers 0 blocks until the limit is raised.
  if (prepared.geometry.smem_bytes > 48 * 1024)
    cudaFuncSetAttribute(v->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(prepared.geometry.smem_bytes));
  t.block_threads = int(prepared.geometry.block);
  t.dynamic_shared_bytes = prepared.geometry.smem_bytes;
  if (op == Op::Add || op == Op::Sub)
    t.work = {{"bytes", 3.0 * req.bits / 8 * req.count}, {"instances", double(req.count)}};
  else
    t.work = {{"instances", double(req.count)}};
  Buffers* raw = buffers.get();
  t.launch = [raw, prepared, op](cudaStream_t stream, int rotation) {
    kernels::KernelArgs args = prepared.args;
    args.r = raw->r[rotation].device_data();
    args.a = raw->a[rotation].device_data();
    args.b = raw->b[rotation].device_data();
    args.flags = raw->flags->device_data();
    args.shift = op == Op::Shl || op == Op::Shr ? 1 + raw->a[rotation].bits() / 3 : 0;
    kernels::launch(*prepared.variant, args, prepared.geometry, stream);
  };
  t.keep_alive = buffers;
  return t;
}

}  // namespace bigtune::cli
