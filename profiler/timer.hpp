// Durations of kernel launches (issue 5, item 1).
//
// Timer::time runs a launch closure `warmup + repetitions` times on one stream
// and returns the device duration of each timed repetition. Primary source:
// CUPTI activity records (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), each
// attributed to the repetition that launched it through an external
// correlation id pushed around the closure; a repetition's duration is the
// span from its first kernel's start to its last kernel's end. Fallback: CUDA
// events around each repetition (about 0.5 us resolution, includes the launch
// gap), used when CUPTI cannot record (another profiler attached, no records).
//
// Rotation: the closure gets a rotation index 0..rotations-1 (repetition i
// uses i % rotations) so a caller can cycle through N input buffers larger in
// total than the L2 and avoid timing cache-warm repeats. flush_l2 additionally
// overwrites an L2-sized scratch buffer before each repetition.
//
// Not thread-safe; one Timer per thread. Do not time while a CounterSession is
// collecting (durations and counters come from separate runs).
#pragma once
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "profiler/statistics.hpp"

namespace bigtune::profiler {

// The launch closure: enqueue the work on `stream`, using input set `rotation`.
// It must not synchronize the stream.
using LaunchFn = std::function<void(cudaStream_t stream, int rotation)>;

enum class TimingBackend {
  Auto,    // CUPTI, then CUDA events if CUPTI cannot be used
  Cupti,   // CUPTI only: throws when it cannot be used
  Events,  // CUDA events only
};
const char* timing_backend_name(TimingBackend backend);
// "auto", "cupti" or "events"; throws bigtune::Error (InvalidArgument) otherwise.
TimingBackend parse_timing_backend(const std::string& name);

struct TimingOptions {
  int warmup = 3;           // untimed runs first (module load, clocks, caches)
  int repetitions = 20;     // timed runs (>= 1)
  int rotations = 1;        // distinct input sets the closure cycles through (>= 1)
  TimingBackend backend = TimingBackend::Auto;
  cudaStream_t stream = nullptr;  // nullptr: the Timer's own stream
  bool flush_l2 = false;    // overwrite the L2 before each timed repetition
  // Kernels each closure call launches; 0 = any. With CUPTI, a different count
  // is an error (it usually means a launch failed or the closure is wrong).
  int kernels_per_launch = 0;
};

// One kernel execution, from a CUPTI activity record.
struct KernelRecord {
  std::string name;
  std::uint64_t start_ns = 0, end_ns = 0;  // GPU timestamps
  std::uint32_t correlation_id = 0;        // CUPTI's id of the API call that launched it
  std::uint64_t external_id = 0;           // bigtune's launch id (0: unknown)
  std::array<int, 3> grid{}, block{};
  int registers_per_thread = 0;
  int static_shared_bytes = 0, dynamic_shared_bytes = 0;
  std::uint32_t local_bytes_per_thread = 0;
  std::uint32_t device_id = 0, stream_id = 0;
  int repetition = -1;  // which timed repetition it belongs to
  double duration_ns() const { return static_cast<double>(end_ns - start_ns); }
};

struct TimingResult {
  TimingBackend backend = TimingBackend::Events;  // the one actually used
  std::string fallback_reason;       // why CUPTI was not used (Auto only), else empty
  std::vector<double> samples_ns;    // one per timed repetition, in order
  Summary summary;                   // of samples_ns
  std::vector<KernelRecord> kernels; // CUPTI only: every timed kernel, with its repetition
  double wall_ms = 0;                // host time of the whole measurement

  double median_ns() const { return summary.median; }
  double min_ns() const { return summary.min; }
  double max_ns() const { return summary.max; }
  double stddev_ns() const { return summary.stddev; }
  std::string to_json() const;
};

class Timer {
 public:
  explicit Timer(int device = 0);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Throws bigtune::Error: Cuda for a faulting launch (the context is then
  // unusable: measure candidates in a Worker), InvalidArgument for a launch
  // the device refuses, Profiler when CUPTI was required and failed.
  TimingResult time(const LaunchFn& launch, const TimingOptions& options = {});

  // Convenience: N prepared closures, one per input set (rotations = N).
  TimingResult time(const std::vector<std::function<void(cudaStream_t)>>& launches,
                    TimingOptions options = {});

 private:
  TimingResult time_cupti(const LaunchFn& launch, const TimingOptions& options, cudaStream_t s);
  TimingResult time_events(const LaunchFn& launch, const TimingOptions& options, cudaStream_t s);
  void flush_l2(cudaStream_t stream);
  void run_warmup(const LaunchFn& launch, const TimingOptions& options, cudaStream_t stream);

  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  void* l2_scratch_ = nullptr;
  std::size_t l2_scratch_bytes_ = 0;
  std::uint64_t next_launch_id_ = 1;
};

// Groups kernel records into repetitions (sets KernelRecord::repetition) and
// returns one duration per repetition: last end - first start. Records carry
// external ids first_id..first_id+repetitions-1 when CUPTI attributed them;
// when none does, records are assigned in start order, `kernels_per_launch`
// (or kernels / repetitions) per repetition. Throws bigtune::Error (Profiler)
// when the records cannot be attributed consistently. Exposed for tests.
std::vector<double> attribute_kernels(std::vector<KernelRecord>& kernels, std::uint64_t first_id,
                                      int repetitions, int kernels_per_launch);

}  // namespace bigtune::profiler
