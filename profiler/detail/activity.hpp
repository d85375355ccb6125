// Collection of CUPTI activity records (kernels and external correlations).
// CUPTI's buffer callbacks are process-wide, so this is one object per process.
// Private to profiler/; Timer is its user.
#pragma once
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "profiler/timer.hpp"

namespace bigtune::profiler::detail {

class ActivityCollector {
 public:
  static ActivityCollector& instance();

  // Starts recording concurrent-kernel, external-correlation and API records.
  // Throws bigtune::Error (code Profiler) when CUPTI refuses.
  void enable();
  // Stops recording (records already produced stay until take()).
  void disable();

  struct Batch {
    std::vector<KernelRecord> kernels;  // in delivery order; external_id filled where known
    std::uint64_t dropped = 0;          // records CUPTI reported as dropped
  };
  // Flushes CUPTI's buffers (forced) and hands over everything recorded so far.
  // Call after the stream that ran the kernels has been synchronized.
  Batch take();

  // Marks the CUDA calls made by this thread between push and pop with `id`;
  // kernel records they cause get it as KernelRecord::external_id.
  static void push_launch_id(std::uint64_t id);
  static void pop_launch_id();

  // Called from CUPTI's completion callback.
  void consume(const std::uint8_t* buffer, std::size_t valid_bytes);

 private:
  ActivityCollector() = default;
  std::mutex mutex_;
  bool callbacks_registered_ = false;
  std::vector<KernelRecord> kernels_;
  std::unordered_map<std::uint32_t, std::uint64_t> external_of_correlation_;
  std::uint64_t dropped_ = 0;
};

}  // namespace bigtune::profiler::detail
