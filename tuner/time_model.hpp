// The rational program (seed 004 §4.2, §4.5): a predicted time for any
// (variant, bits, count, ipb), composed of
//  - exact decision nodes: launch geometry from the registry, occupancy from
//    the device limits, the kernel's registers and shared memory
//    (occupancy.hpp), waves = ceil(blocks / (active blocks x SMs)), and which
//    of compute and memory bounds each wave (the regime);
//  - fitted process nodes: low-level metrics that are structurally
//    polynomial in the size (warp instructions, global bytes, shared-memory
//    wavefronts, per instance or per warp, see kMetricInst), fitted with
//    rational_fit.hpp as functions of x = (operand limbs, warps per
//    instance, instances per block) from CUPTI counters on small sizes,
//    plus five per-variant constants calibrated on the measured times of the
//    same samples.
//
// The wave model, in the spirit of MWP-CWP (seed 004 §4.5): a wave with `a`
// blocks on each SM, w warps per block, I instructions, B bytes and S shared
// wavefronts per instance, costs
//   issue   = a * ipb * I / 4            cycles (4 schedulers issue 1 warp-instruction/cycle)
//   latency = (ipb * I / w) * L          cycles (one warp's dependent chain, L per instruction)
//   shared  = a * ipb * S                cycles (one wavefront per cycle per SM)
//   compute = max(issue, latency, shared) / clock
//   memory  = a' * ipb * B / bandwidth   (a' = blocks of the wave on the whole GPU)
//   wave    = max(alpha * compute, beta * memory) + lambda / a
// When few warps are resident the latency term dominates (CWP small: the
// kernel is latency bound); with many, issue or memory does (MWP-CWP's
// compute- and memory-bound cases). Full waves run with the occupancy's a;
// the last, partial wave with ceil(rest / SMs) blocks per SM.
//   time = t0 + full_waves * wave(A) + wave(a_last)
// The last term is MWP's point: a block waits for its own loads and stores
// (a round trip of ~1 us each), which other resident blocks hide; with one
// 1024-thread block per SM every wave pays it in full (measured: 20 % of an
// addition's time at 2^15 bits with 32 instances per block).
// alpha, beta (efficiencies), L, t0 (launch and tail cost) and lambda are the
// calibrated constants; clock and bandwidth come from the device probe.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tuner/occupancy.hpp"
#include "tuner/rational_fit.hpp"

namespace bigtune::tuner {

struct DeviceModel {
  SmLimits sm;
  double clock_ghz = 1.98;   // SM clock (probe: peak SM clock)
  double dram_gbs = 3000;    // device copy bandwidth, bytes read + written (probe)
  double launch_us = 2.0;    // back-to-back launch interval (probe)
  static DeviceModel h100();
};

// One launch, as the registry states it (no GPU needed).
struct LaunchShape {
  uint64_t operand_bits = 0;
  uint64_t count = 0;
  uint32_t ipb = 1;
  uint32_t limbs = 0;          // operand limbs of the variant's limb type
  uint32_t block_threads = 0;
  uint64_t smem_bytes = 0;     // dynamic shared memory of one block
  uint64_t blocks = 0;
};
// The fitted metrics' variables for a shape: (limbs, warps per instance, ipb).
std::vector<double> metric_variables(const LaunchShape& s);

// Names of the fitted metrics, as stored in the database's model table.
// Instructions and shared wavefronts are fitted per *warp* (counter / warps
// launched): under SIMT a warp's instruction stream follows the per-thread
// work, a smooth function of the size, while how warps are shared among
// instances (block = round_up(threads x IPB, 32)) is exact geometry applied
// afterwards. Global bytes are fitted per instance (the data one instance
// moves). First H100 run: per-instance instruction counts of mul.u64.q1 fitted
// with 37 % CV error; per warp they follow a smooth sub-linear curve in the limbs.
// The tuner fits instructions and wavefronts per warp and bytes per
// instance; a model stored with per-instance rows is read as well.
constexpr const char* kMetricInst = "inst_per_instance";            // smsp__inst_executed.sum / count
constexpr const char* kMetricInstWarp = "inst_per_warp";            // smsp__inst_executed.sum / warps
constexpr const char* kMetricBytes = "global_bytes_per_instance";   // 32 * (ld + st sectors) / count
constexpr const char* kMetricShared = "shared_wavefronts_per_instance";
constexpr const char* kMetricSharedWarp = "shared_wavefronts_per_warp";
bool has_instruction_model(const struct VariantModel& m);
constexpr const char* kMetricTime = "time_us";                  // the calibrated wave model

struct MetricFit {
  RationalFunction f;
  double cv_error = 0, train_error = 0;
  int samples = 0, outliers = 0, rank = 0;
};

struct VariantModel {
  std::string variant;
  int regs = 0;             // registers per thread (cudaFuncGetAttributes)
  int static_smem = 0;      // static shared memory per block
  std::map<std::string, MetricFit> metrics;  // kMetricInst, kMetricBytes, kMetricShared
  double alpha = 1, beta = 1, latency = 8, t0_us = 2;
  double wave_latency_us = 0;  // lambda: a wave's unhidden round trips, divided by its blocks per SM
  double time_error = 0;    // relative RMS of predicted vs measured time on the samples
  double time_max_error = 0;
  int time_samples = 0;
};

struct Prediction {
  double time_us = 0;
  int blocks_per_sm = 0;
  uint64_t waves = 0;
  bool memory_bound = false;  // the full waves' (or only wave's) binding term
  OccupancyLimit limit = OccupancyLimit::Invalid;
  double inst = 0, bytes = 0, shared = 0;  // per instance, from the fitted nodes
  bool valid() const { return blocks_per_sm > 0; }
};

// Per-instance metrics at a shape (from the fits, per-warp ones times warps
// per instance; shared 0 when not fitted).
struct Metrics {
  double inst = 0, bytes = 0, shared = 0;
};
Metrics eval_metrics(const VariantModel& m, const LaunchShape& s);

Prediction predict(const DeviceModel& d, const VariantModel& m, const LaunchShape& s);
// The same with metrics given (used by calibration and tests).
Prediction predict_with(const DeviceModel& d, const VariantModel& m, const LaunchShape& s, const Metrics& x);

// One measured sample for fitting: the shape, its time and counters (whole launch).
struct Observation {
  LaunchShape shape;
  double time_us = 0;
  std::map<std::string, double> counters;  // CUPTI names -> values for the launch
};

struct FitReport {
  std::vector<std::string> notes;  // e.g. a metric that could not be fitted
};

// Fits the metric nodes (when counters are present) and calibrates alpha,
// beta, L, t0 against the times. regs/static_smem must be set in `model`.
// `extrapolation`: shapes the model will predict (held-out sizes); the
// fitted metrics must stay positive there.
FitReport fit_variant(const DeviceModel& d, const std::vector<Observation>& obs, VariantModel& model,
                      const std::vector<LaunchShape>& extrapolation = {});

}  // namespace bigtune::tuner
