// Plan selection with a sharded in-process cache and batched history
// (see selector.hpp for the order of the steps and their costs).
#include "runtime/selector.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "bigtune/error.hpp"
#include "db/buckets.hpp"
#include "db/profiles.hpp"
#include "db/store.hpp"

namespace bigtune::runtime {
namespace {

// Sharding keeps threads that ask for different sizes off each other's lock
// cache lines; 64 shards make collisions rare at the thread counts of a host.
constexpr size_t kShards = 64;

// Cap on queued history rows while the database refuses writes, so a broken
// file cannot exhaust memory; past it the oldest rows are dropped, and
// last_flush_error() says how many.
constexpr size_t kMaxQueuedRows = size_t{1} << 20;

// Folds `v` into `h`: xor, multiply by an odd 64-bit constant (2^64 / golden
// ratio) and fold the high bits down, so every input bit reaches every shard bit.
uint64_t mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

uint64_t key_hash(std::string_view op, uint64_t bits, uint64_t count, const DeviceIdentity& d) {
  const bool by_uuid = !d.uuid.empty();
  uint64_t h = std::hash<std::string_view>{}(op);
  h = mix(h, bits);
  h = mix(h, count);
  h = mix(h, std::hash<std::string_view>{}(by_uuid ? d.uuid : d.name));
  return mix(h, by_uuid ? 1 : 2);
}

struct Entry {
  std::string op;
  uint64_t bits;
  uint64_t count;
  DeviceIdentity device;
  Plan plan;
  std::atomic<uint64_t> calls{0};  // since the last flush

  bool matches(const std::string& o, uint64_t b, uint64_t c, const DeviceIdentity& d) const {
    return bits == b && count == c && op == o && device.uuid == d.uuid &&
           (!d.uuid.empty() || device.name == d.name);
  }
};

struct Shard {
  mutable std::shared_mutex mutex;
  std::unordered_map<uint64_t, std::vector<std::unique_ptr<Entry>>> entries;
};

db::DeviceRecord device_record(const DeviceIdentity& d) {
  db::DeviceRecord r;
  r.uuid = d.key();
  r.name = d.name;
  r.cc_major = d.cc_major;
  r.cc_minor = d.cc_minor;
  r.sm_count = d.sm_count;
  return r;
}

}  // namespace

struct Selector::Impl {
  std::shared_ptr<db::Store> store;
  PlanFunction default_plan;
  SelectorOptions options;

  std::array<Shard, kShards> shards;
  std::atomic<size_t> cached{0};
  std::atomic<uint64_t> misses{0};
  std::atomic<uint64_t> misses_since_flush{0};

  mutable std::shared_mutex model_mutex;
  PlanFunction model;

  std::mutex profiles_mutex;
  std::map<std::string, std::shared_ptr<const db::Profile>> profiles;  // null: no file

  // History: measured rows queued here; call counts live in the entries.
  mutable std::mutex queue_mutex;
  std::vector<db::HistoryRecord> queued;
  std::string last_error;

  std::mutex flush_mutex;  // one flush at a time; guards the three below
  std::string window_start = db::utc_timestamp();
  std::set<std::string> stored_devices;
  // History goes through a connection of its own, so that a flush's write
  // transaction never holds the lookup connection's mutex (misses on other
  // threads would stall behind it). WAL lets the two work side by side.
  std::unique_ptr<db::Store> writer;

  db::Store& history_store() {
    if (!writer) writer = std::make_unique<db::Store>(store->path());
    return *writer;
  }

  std::mutex identities_mutex;  // never held while SQLite works
  std::map<std::string, DeviceIdentity> identities;  // by key(), for device rows

  std::mutex wake_mutex;
  std::condition_variable wake;
  bool stopping = false;
  bool flush_requested = false;
  std::thread flusher;

  Shard& shard_of(uint64_t hash) { return shards[hash % kShards]; }

  std::shared_ptr<const db::Profile> profile_for(const std::string& name) {
    std::lock_guard<std::mutex> lock(profiles_mutex);
    auto it = profiles.find(name);
    if (it != profiles.end()) return it->second;
    const std::string dir =
        options.profiles_dir.empty() ? db::default_profiles_dir() : options.profiles_dir;
    std::shared_ptr<const db::Profile> loaded;
    if (auto p = db::load_profile(dir, name)) loaded = std::make_shared<db::Profile>(std::move(*p));
    profiles[name] = loaded;
    return loaded;
  }

