// GPU tests of profiler/ (ctest label gpu). Each test skips with the reason
// when no CUDA device is usable, so the binary also runs cleanly in CI.
//
// Run on the GPU machine:  build/bin/bigtune_profiler_gpu_tests
// Started by a Worker in exec mode (BIGTUNE_WORKER_FD set), this binary serves
// requests instead: "time" (times a copy kernel, replies TimingResult JSON),
// "fault" (an illegal-address kernel), "hang" (a kernel that never ends).
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bigtune/error.hpp"
#include "profiler/counters.hpp"
#include "profiler/device_probe.hpp"
#include "profiler/isolated.hpp"
#include "profiler/kernel_facts.hpp"
#include "profiler/timer.hpp"
#include "profiler/worker.hpp"

namespace {

using namespace bigtune::profiler;

// Plain loads and stores (no __restrict__, so no LDG.CONSTANT): one 128-byte
// request, four sectors, per warp and direction.
__global__ void copy_kernel(uint32_t* out, const uint32_t* in, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

// Identical work in every thread: one load, `iterations` multiply-adds, one
// store. Its instruction count is exactly proportional to the number of blocks.
__global__ void __launch_bounds__(128) work_kernel(uint32_t* out, const uint32_t* in, int iterations) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t x = in[i];
  for (int k = 0; k < iterations; ++k) x = x * 1664525u + 1013904223u;
  out[i] = x;
}

// Runs for `ns` nanoseconds of the GPU's global timer (one thread).
__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

__global__ void fault_kernel(int* p) { *reinterpret_cast<volatile int*>(p) = 1; }

__global__ void hang_kernel(const volatile int* flag) {
  while (*flag == 0) {
  }
}

bool gpu_available(std::string* why) {
  int count = 0;
  const cudaError_t s = cudaGetDeviceCount(&count);
  if (s != cudaSuccess) {
    *why = std::string("no usable CUDA device: ") + cudaGetErrorName(s) + " (" + cudaGetErrorString(s) + ")";
    return false;
  }
  if (count == 0) {
    *why = "no CUDA device (cudaGetDeviceCount returned 0)";
    return false;
  }
  return true;
}

#define REQUIRE_GPU()                           \
  do {                                          \
    std::string why_;                           \
    if (!gpu_available(&why_)) GTEST_SKIP() << why_; \
  } while (0)

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

// `rotations` input/output buffer pairs of `n` words each.
struct CopyBuffers {
  size_t n = 0;
  std::vector<uint32_t*> in, out;
  CopyBuffers(size_t words, int rotations) : n(words) {
    for (int r = 0; r < rotations; ++r) {
      uint32_t *a = nullptr, *b = nullptr;
      if (cudaMalloc(&a, n * 4) != cudaSuccess || cudaMalloc(&b, n * 4) != cudaSuccess)
        throw bigtune::Error(bigtune::ErrorCode::OutOfMemory, "test buffers");
      cudaMemset(a, 1, n * 4);
      in.push_back(a);
      out.push_back(b);
    }
  }
  ~CopyBuffers() {
    for (auto p : in) cudaFree(p);
    for (auto p : out) cudaFree(p);
  }
  LaunchFn launch(int blocks = 132 * 8) const {
    return [this, blocks](cudaStream_t s, int r) { copy_kernel<<<blocks, 256, 0, s>>>(out[r], in[r], n); };
  }
};

// Four rotations of 2 x 256 MiB: 2 GiB, far beyond a 50-60 MB L2; one copy
// takes ~180 us on an H100, long enough for events to be within a few %.
constexpr size_t kCopyWords = size_t{64} << 20;
constexpr int kRotations = 4;

TEST(GpuTimer, CuptiAgreesWithEvents) {
  REQUIRE_GPU();
  CopyBuffers buf(kCopyWords, kRotations);
  Timer timer;
  TimingOptions o;
  o.rotations = kRotations;
  o.repetitions = 30;
  o.kernels_per_launch = 1;
  o.backend = TimingBackend::Cupti;
  const TimingResult cupti = timer.time(buf.launch(), o);
  o.backend = TimingBackend::Events;
  const TimingResult events = timer.time(buf.launch(), o);
  std::printf("copy %zu MiB: CUPTI median %.0f ns (spread %.2f%%, wall %.1f ms), events median %.0f ns\n",
              kCopyWords * 4 >> 20, cupti.median_ns(), 100 * cupti.summary.relative_spread(),
              cupti.wall_ms, events.median_ns());
  EXPECT_EQ(cupti.backend, TimingBackend::Cupti);
  ASSERT_EQ(cupti.samples_ns.size(), 30u);
  ASSERT_EQ(cupti.kernels.size(), 30u);
  EXPECT_NEAR(cupti.median_ns(), events.median_ns(), 0.05 * events.median_ns());
  const KernelRecord& k = cupti.kernels.front();
  EXPECT_NE(k.name.find("copy_kernel"), std::string::npos) << k.name;
  EXPECT_EQ(k.grid[0], 132 * 8);
  EXPECT_EQ(k.block[0], 256);
  EXPECT_GT(k.registers_per_thread, 0);
  for (std::size_t i = 0; i < cupti.kernels.size(); ++i) EXPECT_GE(cupti.kernels[i].repetition, 0);
}

TEST(GpuTimer, AutoUsesCuptiAndRepeatsWithinTwoPercent) {
  REQUIRE_GPU();
  CopyBuffers buf(kCopyWords, kRotations);
  Timer timer;
  TimingOptions o;
  o.rotations = kRotations;
  std::vector<double> medians;
  for (int run = 0; run < 5; ++run) {
    const TimingResult r = timer.time(buf.launch(), o);
    EXPECT_EQ(r.backend, TimingBackend::Cupti) << r.fallback_reason;
    medians.push_back(r.median_ns());
  }
  const Summary s = summarize(medians);
  std::printf("5 runs, medians %.0f..%.0f ns\n", s.min, s.max);
  EXPECT_LE(s.max - s.min, 0.02 * s.median);
}

TEST(GpuTimer, RotationIndicesCycleAndClosureListWorks) {
  REQUIRE_GPU();
  CopyBuffers buf(1 << 20, 3);
  Timer timer;
  std::vector<int> seen;
  TimingOptions o;
  o.warmup = 2;
  o.repetitions = 5;
  o.rotations = 3;
  LaunchFn base = buf.launch(64);
  timer.time([&](cudaStream_t s, int r) { seen.push_back(r); base(s, r); }, o);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));  // warm-up 0,1 then (2 + i) % 3

  std::vector<std::function<void(cudaStream_t)>> closures;
  for (int r = 0; r < 3; ++r) closures.push_back([&, r](cudaStream_t s) { base(s, r); });
  const TimingResult t = timer.time(closures, TimingOptions{});
  EXPECT_EQ(t.samples_ns.size(), 20u);
  EXPECT_GT(t.median_ns(), 0);
}

