#include "cli/tune_bench.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>

#include "bigtune/detail/cuda_check.hpp"
#include "bigtune/error.hpp"
#include "profiler/counters.hpp"
#include "profiler/timer.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/run_op.hpp"
#include "tuner/select.hpp"

namespace bigtune::cli {

struct OpBench::State {
  std::unique_ptr<Context> ctx;
  std::unique_ptr<profiler::Timer> timer;
  std::unique_ptr<profiler::CounterSession> counters;
  std::string counters_why;
  bool counters_tried = false;
  Op op = Op::Add;
  uint64_t bits = 0, count = 0;
  uint64_t shift = 0;
  struct Set {
    std::optional<Batch> r, r2, a, b, c, m;
    std::optional<Flags> flags;
  };
  std::vector<Set> sets;
  // Sets per exponent group: sets.size(), or half of it where powm is timed
  // with two short exponent lengths (tuner::short_exponents): sets
  // [0, group) hold exponents of kShortExponentBits[0] bits, [group, 2 group)
  // of [1], and times and counters are extrapolated to full-size exponents.
  size_t group = 0;
  bool paired = false;
  bool short_exponents = false;  // set_short_exponents()
  std::vector<int> queued_launches;  // per queued counter request: 1, or 2 when paired
  std::map<std::string, int> kernels_per_launch;
  uint64_t* pool = nullptr;  // kPoolWords random words on the device
  ~State() {
    sets.clear();
    if (pool) cudaFree(pool);
  }
  std::vector<std::string> counter_metrics;
  OpBench::Stats stats;
};

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

uint64_t splitmix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// Random words below 2^bits; `top` forces the top bit (moduli), `below_top`
// clears it (operands that must stay below such a modulus), `odd` sets bit 0.
//
// Filled on the device from a pool of random words uploaded once (windows
// at random offsets), and only the words that carry a constraint (each
// instance's top word, its bottom word when `odd`) made on the host and
// scattered with one strided copy. Filling batches of 2^30 bits on the host
// (splitmix, a check of every instance, a pageable upload) took a large share
// of tune's anchors; the kernels measured see random words either way.
constexpr uint64_t kPoolWords = uint64_t(1) << 19;  // 4 MiB (device memory the counters' replay saves)
void fill(Batch& b, const uint64_t* pool, cudaStream_t stream, uint64_t seed, bool top, bool below_top, bool odd) {
  const uint64_t per = b.words_per_instance(), bits = b.bits(), count = b.count();
  auto* dst = static_cast<uint64_t*>(b.device_data());
  uint64_t x = seed;
  const uint64_t half = kPoolWords / 2;
  for (uint64_t done = 0, n = per * count; done < n;) {
    const uint64_t len = std::min(half, n - done);
    BIGTUNE_CUDA_CHECK(cudaMemcpyAsync(dst + done, pool + splitmix(x) % half, len * 8, cudaMemcpyDeviceToDevice, stream));
    done += len;
  }
  const uint64_t rest = bits % 64, tb = (bits - 1) % 64;
  std::vector<uint64_t> w;
  if (rest || top || below_top || (odd && per == 1)) {
    w.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t t = splitmix(x);
      if (rest) t &= (uint64_t(1) << rest) - 1;
      if (top) t |= uint64_t(1) << tb;
      if (below_top) t &= ~(uint64_t(1) << tb);
      if (odd && per == 1) t |= 1;
      w[i] = t;
    }
    BIGTUNE_CUDA_CHECK(cudaMemcpy2DAsync(dst + per - 1, per * 8, w.data(), 8, 8, count, cudaMemcpyHostToDevice, stream));
    BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(stream));  // w is pageable and goes out of scope
  }
  if (odd && per > 1) {
    w.resize(count);
    for (uint64_t i = 0; i < count; ++i) w[i] = splitmix(x) | 1;
    BIGTUNE_CUDA_CHECK(cudaMemcpy2DAsync(dst, per * 8, w.data(), 8, 8, count, cudaMemcpyHostToDevice, stream));
    BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
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
  // Sets already there serve a request for fewer (counters use set 0).
  if (s_->op == op && s_->bits == bits && s_->count == count && !s_->sets.empty() &&
      (rotations == 0 || int(s_->group) >= rotations))
    return;
  const auto t0 = Clock::now();
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
  cudaStream_t stream = ctx.impl().stream;
  if (!s_->pool) {
    std::vector<uint64_t> h(kPoolWords);
    uint64_t x = 0x5eed;
    for (uint64_t& v : h) v = splitmix(x);
    BIGTUNE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&s_->pool), kPoolWords * 8));
    BIGTUNE_CUDA_CHECK(cudaMemcpy(s_->pool, h.data(), kPoolWords * 8, cudaMemcpyHostToDevice));
  }
  auto fill = [&](Batch& b, uint64_t seed, bool top, bool below_top, bool odd) {
    ::bigtune::cli::fill(b, s_->pool, stream, seed, top, below_top, odd);
  };
  const bool paired =
      s_->short_exponents && tuner::short_exponents(static_cast<kernels::Op>(static_cast<int>(op)), bits);
  for (int k = 0; k < (paired ? 2 : 1) * rotations; ++k) {
    State::Set s;
    const uint64_t seed = bits * 1000003 + count * 7919 + k;
    s.a.emplace(ctx, bits, count);
    fill(*s.a, seed, false, modular, false);
    if (paired)  // exponents of exactly this many bits (top bit set)
      s.b.emplace(ctx, tuner::kShortExponentBits[k / rotations], count), fill(*s.b, seed + 1, true, false, false);
    else if (l.b_bits)
      s.b.emplace(ctx, l.b_bits, count), fill(*s.b, seed + 1, op == Op::DivMod, modular, false);
    if (l.c_bits) s.c.emplace(ctx, l.c_bits, count), fill(*s.c, seed + 2, false, false, false);
    if (l.m_bits) s.m.emplace(ctx, l.m_bits, l.one_modulus ? 1 : count), fill(*s.m, seed + 3, true, false, true);
    if (l.r_bits) s.r.emplace(ctx, l.r_bits, count);
    if (l.r2_bits) s.r2.emplace(ctx, l.r2_bits, count);
    if (l.flags) s.flags.emplace(ctx, count);
    s_->sets.push_back(std::move(s));
  }
  cudaDeviceSynchronize();
  s_->op = op, s_->bits = bits, s_->count = count;
  s_->paired = paired;
  s_->group = size_t(rotations);
  s_->shift = 1 + bits / 3;
  s_->stats.prepare_s += since(t0);
  ++s_->stats.prepares;
}

