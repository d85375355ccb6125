#include "profiler/metric_config.hpp"

#include <cupti_profiler_host.h>

#include "profiler/detail/check.hpp"

namespace bigtune::profiler {
namespace {

const char* metric_type_name(CUpti_MetricType type) {
  switch (type) {
    case CUPTI_METRIC_TYPE_COUNTER: return "counter";
    case CUPTI_METRIC_TYPE_RATIO: return "ratio";
    case CUPTI_METRIC_TYPE_THROUGHPUT: return "throughput";
    default: return "unknown";
  }
}

std::string or_empty(const char* s) { return s ? s : ""; }

}  // namespace

const std::vector<std::string>& default_metrics() {
  static const std::vector<std::string> names = {
      "smsp__inst_executed.sum",                              // warp instructions executed
      "smsp__inst_executed_op_global_ld.sum",                 // global load instructions
      "smsp__inst_executed_op_global_st.sum",                 // global store instructions
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",       // global load sectors
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",       // global store sectors
      "smsp__inst_executed_op_shared_ld.sum",                 // shared load instructions
      "smsp__inst_executed_op_shared_st.sum",                 // shared store instructions
      "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",       // shared wavefronts
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",   // shared bank conflicts
      "dram__bytes_read.sum",                                 // DRAM bytes read
      "dram__bytes_write.sum",                                // DRAM bytes written
      "sm__warps_active.avg.pct_of_peak_sustained_active",    // achieved occupancy (%)
      "sm__cycles_elapsed.avg",                               // elapsed cycles per SM
      "gpu__time_duration.sum",                               // duration (ns) under replay
  };
  return names;
}

namespace {

CUpti_Profiler_Host_Object* host_initialize(const std::string& chip,
                                            const std::vector<std::uint8_t>& availability) {
  CUpti_Profiler_Host_Initialize_Params init{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  init.pChipName = chip.c_str();
  init.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
  const CUptiResult status = cuptiProfilerHostInitialize(&init);
  if (status != CUPTI_SUCCESS)
    throw Error(ErrorCode::Profiler,
                "CUPTI cannot configure metrics for chip '" + chip + "': " +
                    detail::cupti_status_text(status),
                "check the chip name (bigtune probe) and that libnvperf_host.so sits beside libcupti");
  return init.pHostObject;
}

void host_deinitialize(CUpti_Profiler_Host_Object* host) {
  CUpti_Profiler_Host_Deinitialize_Params done{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  done.pHostObject = host;
  cuptiProfilerHostDeinitialize(&done);
}

CUptiResult host_add(CUpti_Profiler_Host_Object* host, std::vector<const char*> names) {
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = host;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  return cuptiProfilerHostConfigAddMetrics(&add);
}

}  // namespace

MetricConfig::MetricConfig(const std::string& chip, const std::vector<std::string>& metrics,
                           const std::vector<std::uint8_t>& availability)
    : chip_(chip) {
  host_ = host_initialize(chip_, availability);
  try {
    // 1. Names: each checked alone, so a bad one is reported by name (a bad
    //    suffix on a good base name is caught here too).
    for (const std::string& name : metrics) {
      CUpti_Profiler_Host_GetMetricProperties_Params props{
          CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
      props.pHostObject = host_;
      props.pMetricName = name.c_str();
      const CUptiResult s = cuptiProfilerHostGetMetricProperties(&props);
      if (s != CUPTI_SUCCESS) {
        rejected_.push_back({name, "not a metric of " + chip_ + ": " + detail::cupti_status_text(s)});
        continue;
      }
      accepted_.push_back({name, metric_type_name(props.metricType), or_empty(props.pDescription),
                           or_empty(props.pDimUnit)});
    }
    if (accepted_.empty()) return;  // nothing to configure; callers check metrics()

    // 2. Scheduling: all names in one call (adding them one at a time gives
    //    one pass per metric: 14 passes instead of 2 for default_metrics() on
    //    GH100). If the set is refused (a counter the device cannot collect),
    //    find the culprits one by one on a scratch object and retry without them.
    auto names_of = [](const std::vector<MetricInfo>& list) {
      std::vector<const char*> names;
      for (const MetricInfo& m : list) names.push_back(m.name.c_str());
      return names;
    };
    CUptiResult s = host_add(host_, names_of(accepted_));
    if (s != CUPTI_SUCCESS) {
      std::vector<MetricInfo> keep;
      for (const MetricInfo& m : accepted_) {
        CUpti_Profiler_Host_Object* scratch = host_initialize(chip_, availability);
        const CUptiResult one = host_add(scratch, {m.name.c_str()});
        host_deinitialize(scratch);
        if (one == CUPTI_SUCCESS)
          keep.push_back(m);
        else
          rejected_.push_back({m.name, "cannot be collected here: " + detail::cupti_status_text(one)});
      }
      accepted_ = std::move(keep);
      host_deinitialize(host_);
      host_ = nullptr;
      host_ = host_initialize(chip_, availability);
      if (accepted_.empty()) return;
      BIGTUNE_CUPTI_CHECK(host_add(host_, names_of(accepted_)));
    }

    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host_;
    BIGTUNE_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&size));
    config_image_.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = host_;
    image.configImageSize = config_image_.size();
    image.pConfigImage = config_image_.data();
    BIGTUNE_CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&image));
    CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = config_image_.size();
    passes.pConfigImage = config_image_.data();
    BIGTUNE_CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses(&passes));
    passes_ = passes.numOfPasses;
  } catch (...) {
    if (host_) host_deinitialize(host_);
    host_ = nullptr;
    throw;
  }
}

MetricConfig::~MetricConfig() {
  if (host_) host_deinitialize(host_);
}

std::vector<double> MetricConfig::evaluate(const std::vector<std::uint8_t>& counter_data,
                                           std::size_t range) const {
  std::vector<const char*> names;
  for (const MetricInfo& m : accepted_) names.push_back(m.name.c_str());
  std::vector<double> values(names.size(), 0.0);
  if (names.empty()) return values;
  CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  eval.pHostObject = host_;
  eval.pCounterDataImage = counter_data.data();
  eval.counterDataImageSize = counter_data.size();
  eval.rangeIndex = range;
  eval.ppMetricNames = names.data();
  eval.numMetrics = names.size();
  eval.pMetricValues = values.data();
  BIGTUNE_CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues(&eval));
  return values;
}

std::vector<std::string> MetricConfig::supported_chips() {
  CUpti_Profiler_Host_GetSupportedChips_Params p{CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
  BIGTUNE_CUPTI_CHECK(cuptiProfilerHostGetSupportedChips(&p));
  std::vector<std::string> chips;
  for (std::size_t i = 0; i < p.numChips; ++i) chips.emplace_back(p.ppChipNames[i]);
  return chips;
}

}  // namespace bigtune::profiler
