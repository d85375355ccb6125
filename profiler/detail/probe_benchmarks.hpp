// Micro-benchmark kernels of the device probe (probe_benchmarks.cu). Each
// function times its kernel with CUDA events and returns the median rate.
// Private to profiler/.
#pragma once

namespace bigtune::profiler::detail {

struct BenchContext {
  int device = 0;
  int sm_count = 0;
  int repetitions = 7;
};

double bench_copy_gbs(const BenchContext& c);
double bench_shared_gbs(const BenchContext& c);
double bench_mul32_gops(const BenchContext& c);
double bench_mul64_gops(const BenchContext& c);
// Returns {GPU interval per back-to-back launch, host launch+sync latency}, in us.
void bench_launch_us(const BenchContext& c, double* interval_us, double* sync_us);

}  // namespace bigtune::profiler::detail