void OpBench::launch(const Plan& plan, size_t set) {
  State::Set& s = s_->sets[set];
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
  if (!s_->paired) return time_group(plan, warmup, repetitions, 0);
  const double t0 = time_group(plan, warmup, repetitions, 0);
  return tuner::extrapolate_exponent(t0, time_group(plan, warmup, repetitions, s_->group), s_->bits);
}

double OpBench::time_group(const Plan& plan, int warmup, int repetitions, size_t first) {
  if (s_->sets.empty()) throw Error(ErrorCode::Internal, "OpBench::time_us before prepare()");
  profiler::TimingOptions o;
  o.warmup = warmup;
  o.repetitions = repetitions;
  o.rotations = int(s_->group);
  o.stream = s_->ctx->impl().stream;
  const auto t0 = Clock::now();
  profiler::TimingResult r;
  try {
    r = s_->timer->time([&](cudaStream_t, int rot) { launch(plan, first + size_t(rot) % s_->group); }, o);
  } catch (...) {
    s_->stats.timing_s += since(t0);
    throw;
  }
  s_->stats.timing_s += since(t0);
  ++s_->stats.timings;
  if (!r.kernels.empty() && r.kernels.size() % size_t(repetitions) == 0) {
    const int k = int(r.kernels.size() / size_t(repetitions));
    s_->kernels_per_launch[plan.variant] = k;
    s_->kernels_per_launch[plan.variant + "/" + std::to_string(s_->bits) + "/" + std::to_string(plan.ipb)] = k;
  }
  last_samples_ = r.samples_ns;
  return r.median_ns() / 1e3;
}

double OpBench::time_us_adaptive(const Plan& plan, int warmup, int repetitions, int extra, double spread,
                                 double slow_us) {
  if (!s_->paired) return adaptive_group(plan, warmup, repetitions, extra, spread, slow_us, 0);
  const double t0 = adaptive_group(plan, warmup, repetitions, extra, spread, slow_us, 0);
  return tuner::extrapolate_exponent(t0, adaptive_group(plan, warmup, repetitions, extra, spread, slow_us, s_->group),
                                     s_->bits);
}

