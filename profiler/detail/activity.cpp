#include "profiler/detail/activity.hpp"

#include <cupti.h>

#include <cstdlib>

#include "profiler/detail/check.hpp"

namespace bigtune::profiler::detail {
namespace {

constexpr std::size_t kBufferBytes = 4u << 20;  // one CUPTI buffer: ~20k kernel records
constexpr std::size_t kBufferAlign = 8;         // CUPTI requires 8-byte aligned buffers

// External correlation kind reserved for bigtune's own launch ids.
constexpr CUpti_ExternalCorrelationKind kLaunchIdKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
    // External correlation records are emitted alongside API records, so the
    // API kinds are on while timing (a few hundred ns per call).
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
};

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                               std::size_t valid_bytes) {
  if (buffer == nullptr) return;
  ActivityCollector::instance().consume(buffer, valid_bytes);
  std::free(buffer);
}

}  // namespace

ActivityCollector& ActivityCollector::instance() {
  static ActivityCollector collector;
  return collector;
}

void ActivityCollector::enable() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!callbacks_registered_) {
      BIGTUNE_CUPTI_CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
      callbacks_registered_ = true;
    }
  }
  for (CUpti_ActivityKind kind : kKinds) BIGTUNE_CUPTI_CHECK(cuptiActivityEnable(kind));
}

void ActivityCollector::disable() {
  for (CUpti_ActivityKind kind : kKinds) cuptiActivityDisable(kind);  // best effort
}

void ActivityCollector::push_launch_id(std::uint64_t id) {
  BIGTUNE_CUPTI_CHECK(cuptiActivityPushExternalCorrelationId(kLaunchIdKind, id));
}

void ActivityCollector::pop_launch_id() {
  std::uint64_t last = 0;
  BIGTUNE_CUPTI_CHECK(cuptiActivityPopExternalCorrelationId(kLaunchIdKind, &last));
}

ActivityCollector::Batch ActivityCollector::take() {
  BIGTUNE_CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  std::lock_guard<std::mutex> lock(mutex_);
  Batch batch;
  batch.kernels.swap(kernels_);
  for (KernelRecord& k : batch.kernels) {
    auto it = external_of_correlation_.find(k.correlation_id);
    if (it != external_of_correlation_.end()) k.external_id = it->second;
  }
  external_of_correlation_.clear();
  batch.dropped = dropped_;
  dropped_ = 0;
  return batch;
}

void ActivityCollector::consume(const std::uint8_t* buffer, std::size_t valid_bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  CUpti_Activity* record = nullptr;
  auto* data = const_cast<std::uint8_t*>(buffer);
  while (cuptiActivityGetNextRecord(data, valid_bytes, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      KernelRecord r;
      r.name = k->name ? k->name : "";
      r.start_ns = k->start;
      r.end_ns = k->end;
      r.correlation_id = k->correlationId;
      r.grid = {k->gridX, k->gridY, k->gridZ};
      r.block = {k->blockX, k->blockY, k->blockZ};
      r.registers_per_thread = k->registersPerThread;
      r.static_shared_bytes = k->staticSharedMemory;
      r.dynamic_shared_bytes = k->dynamicSharedMemory;
      r.local_bytes_per_thread = k->localMemoryPerThread;
      r.device_id = k->deviceId;
      r.stream_id = k->streamId;
      kernels_.push_back(std::move(r));
    } else if (record->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
      const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
      if (e->externalKind == kLaunchIdKind) external_of_correlation_[e->correlationId] = e->externalId;
    }
  }
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS) dropped_ += dropped;
}

}  // namespace bigtune::profiler::detail
