#include "profiler/timer.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "profiler/detail/activity.hpp"
#include "profiler/detail/check.hpp"
#include "profiler/json.hpp"

namespace bigtune::profiler {
namespace {

void check_options(const TimingOptions& o) {
  if (o.repetitions < 1 || o.warmup < 0 || o.rotations < 1 || o.kernels_per_launch < 0)
    throw Error(ErrorCode::InvalidArgument,
                "timing options need repetitions >= 1, warmup >= 0, rotations >= 1, "
                "kernels_per_launch >= 0");
}

// A launch closure may fail to enqueue (bad configuration): the runtime keeps
// that error as the thread's last error, so take it right after the closure
// (taking it also clears it, so it is not blamed on a later launch).
void check_launch() { BIGTUNE_CUDA_CHECK(cudaGetLastError()); }

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

const char* timing_backend_name(TimingBackend backend) {
  switch (backend) {
    case TimingBackend::Auto: return "auto";
    case TimingBackend::Cupti: return "cupti";
    case TimingBackend::Events: return "events";
  }
  return "?";
}

TimingBackend parse_timing_backend(const std::string& name) {
  for (TimingBackend b : {TimingBackend::Auto, TimingBackend::Cupti, TimingBackend::Events})
    if (name == timing_backend_name(b)) return b;
  throw Error(ErrorCode::InvalidArgument, "unknown timing backend '" + name + "'", "use auto, cupti or events");
}

std::vector<double> attribute_kernels(std::vector<KernelRecord>& kernels, std::uint64_t first_id,
                                      int repetitions, int kernels_per_launch) {
  const auto reps = static_cast<std::size_t>(repetitions);
  std::vector<std::vector<const KernelRecord*>> groups(reps);
  std::size_t attributed = 0;
  for (KernelRecord& k : kernels) {
    if (k.external_id >= first_id && k.external_id < first_id + reps) {
      k.repetition = static_cast<int>(k.external_id - first_id);
      ++attributed;
    }
  }
  if (attributed != kernels.size()) {
    if (attributed != 0)
      throw Error(ErrorCode::Profiler,
                  std::to_string(kernels.size() - attributed) + " of " +
                      std::to_string(kernels.size()) +
                      " kernel records carry no launch id of this measurement",
                  "is another thread launching kernels while timing?");
    // No correlation at all: one stream runs the repetitions in order.
    const std::size_t per =
        kernels_per_launch > 0 ? static_cast<std::size_t>(kernels_per_launch) : kernels.size() / reps;
    if (per == 0 || per * reps != kernels.size())
      throw Error(ErrorCode::Profiler,
                  "cannot attribute " + std::to_string(kernels.size()) + " kernel records to " +
                      std::to_string(reps) + " repetitions");
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const KernelRecord& a, const KernelRecord& b) { return a.start_ns < b.start_ns; });
    for (std::size_t i = 0; i < kernels.size(); ++i) kernels[i].repetition = static_cast<int>(i / per);
  }
  for (const KernelRecord& k : kernels) groups[static_cast<std::size_t>(k.repetition)].push_back(&k);

  std::vector<double> samples;
  samples.reserve(reps);
  for (std::size_t r = 0; r < reps; ++r) {
    const auto& g = groups[r];
    if (g.empty())
      throw Error(ErrorCode::Profiler, "repetition " + std::to_string(r) + " produced no kernel record",
                  "does the launch closure launch a kernel?");
    if (kernels_per_launch > 0 && g.size() != static_cast<std::size_t>(kernels_per_launch))
      throw Error(ErrorCode::Profiler, "repetition " + std::to_string(r) + " launched " +
                                           std::to_string(g.size()) + " kernels, expected " +
                                           std::to_string(kernels_per_launch));
    std::uint64_t start = g.front()->start_ns, end = g.front()->end_ns;
    for (const KernelRecord* k : g) {
      start = std::min(start, k->start_ns);
      end = std::max(end, k->end_ns);
    }
    samples.push_back(static_cast<double>(end - start));
  }
  return samples;
}

Timer::Timer(int device) : device_(device) {
  BIGTUNE_CUDA_CHECK(cudaSetDevice(device_));
  BIGTUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

Timer::~Timer() {
  if (l2_scratch_) cudaFree(l2_scratch_);
  if (stream_) cudaStreamDestroy(stream_);
}

void Timer::flush_l2(cudaStream_t stream) {
  if (!l2_scratch_) {
    int l2 = 0;
    BIGTUNE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device_));
    l2_scratch_bytes_ = 2 * static_cast<std::size_t>(std::max(l2, 1 << 20));
    BIGTUNE_CUDA_CHECK(cudaMalloc(&l2_scratch_, l2_scratch_bytes_));
  }
  BIGTUNE_CUDA_CHECK(cudaMemsetAsync(l2_scratch_, 0x5a, l2_scratch_bytes_, stream));
}