double OpBench::adaptive_group(const Plan& plan, int warmup, int repetitions, int extra, double spread,
                               double slow_us, size_t first) {
  // One timed launch first, which serves as the warm-up: a plan slower than
  // slow_us keeps that one time (tuner2's first H100 runs: Montgomery
  // variants with 256-limb register arrays ran 7.7 s per launch at 256 bits;
  // 1 + 3 runs of them took most of the budget). Such plans are far from
  // the best wherever a faster plan holds the size, and where none does a
  // single run of a multi-millisecond kernel is precise enough.
  if (slow_us > 0) {
    const double probe = time_group(plan, 0, 1, first);
    if (probe >= slow_us) return probe;
    warmup = std::max(0, warmup - 1);
  }
  const double median = time_group(plan, warmup, repetitions, first);
  std::vector<double> all = last_samples_;
  if (all.empty() || extra <= 0) return median;
  const auto [lo, hi] = std::minmax_element(all.begin(), all.end());
  if ((*hi - *lo) <= spread * median * 1e3) return median;
  time_group(plan, 0, extra, first);
  ++s_->stats.extra_timings;
  all.insert(all.end(), last_samples_.begin(), last_samples_.end());
  std::sort(all.begin(), all.end());
  const size_t n = all.size();
  return (n % 2 ? all[n / 2] : 0.5 * (all[n / 2 - 1] + all[n / 2])) / 1e3;
}

int OpBench::kernels_per_launch(const std::string& variant) const {
  const auto it = s_->kernels_per_launch.find(variant);
  return it == s_->kernels_per_launch.end() ? 1 : it->second;
}

int OpBench::kernels_per_launch(const Plan& plan) const {
  // The count can depend on the size (the NTT product splits through
  // global scratch past 2^16 bits): the one timed at this size and IPB
  // first, else the variant's last.
  const auto it =
      s_->kernels_per_launch.find(plan.variant + "/" + std::to_string(s_->bits) + "/" + std::to_string(plan.ipb));
  return it != s_->kernels_per_launch.end() ? it->second : kernels_per_launch(plan.variant);
}

void OpBench::set_short_exponents(bool on) {
  if (s_->short_exponents != on) s_->sets.clear();  // prepared batches no longer match
  s_->short_exponents = on;
}

void OpBench::set_counter_metrics(std::vector<std::string> metrics) { s_->counter_metrics = std::move(metrics); }
const OpBench::Stats& OpBench::stats() const { return s_->stats; }
void OpBench::reset_stats() { s_->stats = {}; }

void OpBench::queue_counters(const Plan& plan) {
  if (!s_->counters_tried) {
    s_->counters_tried = true;
    try {
      profiler::CounterOptions o;
      o.device = s_->ctx->device().ordinal;
      if (!s_->counter_metrics.empty()) o.metrics = s_->counter_metrics;
      s_->counters = std::make_unique<profiler::CounterSession>(o);
    } catch (const Error& e) {
      s_->counters_why = e.what();
    }
  }
  const int launches = s_->paired ? 2 : 1;
  if (!s_->counters) {
    s_->queued_launches.push_back(launches);
    return;
  }
  const auto t0 = Clock::now();
  int added = 0;
  try {
    for (; added < launches; ++added) {
      const size_t set = added == 0 ? 0 : s_->group;
      s_->counters->add([&, set](cudaStream_t) { launch(plan, set); }, kernels_per_launch(plan));
    }
  } catch (...) {
    s_->stats.counters_s += since(t0);
    // A pair cut after its first launch keeps that launch's slot, unused.
    if (added) s_->queued_launches.push_back(-added);
    throw;
  }
  s_->queued_launches.push_back(launches);
  s_->stats.counter_launches += launches;
  s_->stats.counters_s += since(t0);
}

std::vector<std::map<std::string, double>> OpBench::collect_counters() {
  // One map per queue_counters() call that queued; a negative entry is a
  // pair whose second launch was refused: its first launch's slot is skipped.
  const std::vector<int> requests = std::move(s_->queued_launches);
  s_->queued_launches.clear();
  std::vector<std::map<std::string, double>> out;
  for (int n : requests)
    if (n > 0) out.emplace_back();
  if (!s_->counters || out.empty()) return out;
  const auto t0 = Clock::now();
  const std::vector<profiler::CounterSample> got = s_->counters->collect();
  s_->stats.counters_s += since(t0);
  const auto values = [&](size_t j) {
    std::map<std::string, double> m;
    if (j < got.size() && got[j].ok)
      for (size_t k = 0; k < got[j].names.size(); ++k) m[got[j].names[k]] = got[j].values[k];
    return m;
  };
  size_t j = 0, i = 0;
  for (int n : requests) {
    if (n < 0) {
      j += size_t(-n);
      continue;
    }
    std::map<std::string, double> first = values(j);
    if (n == 2) {  // extrapolated to full-size exponents, metric by metric
      const std::map<std::string, double> second = values(j + 1);
      std::map<std::string, double> full;
      if (second.size() == first.size())
        for (const auto& [name, v] : first)
          if (auto it = second.find(name); it != second.end())
            full[name] = tuner::extrapolate_exponent(v, it->second, s_->bits);
      first = std::move(full);
    }
    out[i++] = std::move(first);
    j += size_t(n);
  }
  return out;
}

const std::string& OpBench::counters_unavailable() const { return s_->counters_why; }

}  // namespace bigtune::cli