TEST(GpuTimer, RefusedLaunchIsInvalid) {
  REQUIRE_GPU();
  CopyBuffers buf(1024, 1);
  Timer timer;
  TimingOptions o;
  o.backend = TimingBackend::Events;
  try {
    timer.time([&](cudaStream_t s, int) { copy_kernel<<<1, 4096, 0, s>>>(buf.out[0], buf.in[0], 1024); }, o);
    FAIL() << "a 4096-thread block must be refused";
  } catch (const bigtune::Error& e) {
    EXPECT_EQ(e.code(), bigtune::ErrorCode::InvalidArgument) << e.what();
  }
}

// Counter sessions: skipped (with CUPTI's reason) where counters are refused.
#define COUNTER_SESSION(var, options)                                      \
  std::unique_ptr<CounterSession> var;                                     \
  try {                                                                    \
    var = std::make_unique<CounterSession>(options);                       \
  } catch (const CountersUnavailable& e) {                                 \
    GTEST_SKIP() << e.what();                                              \
  }

TEST(GpuCounters, InstructionsForFourTimesTheWorkAreExactlyFourTimes) {
  REQUIRE_GPU();
  CounterOptions opt;
  opt.metrics = {"smsp__inst_executed.sum", "smsp__inst_executed_op_global_ld.sum",
                 "smsp__inst_executed_op_global_st.sum", "smsp__inst_executed.sumx"};
  COUNTER_SESSION(session, opt);
  ASSERT_EQ(session->rejected().size(), 1u);
  EXPECT_EQ(session->rejected()[0].name, "smsp__inst_executed.sumx");
  CopyBuffers buf(132 * 4 * 128, 1);
  for (int blocks : {132, 4 * 132, 132})
    session->add([&, blocks](cudaStream_t s) { work_kernel<<<blocks, 128, 0, s>>>(buf.out[0], buf.in[0], 1000); });
  const auto samples = session->collect();
  ASSERT_EQ(samples.size(), 3u);
  for (const auto& s : samples) ASSERT_TRUE(s.ok) << s.error;
  const double one = samples[0].value("smsp__inst_executed.sum");
  const double four = samples[1].value("smsp__inst_executed.sum");
  std::printf("instructions: %.0f for 132 blocks, %.0f for 528\n", one, four);
  // The compiler may unroll the loop (it does, about 4x, on sm_90): ask for
  // one instruction per 10 iterations per warp, the point is the exact ratio.
  EXPECT_GT(one, 132 * 4 * 100.0);
  EXPECT_EQ(four, 4 * one);
  EXPECT_EQ(samples[2].value("smsp__inst_executed.sum"), one);  // deterministic
  EXPECT_EQ(samples[0].value("smsp__inst_executed_op_global_ld.sum"), 132 * 4);  // one LDG per warp
  EXPECT_EQ(samples[1].value("smsp__inst_executed_op_global_st.sum"), 4 * 132 * 4);
}