  Plan resolve(const std::string& op, uint64_t bits, uint64_t count, const DeviceIdentity& d) {
    const std::string key = d.key();
    auto usable = [&](const Plan& plan) {
      return !options.check || options.check(op, bits, count, d, plan);
    };
    bool model_has_decisions = false;
    if (store) {
      db::Store::Lookup found = store->lookup(op, bits, count, key, d.name);
      if (const auto& decision = found.decision) {
        Plan plan{decision->variant, decision->ipb, "decision",
                  decision->predicted_us.value_or(decision->measured_us.value_or(0))};
        if (usable(plan)) return plan;
        // lookup() stops at a decision; a stale one sends us on to history.
        found.history = store->best_history(op, bits, count, key, d.name);
      }
      if (const auto& h = found.history) {
        Plan plan{h->variant, h->ipb, "history", h->measured_us.value_or(0)};
        if (usable(plan)) return plan;
      }
      model_has_decisions = found.model_has_decisions;
    }
    if (options.use_profiles && !d.name.empty() && !model_has_decisions) {
      if (auto profile = profile_for(d.name)) {
        if (const db::DecisionRecord* p = profile->find(op, bits, count)) {
          Plan plan{p->variant, p->ipb, "profile",
                    p->predicted_us.value_or(p->measured_us.value_or(0))};
          if (usable(plan)) return plan;
        }
      }
    }
    PlanFunction model_now;
    {
      std::shared_lock<std::shared_mutex> lock(model_mutex);
      model_now = model;
    }
    if (model_now) {
      if (auto plan = model_now(op, bits, count, d)) {
        plan->source = "model";
        if (usable(*plan)) return *plan;
      }
    }
    if (default_plan) {
      if (auto plan = default_plan(op, bits, count, d)) {
        plan->source = "default";
        return *plan;
      }
    }
    throw Error(ErrorCode::Unsupported,
                "no plan for " + op + " of " + std::to_string(bits) + " bits x " +
                    std::to_string(count) + " on " + d.name,
                "check the operation name and sizes; run `bigtune variants` to see what runs");
  }

  // Moves the shard's counted calls into `rows` (caller holds the shard's
  // lock, shared or unique, and flush_mutex for window_start).
  void drain(Shard& shard, const std::string& now, std::vector<db::HistoryRecord>& rows) {
    for (auto& [hash, bucket] : shard.entries) {
      for (auto& e : bucket) {
        const uint64_t calls = e->calls.exchange(0, std::memory_order_relaxed);
        if (calls == 0) continue;
        rows.push_back({e->device.key(), e->device.name, e->op, e->bits, e->count,
                        e->plan.variant, e->plan.ipb, e->plan.source,
                        e->plan.predicted_us > 0 ? std::optional<double>(e->plan.predicted_us)
                                                 : std::nullopt,
                        std::nullopt, static_cast<int64_t>(calls), window_start, now});
      }
    }
  }