void Timer::run_warmup(const LaunchFn& launch, const TimingOptions& o, cudaStream_t stream) {
  for (int i = 0; i < o.warmup; ++i) {
    launch(stream, i % o.rotations);
    check_launch();
  }
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

TimingResult Timer::time(const LaunchFn& launch, const TimingOptions& options) {
  check_options(options);
  BIGTUNE_CUDA_CHECK(cudaSetDevice(device_));
  (void)cudaGetLastError();  // a stale launch error of someone else's is not ours
  cudaStream_t stream = options.stream ? options.stream : stream_;
  const auto t0 = std::chrono::steady_clock::now();
  TimingResult result;
  if (options.backend == TimingBackend::Events) {
    result = time_events(launch, options, stream);
  } else {
    try {
      result = time_cupti(launch, options, stream);
    } catch (const Error& e) {
      // A CUDA failure is the candidate's, not CUPTI's: do not hide it.
      if (options.backend == TimingBackend::Cupti || e.code() != ErrorCode::Profiler) throw;
      result = time_events(launch, options, stream);
      result.fallback_reason = e.what();
    }
  }
  result.summary = summarize(result.samples_ns);
  result.wall_ms = ms_since(t0);
  return result;
}

TimingResult Timer::time(const std::vector<std::function<void(cudaStream_t)>>& launches,
                         TimingOptions options) {
  if (launches.empty()) throw Error(ErrorCode::InvalidArgument, "no launch closures to time");
  options.rotations = static_cast<int>(launches.size());
  return time([&](cudaStream_t s, int rotation) { launches[static_cast<std::size_t>(rotation)](s); },
              options);
}

TimingResult Timer::time_cupti(const LaunchFn& launch, const TimingOptions& o, cudaStream_t stream) {
  run_warmup(launch, o, stream);
  auto& collector = detail::ActivityCollector::instance();
  collector.enable();
  TimingResult result;
  try {
    collector.take();  // drop anything recorded before this measurement
    const std::uint64_t first_id = next_launch_id_;
    next_launch_id_ += static_cast<std::uint64_t>(o.repetitions);
    for (int i = 0; i < o.repetitions; ++i) {
      if (o.flush_l2) flush_l2(stream);
      detail::ActivityCollector::push_launch_id(first_id + static_cast<std::uint64_t>(i));
      try {
        launch(stream, (o.warmup + i) % o.rotations);
      } catch (...) {
        detail::ActivityCollector::pop_launch_id();
        throw;
      }
      detail::ActivityCollector::pop_launch_id();
      check_launch();
    }
    BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
    auto batch = collector.take();
    collector.disable();
    if (batch.dropped)
      throw Error(ErrorCode::Profiler, "CUPTI dropped " + std::to_string(batch.dropped) + " activity records");
    if (batch.kernels.empty())
      throw Error(ErrorCode::Profiler, "CUPTI delivered no kernel records",
                  "another profiler may be attached (nsys, ncu)");
    result.samples_ns = attribute_kernels(batch.kernels, first_id, o.repetitions, o.kernels_per_launch);
    result.kernels = std::move(batch.kernels);
    result.backend = TimingBackend::Cupti;
  } catch (...) {
    collector.disable();
    throw;
  }
  return result;
}

TimingResult Timer::time_events(const LaunchFn& launch, const TimingOptions& o, cudaStream_t stream) {
  run_warmup(launch, o, stream);
  std::vector<cudaEvent_t> events(2 * static_cast<std::size_t>(o.repetitions), nullptr);
  TimingResult result;
  result.backend = TimingBackend::Events;
  auto destroy = [&] {
    for (cudaEvent_t e : events)
      if (e) cudaEventDestroy(e);
  };
  try {
    for (cudaEvent_t& e : events) BIGTUNE_CUDA_CHECK(cudaEventCreate(&e));
    for (int i = 0; i < o.repetitions; ++i) {
      if (o.flush_l2) flush_l2(stream);
      BIGTUNE_CUDA_CHECK(cudaEventRecord(events[2 * i], stream));
      launch(stream, (o.warmup + i) % o.rotations);
      check_launch();
      BIGTUNE_CUDA_CHECK(cudaEventRecord(events[2 * i + 1], stream));
    }
    BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < o.repetitions; ++i) {
      float ms = 0;
      BIGTUNE_CUDA_CHECK(cudaEventElapsedTime(&ms, events[2 * i], events[2 * i + 1]));
      result.samples_ns.push_back(static_cast<double>(ms) * 1e6);
    }
  } catch (...) {
    destroy();
    throw;
  }
  destroy();
  return result;
}

std::string TimingResult::to_json() const {
  JsonWriter w;
  w.begin_object();
  w.field("backend", timing_backend_name(backend));
  if (!fallback_reason.empty()) w.field("fallback_reason", fallback_reason);
  w.field("median_ns", summary.median).field("min_ns", summary.min).field("max_ns", summary.max);
  w.field("mean_ns", summary.mean).field("stddev_ns", summary.stddev).field("mad_ns", summary.mad);
  w.field("repetitions", static_cast<std::uint64_t>(summary.count));
  w.field("wall_ms", wall_ms);
  w.key("samples_ns").begin_array();
  for (double s : samples_ns) w.value(s);
  w.end_array();
  w.key("kernels").begin_array();
  for (const KernelRecord& k : kernels) {
    w.begin_object();
    w.field("name", k.name).field("repetition", k.repetition).field("duration_ns", k.duration_ns());
    w.key("grid").begin_array().value(k.grid[0]).value(k.grid[1]).value(k.grid[2]).end_array();
    w.key("block").begin_array().value(k.block[0]).value(k.block[1]).value(k.block[2]).end_array();
    w.field("registers_per_thread", k.registers_per_thread);
    w.field("static_shared_bytes", k.static_shared_bytes);
    w.field("dynamic_shared_bytes", k.dynamic_shared_bytes);
    w.field("local_bytes_per_thread", k.local_bytes_per_thread);
    w.field("correlation_id", k.correlation_id);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.str();
}

}  // namespace bigtune::profiler