TEST(GpuCounters, DefaultMetricsOnACopy) {
  REQUIRE_GPU();
  COUNTER_SESSION(session, CounterOptions{});
  for (const auto& r : session->rejected()) std::printf("not collected: %s (%s)\n", r.name.c_str(), r.reason.c_str());
  std::printf("chip %s, %zu metrics, %zu passes\n", session->chip().c_str(), session->metrics().size(),
              session->passes());
  CopyBuffers buf(kCopyWords, 1);
  const CounterSample s = session->measure([&](cudaStream_t st) { buf.launch()(st, 0); });
  ASSERT_TRUE(s.ok) << s.error;
  std::printf("%s\n", s.to_json().c_str());
  const double bytes = kCopyWords * 4.0;
  EXPECT_EQ(s.value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), bytes / 32);
  EXPECT_EQ(s.value("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), bytes / 32);
  // Part of the input may still sit in the L2 after the memset that filled it.
  EXPECT_GT(s.value("dram__bytes_read.sum"), 0.5 * bytes);
  EXPECT_LT(s.value("dram__bytes_read.sum"), 1.1 * bytes);
  EXPECT_GT(s.value("sm__cycles_elapsed.avg"), 0);
  const double occupancy = s.value("sm__warps_active.avg.pct_of_peak_sustained_active");
  EXPECT_GT(occupancy, 10);
  EXPECT_LE(occupancy, 100.5);
}

TEST(GpuCounters, ManyLaunchesRefillTheCounterImage) {
  REQUIRE_GPU();
  CounterOptions opt;
  opt.metrics = {"smsp__inst_executed.sum"};
  opt.max_ranges = 8;
  COUNTER_SESSION(session, opt);
  CopyBuffers buf(132 * 128, 1);
  for (int i = 0; i < 20; ++i)
    session->add([&](cudaStream_t s) { work_kernel<<<132, 128, 0, s>>>(buf.out[0], buf.in[0], 100); });
  const auto samples = session->collect();
  ASSERT_EQ(samples.size(), 20u);
  for (const auto& s : samples) {
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(s.value("smsp__inst_executed.sum"), samples[0].value("smsp__inst_executed.sum"));
  }
}

TEST(GpuCounters, WrongKernelCountIsReportedNotMisattributed) {
  REQUIRE_GPU();
  CounterOptions opt;
  opt.metrics = {"smsp__inst_executed.sum"};
  COUNTER_SESSION(session, opt);
  CopyBuffers buf(132 * 128, 1);
  session->add([&](cudaStream_t s) {  // says one kernel, launches two
    work_kernel<<<132, 128, 0, s>>>(buf.out[0], buf.in[0], 10);
    work_kernel<<<132, 128, 0, s>>>(buf.out[0], buf.in[0], 10);
  });
  const auto samples = session->collect();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_FALSE(samples[0].ok);
  EXPECT_NE(samples[0].error.find("expected"), std::string::npos) << samples[0].error;
}

TEST(GpuKernelFacts, AttributesAndOccupancy) {
  REQUIRE_GPU();
  const KernelFacts f = kernel_facts(reinterpret_cast<const void*>(work_kernel));
  EXPECT_GT(f.registers_per_thread, 0);
  EXPECT_EQ(f.max_threads_per_block, 128);  // __launch_bounds__(128)
  EXPECT_EQ(f.local_bytes_per_thread, 0u);
  EXPECT_EQ(f.binary_version, 90);
  const Occupancy o = occupancy(reinterpret_cast<const void*>(copy_kernel), 256, 0);
  std::printf("copy_kernel at 256 threads: %d blocks/SM, %.2f occupancy, limit %s\n", o.active_blocks_per_sm,
              o.fraction, occupancy_limit_name(o.limit));
  EXPECT_GT(o.active_blocks_per_sm, 0);
  EXPECT_GT(o.fraction, 0);
  EXPECT_LE(o.fraction, 1);
}

TEST(GpuProbe, PlausibleNumbersInAFewSeconds) {
  REQUIRE_GPU();
  const DeviceProbe p = probe_device();
  std::printf("%s\n", p.to_json().c_str());
  EXPECT_GT(p.sm_count, 0);
  EXPECT_EQ(p.uuid.rfind("GPU-", 0), 0u);
  EXPECT_EQ(p.uuid.size(), 40u);
  EXPECT_GT(p.sm_clock_khz, 0);
  EXPECT_GT(p.l2_bytes, 0);
  EXPECT_LT(p.benchmark_seconds, 10);
  EXPECT_GT(p.mul32_gops, p.mul64_gops);
  EXPECT_GT(p.mul64_gops, 0);
  EXPECT_GT(p.shared_bandwidth_gbs, p.copy_bandwidth_gbs);
  EXPECT_GT(p.launch_interval_us, 0.3);
  EXPECT_LT(p.launch_interval_us, 50);
  if (p.name.find("H100") != std::string::npos || p.name.find("H200") != std::string::npos) {
    EXPECT_FALSE(p.chip.empty());
    EXPECT_GT(p.copy_bandwidth_gbs, 1000);  // measured 3.0-3.1 TB/s (H100), 4.3 (H200)
  }
}

// --- isolation: the worker is this binary re-executed (exec mode) ---

// Targets for measure_isolated: "copy" (64 MiB, two input sets), "fault".
LaunchTarget gpu_target_factory(const std::string& spec) {
  LaunchTarget t;
  t.name = spec;
  if (spec == "copy") {
    auto buf = std::make_shared<CopyBuffers>(size_t{16} << 20, 2);
    t.launch = buf->launch();
    t.rotations = 2;
    t.kernel = reinterpret_cast<const void*>(copy_kernel);
    t.block_threads = 256;
    t.keep_alive = buf;
    return t;
  }
  if (spec == "fault") {
    t.launch = [](cudaStream_t s, int) { fault_kernel<<<1, 1, 0, s>>>(reinterpret_cast<int*>(0x10)); };
    return t;
  }
  throw bigtune::Error(bigtune::ErrorCode::InvalidArgument, "unknown target " + spec);
}

std::string gpu_worker_handler(const std::string& request) {
  static const WorkerHandler measure = measurement_handler(gpu_target_factory);
  if (request.rfind("target ", 0) == 0) return measure(request);
  auto check = [](cudaError_t s, const char* what) {
    if (s == cudaSuccess) return;
    throw bigtune::Error(bigtune::ErrorCode::Cuda, std::string(what) + ": " + cudaGetErrorName(s));
  };
  if (request == "time") {
    CopyBuffers buf(1 << 22, 2);
    Timer timer;
    TimingOptions o;
    o.rotations = 2;
    return timer.time(buf.launch(), o).to_json();
  }
  if (request == "fault") {
    fault_kernel<<<1, 1>>>(reinterpret_cast<int*>(0x10));
    check(cudaDeviceSynchronize(), "fault_kernel");
    return "the faulting kernel did not fault";
  }
  if (request == "hang") {
    int* flag = nullptr;
    check(cudaMalloc(&flag, sizeof(int)), "cudaMalloc");
    check(cudaMemset(flag, 0, sizeof(int)), "cudaMemset");
    hang_kernel<<<1, 1>>>(flag);
    check(cudaDeviceSynchronize(), "hang_kernel");
    return "the hanging kernel ended";
  }
  throw bigtune::Error(bigtune::ErrorCode::InvalidArgument, "unknown request " + request);
}

std::vector<std::string> self_command() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return {n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string("/proc/self/exe")};
}

