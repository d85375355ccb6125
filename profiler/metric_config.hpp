// Host-side metric configuration for the CUPTI range profiler (issue 5, item 2).
//
// Works without a GPU: for a named chip ("GH100") and no counter-availability
// image, cuptiProfilerHostInitialize gives the same configuration image as on
// the device (DESIGN.md, checked on the H100), so the metric list is tested in
// CI. Each name is validated on its own with cuptiProfilerHostGetMetricProperties
// and cuptiProfilerHostConfigAddMetrics; a name the chip lacks (or a bad suffix)
// is reported in rejected(), never fatal. libcupti loads libnvperf_host.so for
// this at run time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object;

namespace bigtune::profiler {

// The counters the tuner needs, by the names checked on the H100 (DESIGN.md):
// instructions, global load/store instructions and sectors, shared-memory
// wavefronts and bank conflicts, DRAM bytes, achieved occupancy, elapsed cycles.
const std::vector<std::string>& default_metrics();

// What the chip says of one metric.
struct MetricInfo {
  std::string name;
  std::string type;         // "counter", "ratio" or "throughput"
  std::string description;  // CUPTI's one-line description
  std::string unit;         // dimension of the value (e.g. "inst", "byte")
};

struct RejectedMetric {
  std::string name;
  std::string reason;
};

class MetricConfig {
 public:
  // `chip`: a CUPTI chip name ("GH100", ...); `availability`: the device's
  // counter-availability image, or empty offline. Throws bigtune::Error
  // (Profiler) when the chip is unknown or CUPTI's host library cannot load.
  MetricConfig(const std::string& chip, const std::vector<std::string>& metrics,
               const std::vector<std::uint8_t>& availability = {});
  ~MetricConfig();
  MetricConfig(const MetricConfig&) = delete;
  MetricConfig& operator=(const MetricConfig&) = delete;

  const std::string& chip() const { return chip_; }
  const std::vector<MetricInfo>& metrics() const { return accepted_; }  // in request order
  const std::vector<RejectedMetric>& rejected() const { return rejected_; }
  const std::vector<std::uint8_t>& config_image() const { return config_image_; }
  std::size_t passes() const { return passes_; }  // replay passes the set needs

  // Values of every accepted metric for one range of a decoded counter-data
  // image, in metrics() order.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range) const;

  // The chips this CUPTI knows.
  static std::vector<std::string> supported_chips();

 private:
  std::string chip_;
  CUpti_Profiler_Host_Object* host_ = nullptr;
  std::vector<MetricInfo> accepted_;
  std::vector<RejectedMetric> rejected_;
  std::vector<std::uint8_t> config_image_;
  std::size_t passes_ = 0;
};

}  // namespace bigtune::profiler
