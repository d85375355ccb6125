// Kernel timing with CUDA events for the benchmarks (DESIGN.md, "how to
// measure"): warm-up launches, then timed launches until both a minimum count
// and a minimum total time are reached (at most max_reps); median and minimum.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "bigtune/detail/cuda_check.hpp"

namespace bigtune::bench {

struct TimingPolicy {
  int warmup = 2;
  int min_reps = 5;
  int max_reps = 10;
  float min_total_ms = 0;  // keep timing (up to max_reps) until this much has run
  // Called before each timed run's start event (null: nothing), e.g. to queue
  // work that hides the host's launch overhead from the events.
  void (*before_start)(cudaStream_t) = nullptr;
};

struct EventTimes {
  double median_ms = 0, min_ms = 0;
};

template <class F>
EventTimes time_with_events(F&& launch, cudaStream_t stream, const TimingPolicy& p) {
  cudaEvent_t start, stop;
  BIGTUNE_CUDA_CHECK(cudaEventCreate(&start));
  BIGTUNE_CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < p.warmup; ++i) launch();
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<float> t;
  float total = 0;
  for (int i = 0; i < std::max(p.max_reps, 1) && (i < p.min_reps || total < p.min_total_ms); ++i) {
    if (p.before_start) p.before_start(stream);
    BIGTUNE_CUDA_CHECK(cudaEventRecord(start, stream));
    launch();
    BIGTUNE_CUDA_CHECK(cudaEventRecord(stop, stream));
    BIGTUNE_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    BIGTUNE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    t.push_back(ms);
    total += ms;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

}  // namespace bigtune::bench