  // Empties the cache without losing counted calls (they join the queue).
  void clear_cache() {
    std::lock_guard<std::mutex> flush_lock(flush_mutex);
    const std::string now = db::utc_timestamp();
    std::vector<db::HistoryRecord> rows;
    for (Shard& shard : shards) {
      std::unique_lock<std::shared_mutex> lock(shard.mutex);
      if (options.record_history) drain(shard, now, rows);
      shard.entries.clear();
    }
    cached.store(0, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(queue_mutex);
    queued.insert(queued.end(), rows.begin(), rows.end());
  }

  // Gathers counted calls and queued rows, writes them in one transaction.
  void flush_now() {
    std::lock_guard<std::mutex> flush_lock(flush_mutex);
    const std::string now = db::utc_timestamp();
    std::vector<db::HistoryRecord> rows;
    for (Shard& shard : shards) {
      std::shared_lock<std::shared_mutex> lock(shard.mutex);
      drain(shard, now, rows);
    }
    {
      std::lock_guard<std::mutex> lock(queue_mutex);
      rows.insert(rows.end(), queued.begin(), queued.end());
      queued.clear();
    }
    std::set<std::string> devices;
    for (const db::HistoryRecord& r : rows) devices.insert(r.device_uuid);
    misses_since_flush.store(0, std::memory_order_relaxed);
    if (rows.empty() || !store) {
      window_start = now;
      return;
    }
    try {
      for (const std::string& key : devices) {
        if (stored_devices.count(key) != 0) continue;
        DeviceIdentity identity;
        {
          std::lock_guard<std::mutex> lock(identities_mutex);
          identity = identities.at(key);
        }
        history_store().put_device(device_record(identity));
        stored_devices.insert(key);
      }
      history_store().add_history(rows);
      window_start = now;
      std::lock_guard<std::mutex> lock(queue_mutex);
      last_error.clear();
    } catch (const std::exception& e) {
      // Keep the rows for the next flush; the counted calls are already in them.
      std::lock_guard<std::mutex> lock(queue_mutex);
      last_error = e.what();
      rows.insert(rows.end(), queued.begin(), queued.end());
      if (rows.size() > kMaxQueuedRows) {
        const size_t dropped = rows.size() - kMaxQueuedRows;
        rows.erase(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(dropped));
        last_error += " (" + std::to_string(dropped) + " oldest history rows dropped)";
      }
      queued = std::move(rows);
      throw;
    }
  }

  void request_flush() {
    {
      std::lock_guard<std::mutex> lock(wake_mutex);
      flush_requested = true;
    }
    wake.notify_one();
  }

  void flusher_loop() {
    std::unique_lock<std::mutex> lock(wake_mutex);
    while (!stopping) {
      wake.wait_for(lock, options.flush_interval, [this] { return stopping || flush_requested; });
      if (stopping) break;
      flush_requested = false;
      lock.unlock();
      try {
        flush_now();
      } catch (const std::exception&) {
        // kept in last_error; the rows stay queued
      }
      lock.lock();
    }
  }
};

Selector::Selector(std::shared_ptr<db::Store> store, PlanFunction default_plan,
                   SelectorOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->store = std::move(store);
  impl_->default_plan = std::move(default_plan);
  impl_->options = std::move(options);
  if (impl_->store && impl_->options.record_history) {
    impl_->flusher = std::thread([impl = impl_.get()] { impl->flusher_loop(); });
  }
}

Selector::~Selector() {
  {
    std::lock_guard<std::mutex> lock(impl_->wake_mutex);
    impl_->stopping = true;
  }
  impl_->wake.notify_one();
  if (impl_->flusher.joinable()) impl_->flusher.join();
  if (impl_->options.record_history) {
    try {
      impl_->flush_now();
    } catch (const std::exception&) {
      // A destructor must not throw; the error was recorded in last_error.
    }
  }
}

void Selector::set_model(PlanFunction model) {
  std::unique_lock<std::shared_mutex> lock(impl_->model_mutex);
  impl_->model = std::move(model);
}

Plan Selector::plan(const std::string& op, uint64_t bits, uint64_t count,
                    const DeviceIdentity& device) {
  const uint64_t hash = key_hash(op, bits, count, device);
  Shard& shard = impl_->shard_of(hash);
  {
    std::shared_lock<std::shared_mutex> lock(shard.mutex);
    auto it = shard.entries.find(hash);
    if (it != shard.entries.end()) {
      for (const auto& e : it->second) {
        if (e->matches(op, bits, count, device)) {
          e->calls.fetch_add(1, std::memory_order_relaxed);
          return e->plan;
        }
      }
    }
  }
  if (op.empty()) {
    throw Error(ErrorCode::InvalidArgument, "empty operation name", "use add, sub, mul, ...");
  }
  db::bits_bucket(bits);    // throws InvalidArgument for 0 or > 2^62
  db::count_bucket(count);
  Plan chosen = impl_->resolve(op, bits, count, device);
  impl_->misses.fetch_add(1, std::memory_order_relaxed);
  {
    std::unique_lock<std::shared_mutex> lock(shard.mutex);
    auto& bucket = shard.entries[hash];
    for (const auto& e : bucket) {
      if (e->matches(op, bits, count, device)) {  // another thread won the race
        e->calls.fetch_add(1, std::memory_order_relaxed);
        return e->plan;
      }
    }
    auto entry = std::make_unique<Entry>();
    entry->op = op;
    entry->bits = bits;
    entry->count = count;
    entry->device = device;
    entry->plan = chosen;
    entry->calls.store(impl_->options.record_history ? 1 : 0, std::memory_order_relaxed);
    bucket.push_back(std::move(entry));
  }
  {
    std::lock_guard<std::mutex> lock(impl_->identities_mutex);
    impl_->identities.emplace(device.key(), device);
  }
  if (impl_->cached.fetch_add(1, std::memory_order_relaxed) + 1 > impl_->options.max_cached_plans) {
    impl_->clear_cache();
  }
  if (impl_->options.record_history && impl_->store &&
      impl_->misses_since_flush.fetch_add(1, std::memory_order_relaxed) + 1 >=
          impl_->options.flush_after_misses) {
    impl_->request_flush();
  }
  return chosen;
}

void Selector::record_measurement(const std::string& op, uint64_t bits, uint64_t count,
                                  const DeviceIdentity& device, const Plan& plan,
                                  double measured_us) {
  if (!impl_->options.record_history) return;
  const std::string now = db::utc_timestamp();
  db::HistoryRecord row{device.key(), device.name, op, bits, count, plan.variant, plan.ipb,
                        plan.source,
                        plan.predicted_us > 0 ? std::optional<double>(plan.predicted_us)
                                              : std::nullopt,
                        measured_us, 1, now, now};
  {
    std::lock_guard<std::mutex> lock(impl_->queue_mutex);
    impl_->queued.push_back(std::move(row));
  }
  std::lock_guard<std::mutex> lock(impl_->identities_mutex);
  impl_->identities.emplace(device.key(), device);
}

void Selector::flush() { impl_->flush_now(); }

void Selector::invalidate() {
  impl_->clear_cache();
  std::lock_guard<std::mutex> lock(impl_->profiles_mutex);
  impl_->profiles.clear();
}

uint64_t Selector::misses() const { return impl_->misses.load(std::memory_order_relaxed); }

std::string Selector::last_flush_error() const {
  std::lock_guard<std::mutex> lock(impl_->queue_mutex);
  return impl_->last_error;
}

}  // namespace bigtune::runtime