TEST(GpuWorker, FaultAndHangAreRecordedAndTheRunGoesOn) {
  REQUIRE_GPU();
  Worker worker(self_command());
  WorkerReply r = worker.call("time", 60);
  ASSERT_EQ(r.outcome, Outcome::Ok) << r.reason;
  EXPECT_NE(r.payload.find("\"median_ns\""), std::string::npos);

  r = worker.call("fault", 60);
  std::printf("fault: %s (%.2f s)\n", r.reason.c_str(), r.seconds);
  EXPECT_EQ(r.outcome, Outcome::Fault);
  EXPECT_NE(r.reason.find("cudaErrorIllegalAddress"), std::string::npos) << r.reason;

  r = worker.call("time", 60);
  EXPECT_EQ(r.outcome, Outcome::Ok) << r.reason;

  r = worker.call("hang", 3);
  std::printf("hang: %s (%.2f s)\n", r.reason.c_str(), r.seconds);
  EXPECT_EQ(r.outcome, Outcome::Timeout);

  r = worker.call("time", 60);
  EXPECT_EQ(r.outcome, Outcome::Ok) << r.reason;
  EXPECT_EQ(worker.starts(), 3);

  r = worker.call("nonsense", 60);
  EXPECT_EQ(r.outcome, Outcome::Invalid);
  // The parent's own CUDA context is untouched by all this.
  std::string why;
  EXPECT_TRUE(gpu_available(&why));
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
}

