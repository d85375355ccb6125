// The runtime's plan selection (DESIGN.md, "Runtime"; issue 7).
//
// plan(op, bits, count, device) answers, in this order:
//  1. the in-process cache, keyed by the exact (op, bits, count, device);
//  2. a stored decision whose buckets hold (bits, count) (db/buckets.hpp):
//     this very device's first, else the newest for its model name;
//  3. history: the fastest measured plan in the same buckets;
//  4. the shipped profile for the device's model name (db/profiles.hpp), used
//     only while the database holds no decision for any device of that name;
//  5. the model callback (the tuner's rational program), when set and when
//     it returns a plan;
//  6. the default callback (the runtime's safe built-in plan).
// The Plan's `source` says which of 2-6 chose it (a cached plan keeps the
// source it was chosen by). Each choice is counted for history. With a
// SelectorOptions::check, answers of steps 2-5 that this build cannot run
// are passed over.
//
// Cost: a cache hit takes a shared lock on one of 64 shards, hashes the key
// and compares strings (no allocation other than the returned Plan's
// strings), and bumps a relaxed atomic counter: well under a microsecond.
// A miss queries SQLite on the caller's thread (tens of microseconds).
// History never costs the caller a write: counts accumulate in the cache and
// a background thread writes them, one transaction per flush, every
// `flush_interval`, sooner after `flush_after_misses` new choices, and at
// destruction. One history row = one (op, bits, count, device, plan) and the
// number of calls that used it between the previous flush and this one.
//
// No CUDA here: the device comes in as plain data.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bigtune/plan.hpp"

namespace bigtune::db {
class Store;
}

namespace bigtune::runtime {

// What identifies a GPU for selection. A named model without a GPU (e.g.
// `bigtune query --device "NVIDIA H100 80GB HBM3"`) has an empty uuid.
struct DeviceIdentity {
  std::string name;  // cudaDeviceProp::name, e.g. "NVIDIA H100 80GB HBM3"
  std::string uuid;  // "GPU-xxxxxxxx-..." or empty
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;

  // The database's device key: the uuid, or "model:<name>" without one.
  std::string key() const { return uuid.empty() ? "model:" + name : uuid; }
};

// A source of plans that may have nothing to say (return std::nullopt).
// It must be safe to call from several threads at once. The selector sets
// the returned plan's `source` itself ("model" or "default").
using PlanFunction = std::function<std::optional<Plan>(
    const std::string& op, uint64_t bits, uint64_t count, const DeviceIdentity& device)>;

// Whether `plan` can run (op, bits, count) on `device` in this build: the
// variant exists in the registry and fits the device's limits. Stored plans
// can be stale (a renamed variant, a profile from another build), so each
// answer of steps 2-5 that fails it is skipped, and the next step asked.
using PlanCheck = std::function<bool(const std::string& op, uint64_t bits, uint64_t count,
                                     const DeviceIdentity& device, const Plan& plan)>;

struct SelectorOptions {
  PlanCheck check;                // empty: every plan is taken as valid
  bool use_profiles = true;
  std::string profiles_dir;       // empty: db::default_profiles_dir()
  bool record_history = true;     // false for read-only uses such as `bigtune query`
  std::chrono::milliseconds flush_interval{2000};
  size_t flush_after_misses = 1024;
  // Past this many cached plans (a program that sweeps through sizes) the
  // cache is emptied; counted calls move to the history queue first.
  size_t max_cached_plans = size_t{1} << 20;
};

class Selector {
 public:
  // `store` may be null (no database: steps 2 and 3 are skipped, nothing is
  // recorded). `default_plan` must always return a plan for valid sizes.
  Selector(std::shared_ptr<db::Store> store, PlanFunction default_plan,
           SelectorOptions options = {});
  ~Selector();  // writes the remaining history (errors are kept, not thrown)
  Selector(const Selector&) = delete;
  Selector& operator=(const Selector&) = delete;

  // Installs (or, with an empty function, removes) the tuner's model callback.
  void set_model(PlanFunction model);

  // The plan for one call. Throws bigtune::Error: InvalidArgument for bits or
  // count of 0 (or above 2^62) or an empty op; Unsupported when no step,
  // not even the default, gives a plan; Database when the store fails.
  Plan plan(const std::string& op, uint64_t bits, uint64_t count, const DeviceIdentity& device);

  // Adds a history row with a measured time for `plan` (queued, not written).
  void record_measurement(const std::string& op, uint64_t bits, uint64_t count,
                          const DeviceIdentity& device, const Plan& plan, double measured_us);

  // Writes queued history now, on this thread; throws what the store throws
  // (the rows stay queued for the next try).
  void flush();

  // Forgets cached plans and profiles (after a tuning run stored decisions).
  // Call counts gathered so far are flushed first.
  void invalidate();

  // Plans resolved from steps 2-6 (cache misses) since construction.
  uint64_t misses() const;
  // The last error of a background flush, or "" (cleared by a successful flush).
  std::string last_flush_error() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bigtune::runtime
