#include "cli/tune_bench.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "bigtune/error.hpp"
#include "profiler/counters.hpp"
#include "profiler/timer.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/run_op.hpp"

namespace bigtune::cli {

struct OpBench::State {
  std::unique_ptr<Context> ctx;
  std::unique_ptr<profiler::Timer> timer;
  std::unique_ptr<profiler::CounterSession> counters;
  std::string counters_why;
  bool counters_tried = false;
  size_t queued = 0;
  Op op = Op::Add;
  uint64_t bits = 0, count = 0;
  uint64_t shift = 0;
  struct Set {
    std::optional<Batch> r, r2, a, b, c, m;
    std::optional<Flags> flags;
  };
  std::vector<Set> sets;
};

namespace {
uint64_t splitmix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// Random words below 2^bits; `top` forces the top bit (moduli), `below_top`
// clears it (operands that must stay below such a modulus), `odd` sets bit 0.
void fill(Batch& b, uint64_t seed, bool top, bool below_top, bool odd) {
  const uint64_t per = b.words_per_instance(), bits = b.bits();
  std::vector<uint64_t> w(per * b.count());
  uint64_t x = seed;
  for (uint64_t i = 0; i < b.count(); ++i) {
    uint64_t* p = &w[i * per];
    for (uint64_t j = 0; j < per; ++j) p[j] = splitmix(x);
    const uint64_t rest = bits % 64;
    if (rest) p[per - 1] &= (uint64_t(1) << rest) - 1;
    const uint64_t tb = (bits - 1) % 64;
    if (top) p[per - 1] |= uint64_t(1) << tb;
    if (below_top) p[per - 1] &= ~(uint64_t(1) << tb);
    if (odd) p[0] |= 1;
  }
  b.upload(w.data(), w.size());
}
}  // namespace

OpBench::OpBench(int device) : s_(std::make_unique<State>()) {
  ContextOptions o;
  o.use_tuning_db = false;  // explicit plans only; nothing recorded
  s_->ctx = std::make_unique<Context>(device, o);
  s_->timer = std::make_unique<profiler::Timer>(device);
}

OpBench::~OpBench() = default;

Context& OpBench::context() { return *s_->ctx; }
const kernels::DeviceLimits& OpBench::limits() { return s_->ctx->impl().limits; }

void OpBench::prepare(Op op, uint64_t bits, uint64_t count, int rotations) {
  if (s_->op == op && s_->bits == bits && s_->count == count && !s_->sets.empty() &&
      (rotations == 0 || int(s_->sets.size()) == rotations))
    return;
  s_->sets.clear();
  cudaDeviceSynchronize();
  const runtime::OpLayout l = runtime::op_layout(op, bits);
  const uint64_t words = (bits + 63) / 64;
  const uint64_t set_bytes = count * 8 *
      (words + (l.r_bits + 63) / 64 + (l.b_bits + 63) / 64 + (l.c_bits + 63) / 64 + (l.r2_bits + 63) / 64);
  if (rotations <= 0)
    rotations = int(std::clamp<uint64_t>(2 * 50'000'000 / std::max<uint64_t>(set_bytes, 1) + 1, 1, 4));
  Context& ctx = *s_->ctx;
  const bool modular = l.m_bits != 0;
  for (int k = 0; k < rotations; ++k) {
    State::Set s;
    const uint64_t seed = bits * 1000003 + count * 7919 + k;
    s.a.emplace(ctx, bits, count);
    fill(*s.a, seed, false, modular, false);
    if (l.b_bits) s.b.emplace(ctx, l.b_bits, count), fill(*s.b, seed + 1, op == Op::DivMod, modular, false);
    if (l.c_bits) s.c.emplace(ctx, l.c_bits, count), fill(*s.c, seed + 2, false, false, false);
    if (l.m_bits) s.m.emplace(ctx, l.m_bits, count), fill(*s.m, seed + 3, true, false, true);
    if (l.r_bits) s.r.emplace(ctx, l.r_bits, count);
    if (l.r2_bits) s.r2.emplace(ctx, l.r2_bits, count);
    if (l.flags) s.flags.emplace(ctx, count);
    s_->sets.push_back(std::move(s));
  }
  cudaDeviceSynchronize();
  s_->op = op, s_->bits = bits, s_->count = count;
  s_->shift = 1 + bits / 3;
}

void OpBench::launch(const Plan& plan, int rotation) {
  State::Set& s = s_->sets[size_t(rotation) % s_->sets.size()];
  runtime::OpBatches x;
  x.r = s.r ? &*s.r : nullptr;
  x.r2 = s.r2 ? &*s.r2 : nullptr;
  x.a = &*s.a;
  x.b = s.b ? &*s.b : nullptr;
  x.c = s.c ? &*s.c : nullptr;
  x.m = s.m ? &*s.m : nullptr;
  x.flags = s.flags ? &*s.flags : nullptr;
  x.shift = s_->shift;
  runtime::run_op(*s_->ctx, s_->op, x, &plan);
}

double OpBench::time_us(const Plan& plan, int warmup, int repetitions) {
  if (s_->sets.empty()) throw Error(ErrorCode::Internal, "OpBench::time_us before prepare()");
  profiler::TimingOptions o;
  o.warmup = warmup;
  o.repetitions = repetitions;
  o.rotations = int(s_->sets.size());
  o.stream = s_->ctx->impl().stream;
  const profiler::TimingResult r = s_->timer->time([&](cudaStream_t, int rot) { launch(plan, rot); }, o);
  return r.median_ns() / 1e3;
}

void OpBench::queue_counters(const Plan& plan) {
  if (!s_->counters_tried) {
    s_->counters_tried = true;
    try {
      profiler::CounterOptions o;
      o.device = s_->ctx->device().ordinal;
      s_->counters = std::make_unique<profiler::CounterSession>(o);
    } catch (const Error& e) {
      s_->counters_why = e.what();
    }
  }
  ++s_->queued;
  if (!s_->counters) return;
  s_->counters->add([&](cudaStream_t) { launch(plan, 0); });
}

std::vector<std::map<std::string, double>> OpBench::collect_counters() {
  std::vector<std::map<std::string, double>> out(s_->queued);
  const size_t n = s_->queued;
  s_->queued = 0;
  if (!s_->counters || n == 0) return out;
  const std::vector<profiler::CounterSample> got = s_->counters->collect();
  for (size_t i = 0; i < n && i < got.size(); ++i)
    if (got[i].ok)
      for (size_t k = 0; k < got[i].names.size(); ++k) out[i][got[i].names[k]] = got[i].values[k];
  return out;
}

const std::string& OpBench::counters_unavailable() const { return s_->counters_why; }

}  // namespace bigtune::cli