TEST(GpuIsolated, BatchOfTargetsWithCountersThenAFault) {
  REQUIRE_GPU();
  Worker worker(self_command());
  MeasureRequest req;
  req.targets = {"copy", "nonsense", "copy"};
  req.counters = true;
  req.metrics = {"smsp__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"};
  auto r = measure_isolated(worker, req, 60);
  ASSERT_EQ(r.size(), 3u);
  ASSERT_EQ(r[0].outcome, Outcome::Ok) << r[0].reason;
  EXPECT_EQ(r[1].outcome, Outcome::Invalid);
  ASSERT_EQ(r[2].outcome, Outcome::Ok) << r[2].reason;
  std::printf("isolated batch: %s median %.0f ns, %zu counters (%s), %.2f s\n", r[0].backend.c_str(),
              r[0].summary.median, r[0].counters.size(), r[0].counters_unavailable.c_str(), r[0].seconds);
  EXPECT_EQ(r[0].samples_ns.size(), 20u);
  if (r[0].counters_unavailable.empty()) {
    ASSERT_EQ(r[0].counters.size(), 2u) << r[0].counters_error;
    EXPECT_EQ(r[0].counters[1].second, (16 << 20) * 4.0 / 32);
    ASSERT_EQ(r[2].counters.size(), 2u) << r[2].counters_error;
    EXPECT_EQ(r[2].counters[0].second, r[0].counters[0].second);
  }
  req.targets = {"copy"};
  r = measure_isolated(worker, req, 60);  // second request: the counter session is reused
  ASSERT_EQ(r[0].outcome, Outcome::Ok) << r[0].reason;
  std::printf("second request (one target, session kept): %.2f s\n", r[0].seconds);

  req.targets = {"copy", "fault", "copy"};
  r = measure_isolated(worker, req, 60);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].outcome, Outcome::Ok) << r[0].reason;
  EXPECT_EQ(r[1].outcome, Outcome::Fault);
  EXPECT_NE(r[1].reason.find("cudaErrorIllegalAddress"), std::string::npos) << r[1].reason;
  EXPECT_EQ(r[2].outcome, Outcome::Ok) << r[2].reason;
}

