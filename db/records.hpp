// Plain rows of the tuning database, as the rest of bigtune sees them.
// Rows name each other by natural keys (device uuid, variant name + build id)
// rather than row ids, so they mean the same thing in every file and survive
// export and import. Timestamps are UTC ISO 8601 text ("2026-11-22T11:17:05.123Z");
// an empty timestamp on write means "now". docs/database.md explains each field.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/buckets.hpp"

namespace bigtune::db {

struct DeviceRecord {
  std::string uuid;  // the GPU's UUID, or "model:<name>" for a named model without a GPU
  std::string name;  // e.g. "NVIDIA H100 80GB HBM3"; profiles match on it
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::optional<int64_t> max_threads_per_block;
  std::optional<int64_t> smem_per_block_optin;  // bytes
  std::optional<int64_t> regs_per_block;
  std::optional<int64_t> global_memory_bytes;
  std::map<std::string, double> probes;  // micro-benchmark results, e.g. "copy_gbps"
  std::string first_seen;
};

struct VariantRecord {
  std::string name;      // registry name, e.g. "mul.classical.u64.q4"
  std::string build_id;  // which build measured it (kernels change between builds)
  std::string op;
  std::string family;
  std::string algorithm;
  int limb_bits = 0;
  int q = 0;
};

// Outcome of one measurement. Failures are kept as data, never dropped.
enum class SampleStatus { Ok, Timeout, Fault, Invalid };
const char* sample_status_name(SampleStatus status);  // "ok", "timeout", "fault", "invalid"
std::optional<SampleStatus> parse_sample_status(const std::string& name);

struct SampleRecord {
  std::string device_uuid;
  std::string variant_name;
  std::string build_id;
  uint64_t bits = 0;
  uint64_t count = 0;
  uint32_t ipb = 1;
  SampleStatus status = SampleStatus::Ok;
  std::string reason;  // why it failed; empty when ok
  int reps = 0;
  std::optional<double> time_us_median, time_us_min, time_us_max;  // empty on failure
  std::map<std::string, double> counters;  // CUPTI metric name -> value
  std::string measured_at;
};

struct ModelRecord {
  std::string device_uuid;
  std::string variant_name;
  std::string build_id;
  std::string metric;   // what is predicted, e.g. "smsp__inst_executed.sum" or "time_us"
  std::string degrees;  // the tuner's description of the rational function's shape
  std::vector<double> coefficients;
  std::optional<double> fit_error;
  int sample_count = 0;
  std::string fitted_at;
};

// A plan for every size in its buckets. Whoever stores one (the tuner, an
// import) must make sure the variant is valid for the whole bucket, i.e. up
// to bits.hi - 1 and count.hi - 1, not only for the size it measured.
struct DecisionRecord {
  std::string device_uuid;
  std::string device_name;  // filled on read; ignored on write
  std::string op;
  Bucket bits;   // see buckets.hpp
  Bucket count;
  std::string variant;
  uint32_t ipb = 1;
  std::optional<double> predicted_us, measured_us;
  std::string source;  // who decided: "tuner", "measured", "manual", "import", "profile"
  std::string decided_at;
};

struct HistoryRecord {
  std::string device_uuid;
  std::string device_name;  // filled on read; ignored on write
  std::string op;
  uint64_t bits = 0;
  uint64_t count = 0;
  std::string variant;
  uint32_t ipb = 1;
  std::string source;  // where the plan came from: decision, history, profile, model, default
  std::optional<double> predicted_us, measured_us;
  int64_t calls = 1;  // calls that used this plan between first_at and last_at
  std::string first_at, last_at;
};

// Everything a database holds, in the order export writes it.
struct Dump {
  std::vector<DeviceRecord> devices;
  std::vector<VariantRecord> variants;
  std::vector<SampleRecord> samples;
  std::vector<ModelRecord> models;
  std::vector<DecisionRecord> decisions;
  std::vector<HistoryRecord> history;
};

// The current time as stored: UTC ISO 8601 with milliseconds.
std::string utc_timestamp();

}  // namespace bigtune::db
