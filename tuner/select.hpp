// Sampling plans and selection over the registry (seed 004 §4.4), generic
// over variant families: everything about a variant's shape comes from the
// registry (kernels::geometry, kernels::why_invalid), so thread-, warp- and
// block-level variants are sampled, modelled and chosen alike.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/records.hpp"
#include "kernels/registry.hpp"
#include "tuner/time_model.hpp"

namespace bigtune::tuner {

LaunchShape launch_shape(const kernels::Variant& v, uint64_t bits, uint64_t count, uint32_t ipb,
                         const kernels::DeviceLimits& limits);

// Shapes a variant's model will be asked about: bit-sizes on a log grid
// (eight per octave) up to the variant's largest, each with every valid IPB.
// fit_variant keeps the fitted metrics positive on them.
std::vector<LaunchShape> extrapolation_shapes(const kernels::Variant& v, const kernels::DeviceLimits& limits,
                                              uint64_t max_bits = uint64_t(1) << 20);

// Ops whose cost grows faster than the size (products and what is built on
// them): sampled with fewer bits per batch.
bool superlinear_op(kernels::Op op);
// Ops whose calls cost far more per bit than a product (the modular ones:
// Montgomery set-up per call, quadratic loops per thread): sampled and
// measured with smaller batches (first H100 run of tuner2: mulmod's 59
// samples at 2^24 bits per batch took over 90 s).
bool heavy_op(kernels::Op op);

// Instances-per-block values worth trying: powers of two from 1 while valid
// (and <= count).
std::vector<uint32_t> ipb_candidates(const kernels::Variant& v, uint64_t bits, uint64_t count,
                                     const kernels::DeviceLimits& limits);

struct SamplePoint {
  uint64_t bits = 0, count = 0;
  uint32_t ipb = 1;
};
struct SamplingOptions {
  uint64_t max_bits = 16384;  // train on small sizes only (2^14)
  uint64_t batch_bits_linear = uint64_t(1) << 27;       // bits x count per sample, linear-cost ops
  uint64_t batch_bits_superlinear = uint64_t(1) << 24;  // products and the like
  uint64_t batch_bits_heavy = uint64_t(1) << 21;        // heavy_op()
  int sm_count = 132;
  // Six sizes instead of ten (256, 768, 2048, 4736, 10240, 16384; small
  // variants 32 ... 1536 likewise): what `bigtune tune` falls back to when
  // the time budget would not cover every op at the full design.
  bool lite = false;
};
// Batches of a sampled size are a multiple of this many instances, the
// largest IPB tried, so every (variant, IPB) of a size shares one batch (one
// allocation and fill instead of one per distinct largest IPB).
constexpr uint64_t kSampleCountMultiple = 1024;
// The batch counters are read on for a sample of (bits, count): counters are
// sums over instances (per-instance and per-warp metrics are the fitted
// quantities), so a smaller batch of whole blocks gives the same per-instance
// values with less memory for the range profiler's kernel replay to save and
// restore. At least kSampleCountMultiple instances (or `count`, if smaller).
uint64_t counter_batch_count(uint64_t bits, uint64_t count, uint64_t batch_bits = uint64_t(1) << 23);
// The design for one variant (options.lite: six of the sizes): ten bit-sizes from 256 to max_bits (not only
// powers of two: 448, 768, 1344, 3072, 4736, 7168, 10240 sit between them,
// and odd sizes of words exercise the padding), at each up to three IPB
// values (1, about 256 threads, the largest valid), batches of about the
// configured number of bits (several waves), and for two sizes a batch of
// 1.5 waves of one block per SM (the tail the wave model must see). Only
// points valid for the variant on this device.
std::vector<SamplePoint> sampling_plan(const kernels::Variant& v, const kernels::DeviceLimits& limits,
                                       const SamplingOptions& options = {});

// powm with short exponents (a sample with full-size exponents at 7 Kbit
// takes seconds per variant, so powm was left out of `tune all`). The cost of
// x^e mod m is a set-up (conversion, window table) plus a cost per exponent
// bit (one squaring, a multiply every w bits): linear in e's length for fixed
// windows, and for sliding windows on random exponents. So a powm sample is
// timed (and counted) with exponents of exactly kShortExponentBits[0] and [1]
// bits, and the full-size value (e of the modulus' bits, runtime::op_layout)
// is the line through the two. Both lengths are multiples of every window
// width (3-6), so each has whole windows. Sizes below kShortExponentMinBits
// take full exponents (cheap there, and no extrapolation).
constexpr uint64_t kShortExponentBits[2] = {60, 240};
constexpr uint64_t kShortExponentMinBits = 2 * kShortExponentBits[1];
bool short_exponents(kernels::Op op, uint64_t bits);
// The value at an exponent of `full_bits` bits on the line through
// (e[0], at_e0) and (e[1], at_e1); the slope is clamped at 0 (a noisy pair
// whose longer run was not slower), so the result is never below either.
double extrapolate_exponent(double at_e0, double at_e1, uint64_t full_bits,
                            const uint64_t (&e)[2] = kShortExponentBits);

struct Candidate {
  const kernels::Variant* variant = nullptr;
  uint32_t ipb = 1;
  Prediction prediction;
};
// Every valid (variant, ipb) of `op` with a model, best predicted first.
// Variants without a model are skipped (named in `missing` when given).
std::vector<Candidate> rank_candidates(kernels::Op op, uint64_t bits, uint64_t count, const DeviceModel& device,
                                       const std::map<std::string, VariantModel>& models,
                                       const kernels::DeviceLimits& limits,
                                       std::vector<std::string>* missing = nullptr);

// Sizes users care about (decisions stored ahead of time): the bit-size
// buckets (db/buckets.hpp, quarter octaves closed at the top) holding 64 to
// max_bits, and batch counts 2^k from min to max; a decision is taken at the
// bucket's top size (where the powers of two are) and kept only with a variant
// valid over the whole bucket.
struct DecisionGrid {
  uint64_t min_bits = 64, max_bits = uint64_t(1) << 20;
  uint64_t min_count = 1, max_count = uint64_t(1) << 20;
  uint64_t max_batch_bits = uint64_t(1) << 34;  // skip (bits, count) beyond this much data
};
std::vector<db::DecisionRecord> precompute_decisions(kernels::Op op, const DecisionGrid& grid,
                                                     const DeviceModel& device,
                                                     const std::map<std::string, VariantModel>& models,
                                                     const kernels::DeviceLimits& limits,
                                                     const std::string& device_uuid);

// Models <-> the database's model rows (one row per fitted metric, plus the
// time row holding the calibrated constants and the kernel's facts).
std::vector<db::ModelRecord> to_records(const VariantModel& m, const std::string& device_uuid,
                                        const std::string& build_id);
std::map<std::string, VariantModel> from_records(const std::vector<db::ModelRecord>& rows,
                                                 const std::string& device_uuid);

// Device model from a stored device row (probes) and registry limits.
DeviceModel device_model(const kernels::DeviceLimits& limits, double clock_ghz, double copy_gbs, double launch_us);

}  // namespace bigtune::tuner