// Issue 5 targets: a timing-only sample of a 1 ms kernel costs < 5 ms of
// wall time beyond the kernel runs themselves; a counter sample < 200 ms.
TEST(GpuOverhead, TimingAndCounterSampleCosts) {
  REQUIRE_GPU();
  Timer timer;
  TimingOptions o;
  const LaunchFn spin = [](cudaStream_t s, int) { spin_kernel<<<1, 1, 0, s>>>(1000000); };
  timer.time(spin, o);  // first use: CUPTI attaches
  const TimingResult t = timer.time(spin, o);
  const double kernels_ms = (o.warmup + o.repetitions) * t.median_ns() * 1e-6;
  std::printf("1 ms kernel, %d + %d runs: wall %.2f ms, kernels %.2f ms, overhead %.2f ms (%s)\n", o.warmup,
              o.repetitions, t.wall_ms, kernels_ms, t.wall_ms - kernels_ms, timing_backend_name(t.backend));
  EXPECT_NEAR(t.median_ns(), 1e6, 0.02e6);
  EXPECT_LT(t.wall_ms - kernels_ms, 5.0);

  const auto t0 = std::chrono::steady_clock::now();
  COUNTER_SESSION(session, CounterOptions{});
  const auto t1 = std::chrono::steady_clock::now();
  constexpr int kSamples = 10;
  for (int i = 0; i < kSamples; ++i) session->add([&](cudaStream_t s) { spin(s, 0); });
  const auto samples = session->collect();
  const auto t2 = std::chrono::steady_clock::now();
  const double setup_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double per_sample_ms = std::chrono::duration<double, std::milli>(t2 - t1).count() / kSamples;
  std::printf("counters (%zu metrics, %zu passes): session set-up %.0f ms, %.1f ms per sample in a batch of %d\n",
              session->metrics().size(), session->passes(), setup_ms, per_sample_ms, kSamples);
  ASSERT_EQ(samples.size(), static_cast<size_t>(kSamples));
  EXPECT_TRUE(samples[0].ok) << samples[0].error;
  EXPECT_LT(per_sample_ms, 200);
}

// The isolated handler keeps a (stopped) counter session between requests;
// this checks that durations measured meanwhile are unaffected.
TEST(GpuTimer, IdleCounterSessionDoesNotChangeDurations) {
  REQUIRE_GPU();
  CopyBuffers buf(kCopyWords, kRotations);
  Timer timer;
  TimingOptions o;
  o.rotations = kRotations;
  const double before = timer.time(buf.launch(), o).median_ns();
  CounterOptions opt;
  opt.metrics = {"smsp__inst_executed.sum"};
  COUNTER_SESSION(session, opt);
  ASSERT_TRUE(session->measure([&](cudaStream_t s) { buf.launch()(s, 0); }).ok);
  const TimingResult during = timer.time(buf.launch(), o);
  std::printf("copy median %.0f ns without a session, %.0f ns with an idle one (%s)\n", before,
              during.median_ns(), timing_backend_name(during.backend));
  EXPECT_EQ(during.backend, TimingBackend::Cupti) << during.fallback_reason;
  EXPECT_NEAR(during.median_ns(), before, 0.03 * before);
}

}  // namespace

int main(int argc, char** argv) {
  if (is_worker_process()) return serve_worker(gpu_worker_handler);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
