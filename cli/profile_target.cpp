// The factory `bigtune profile` uses to turn (variant, bits, count, ipb) into
// a profiler::LaunchTarget: batches for each input rotation laid out as
// runtime::op_layout says (the layout the tuner and bigtune check use, so
// every op can be profiled: divmod's remainder, mulmod's modulus, powm's
// exponent), random operands, and a launch closure that runs the op through
// the Context (runtime::run_op with the explicit plan: scratch, moduli and
// multi-kernel variants as a user's call gets them) on the profiler's stream.
#include "cli/profile_target.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"

namespace bigtune::cli {

namespace {
struct InputSet {
  std::optional<Batch> a, b, c, m, r, r2;
  std::optional<Flags> flags;
};

struct Buffers {
  std::unique_ptr<Context> ctx;
  std::vector<InputSet> sets;
};

// Random words below 2^bits; `top` sets the top bit (divisors, moduli),
// `below_top` clears it (operands that must stay below such a modulus), `odd`
// sets bit 0 (moduli: the Montgomery variants take odd ones).
void fill_random(Batch& batch, std::mt19937_64& rng, bool top = false, bool below_top = false, bool odd = false) {
  std::vector<uint64_t> w(batch.words_per_instance() * batch.count());
  const uint64_t per = batch.words_per_instance(), top_word = batch.bits() / 64, rest = batch.bits() % 64;
  for (size_t i = 0; i < w.size(); ++i) {
    const uint64_t j = i % per;
    uint64_t v = rng();
    if (j > top_word || (j == top_word && rest == 0)) v = 0;
    else if (j == top_word) v &= (uint64_t(1) << rest) - 1;
    w[i] = v;
  }
  const uint64_t tb = (batch.bits() - 1) % 64;
  for (uint64_t i = 0; i < batch.count(); ++i) {
    uint64_t& t = w[i * per + (batch.bits() - 1) / 64];
    if (top) t |= uint64_t(1) << tb;
    if (below_top) t &= ~(uint64_t(1) << tb);
    if (odd) w[i * per] |= 1;
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
  ContextOptions options;
  options.use_tuning_db = false;  // an explicit plan; nothing to look up or record
  buffers->ctx = std::make_unique<Context>(req.device, options);
  Context& ctx = *buffers->ctx;
  const runtime::OpLayout layout = runtime::op_layout(op, req.bits);
  Plan plan{v->name, req.ipb, "explicit", 0.0};
  if (plan.ipb == 0) {  // the variant's own choice: the default rule restricted to it
    plan.ipb = std::max<uint32_t>(1, 256 / std::max<uint32_t>(1, kernels::threads_per_instance(*v, req.bits)));
    while (plan.ipb > 1 && !kernels::why_invalid(*v, req.bits, req.count, plan.ipb, ctx.impl().limits).empty())
      plan.ipb /= 2;
  }
  // The launch geometry the Context will use (for occupancy and the facts);
  // it also rejects a size or IPB the variant cannot run, before any batch
  // is allocated.
  const PreparedLaunch prepared =
      prepare_launch(op, plan, req.bits, req.count, layout.r_bits ? layout.r_bits : req.bits, ctx.impl().limits);
  // Enough input sets to exceed twice the L2 (50 MB on an H100), at most 8.
  const uint64_t set_bytes = (req.bits + layout.r_bits + layout.b_bits + layout.c_bits + layout.r2_bits + 64) / 8 *
                             req.count;
  const int rotations =
      req.rotations > 0 ? req.rotations
                        : int(std::clamp<uint64_t>(100'000'000 / std::max<uint64_t>(set_bytes, 1) + 1, 1, 8));
  const bool modular = layout.m_bits != 0;
  std::mt19937_64 rng(req.bits * 1000003 + req.count);
  for (int k = 0; k < rotations; ++k) {
    InputSet& s = buffers->sets.emplace_back();
    s.a.emplace(ctx, req.bits, req.count);
    fill_random(*s.a, rng, false, modular);
    if (layout.b_bits) {  // powm's exponent may use every bit; divisors have their top bit
      s.b.emplace(ctx, layout.b_bits, req.count);
      fill_random(*s.b, rng, op == Op::DivMod, modular && op != Op::PowM);
    }
    if (layout.c_bits) s.c.emplace(ctx, layout.c_bits, req.count), fill_random(*s.c, rng);
    if (layout.m_bits)
      s.m.emplace(ctx, layout.m_bits, layout.one_modulus ? 1 : req.count), fill_random(*s.m, rng, true, false, true);
    if (layout.r_bits) s.r.emplace(ctx, layout.r_bits, req.count);
    if (layout.r2_bits) s.r2.emplace(ctx, layout.r2_bits, req.count);
    if (layout.flags) s.flags.emplace(ctx, req.count);
  }
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
  // Composed variants (Karatsuba, NTT passes, Newton and Barrett
  // compositions) enqueue several kernels per call: 0 lets the timer count
  // them from the records; the counters need a count and get 1 per call of a
  // single-kernel variant only (cmd_profile reports them unavailable else).
  t.kernels_per_launch = v->shape && v->shape->launch ? 0 : 1;
  Buffers* raw = buffers.get();
  const uint64_t shift = 1 + req.bits / 3;
  t.launch = [raw, plan, op, shift](cudaStream_t stream, int rotation) {
    InputSet& s = raw->sets[size_t(rotation)];
    runtime::OpBatches x;
    x.a = &*s.a;
    x.b = s.b ? &*s.b : nullptr;
    x.c = s.c ? &*s.c : nullptr;
    x.m = s.m ? &*s.m : nullptr;
    x.r = s.r ? &*s.r : nullptr;
    x.r2 = s.r2 ? &*s.r2 : nullptr;
    x.flags = s.flags ? &*s.flags : nullptr;
    x.shift = shift;
    // The Context enqueues on its own stream: lend it the profiler's for
    // this call (events and counters are recorded there), and give it back
    // even when the call throws, since the Context destroys its stream.
    Context::Impl& impl = raw->ctx->impl();
    struct StreamLoan {
      Context::Impl& impl;
      cudaStream_t own;
      ~StreamLoan() { impl.stream = own; }
    } loan{impl, impl.stream};
    if (stream) impl.stream = stream;
    runtime::run_op(*raw->ctx, op, x, &plan);
  };
  t.keep_alive = buffers;
  return t;
}

}  // namespace bigtune::cli
