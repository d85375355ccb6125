#include "profiler/counters.hpp"

#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cmath>
#include <limits>

#include "profiler/detail/check.hpp"
#include "profiler/detail/driver.hpp"
#include "profiler/json.hpp"

namespace bigtune::profiler {
namespace {

// CUPTI answers that mean "no counters for you here", as opposed to a bug:
// each becomes CountersUnavailable with the reason in words.
bool is_refusal(CUptiResult s) {
  switch (s) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
      return true;
    default:
      return false;
  }
}

std::string refusal_text(CUptiResult s, const char* step) {
  std::string why = std::string(step) + " returned " + detail::cupti_status_text(s);
  if (s == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || s == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
    why += ": the driver restricts GPU performance counters to administrators "
           "(NVreg_RestrictProfilingToAdminUsers=1); run as root or allow profiling for all users, "
           "see https://developer.nvidia.com/ERR_NVGPUCTRPERM";
  else if (s == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || s == CUPTI_ERROR_HARDWARE_BUSY ||
           s == CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED)
    why += ": another profiler (ncu, nsys, a second CUPTI client) holds the counters";
  return why;
}

// Status check for calls that may be refused by policy rather than fail.
void check_access(CUptiResult s, const char* step) {
  if (s == CUPTI_SUCCESS) return;
  if (is_refusal(s)) throw CountersUnavailable(refusal_text(s, step));
  throw Error(ErrorCode::Profiler, std::string(step) + " failed: " + detail::cupti_status_text(s));
}

// Counters summed over a launch's kernels; averages and percentages averaged.
bool sums_over_kernels(const std::string& metric) {
  const std::string suffix = ".sum";
  return metric.size() >= suffix.size() &&
         metric.compare(metric.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

struct CounterSession::State {
  int device = 0;
  CUcontext ctx = nullptr;
  cudaStream_t stream = nullptr;
  bool profiler_initialized = false;
  CUpti_RangeProfiler_Object* rp = nullptr;
  bool started = false;
  bool configured = false;  // cuptiRangeProfilerSetConfig done
  std::unique_ptr<MetricConfig> config;
  std::vector<std::uint8_t> counter_data;
  std::size_t max_ranges = 0;
  std::vector<int> pending;  // kernels per add() not yet decoded
  std::size_t pending_ranges = 0;
  std::vector<CounterSample> decoded;  // decoded, not yet handed out

  std::vector<const char*> metric_names() const {
    std::vector<const char*> names;
    for (const MetricInfo& m : config->metrics()) names.push_back(m.name.c_str());
    return names;
  }
};

double CounterSample::value(const std::string& name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return values[i];
  return std::numeric_limits<double>::quiet_NaN();
}

std::string CounterSample::to_json() const {
  JsonWriter w;
  w.begin_object();
  w.field("ok", ok);
  if (!error.empty()) w.field("error", error);
  w.field("ranges", ranges);
  w.key("metrics").begin_object();
  for (std::size_t i = 0; i < names.size(); ++i) w.field(names[i], values[i]);
  w.end_object();
  w.end_object();
  return w.str();
}

CounterSession::CounterSession(const CounterOptions& options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  if (options.max_ranges < 1) throw Error(ErrorCode::InvalidArgument, "max_ranges must be >= 1");
  s.device = options.device;
  s.max_ranges = options.max_ranges;
  BIGTUNE_CUDA_CHECK(cudaSetDevice(s.device));
  s.ctx = detail::current_context();

  try {
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    check_access(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    s.profiler_initialized = true;

    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = static_cast<std::size_t>(s.device);
    check_access(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    const std::string chip_name = chip.pChipName ? chip.pChipName : "";

    CUpti_Profiler_GetCounterAvailability_Params avail{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.ctx = s.ctx;
    check_access(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");
    std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = availability.data();
    check_access(cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability");

    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = s.ctx;
    check_access(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
    s.rp = enable.pRangeProfilerObject;

    s.config = std::make_unique<MetricConfig>(chip_name, options.metrics, availability);
    if (s.config->metrics().empty())
      throw CountersUnavailable("none of the " + std::to_string(options.metrics.size()) +
                                " requested metrics exists on chip " + chip_name);

    auto names = s.metric_names();
    CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = s.rp;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = s.max_ranges;
    size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(s.max_ranges);
    BIGTUNE_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
    s.counter_data.resize(size.counterDataSize);
    BIGTUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  } catch (...) {
    release();
    throw;
  }
}

CounterSession::~CounterSession() { release(); }

void CounterSession::release() noexcept {
  if (!state_) return;
  State& s = *state_;
  if (s.started) {
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = s.rp;
    cuptiRangeProfilerStop(&stop);
    s.started = false;
  }
  if (s.rp) {
    CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    disable.pRangeProfilerObject = s.rp;
    cuptiRangeProfilerDisable(&disable);
    s.rp = nullptr;
  }
  s.config.reset();
  if (s.profiler_initialized) {
    CUpti_Profiler_DeInitialize_Params done{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
    cuptiProfilerDeInitialize(&done);
    s.profiler_initialized = false;
  }
  if (s.stream) {
    cudaStreamDestroy(s.stream);
    s.stream = nullptr;
  }
}

void CounterSession::start() {
  State& s = *state_;
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = s.rp;
  init.counterDataSize = s.counter_data.size();
  init.pCounterData = s.counter_data.data();
  BIGTUNE_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&init));

  // The configuration (and the counter-data buffer it points to) is set once
  // per session; later refills only re-initialize that buffer.
  if (!s.configured) {
    const auto& image = s.config->config_image();
    CUpti_RangeProfiler_SetConfig_Params config{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    config.pRangeProfilerObject = s.rp;
    config.configSize = image.size();
    config.pConfig = image.data();
    config.counterDataImageSize = s.counter_data.size();
    config.pCounterDataImage = s.counter_data.data();
    config.range = CUPTI_AutoRange;
    config.replayMode = CUPTI_KernelReplay;
    config.maxRangesPerPass = s.max_ranges;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    BIGTUNE_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&config));
    s.configured = true;
  }

  CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  start.pRangeProfilerObject = s.rp;
  check_access(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
  s.started = true;
}

void CounterSession::stop_and_decode() {
  State& s = *state_;
  if (!s.started) return;
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = s.rp;
  BIGTUNE_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));
  s.started = false;
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = s.rp;
  BIGTUNE_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = s.counter_data.data();
  info.counterDataImageSize = s.counter_data.size();
  BIGTUNE_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));

  std::vector<std::string> names;
  for (const MetricInfo& m : s.config->metrics()) names.push_back(m.name);
  // Auto range gives one range per kernel, in launch order; a different total
  // means a launch failed or the closures launched other counts than stated,
  // and then no range can be trusted to belong to its launch.
  const bool consistent = info.numTotalRanges == s.pending_ranges && decode.numOfRangeDropped == 0;
  std::size_t range = 0;
  for (int kernels : s.pending) {
    CounterSample sample;
    sample.names = names;
    sample.ranges = kernels;
    sample.values.assign(names.size(), 0.0);
    if (!consistent) {
      sample.error = "the profiler recorded " + std::to_string(info.numTotalRanges) + " kernels (" +
                     std::to_string(decode.numOfRangeDropped) + " dropped) for " +
                     std::to_string(s.pending_ranges) + " expected";
    } else {
      for (int k = 0; k < kernels; ++k, ++range) {
        const std::vector<double> v = s.config->evaluate(s.counter_data, range);
        for (std::size_t m = 0; m < v.size(); ++m) sample.values[m] += v[m];
      }
      for (std::size_t m = 0; m < names.size(); ++m)
        if (!sums_over_kernels(names[m]) && kernels > 0) sample.values[m] /= kernels;
      sample.ok = true;
    }
    s.decoded.push_back(std::move(sample));
  }
  s.pending.clear();
  s.pending_ranges = 0;
}

void CounterSession::add(const std::function<void(cudaStream_t)>& launch, int kernels_per_launch) {
  State& s = *state_;
  if (kernels_per_launch < 1 || static_cast<std::size_t>(kernels_per_launch) > s.max_ranges)
    throw Error(ErrorCode::InvalidArgument,
                "kernels_per_launch must be between 1 and max_ranges (" + std::to_string(s.max_ranges) + ")");
  if (s.pending_ranges + static_cast<std::size_t>(kernels_per_launch) > s.max_ranges) stop_and_decode();
  if (!s.started) start();
  s.pending.push_back(kernels_per_launch);
  s.pending_ranges += static_cast<std::size_t>(kernels_per_launch);
  (void)cudaGetLastError();  // clear a stale error that is not this launch's
  try {
    launch(s.stream);
    BIGTUNE_CUDA_CHECK(cudaGetLastError());
  } catch (...) {
    // A refused launch produced no range: forget it, so that the launches
    // around it keep their counters.
    s.pending.pop_back();
    s.pending_ranges -= static_cast<std::size_t>(kernels_per_launch);
    throw;
  }
}

std::vector<CounterSample> CounterSession::collect() {
  stop_and_decode();
  std::vector<CounterSample> out;
  out.swap(state_->decoded);
  return out;
}

CounterSample CounterSession::measure(const std::function<void(cudaStream_t)>& launch,
                                      int kernels_per_launch) {
  if (!state_->pending.empty() || !state_->decoded.empty())
    throw Error(ErrorCode::InvalidArgument, "measure() with add()ed launches not yet collected");
  add(launch, kernels_per_launch);
  return collect().front();
}

const std::string& CounterSession::chip() const { return state_->config->chip(); }
const std::vector<MetricInfo>& CounterSession::metrics() const { return state_->config->metrics(); }
const std::vector<RejectedMetric>& CounterSession::rejected() const { return state_->config->rejected(); }
std::size_t CounterSession::passes() const { return state_->config->passes(); }

}  // namespace bigtune::profiler
