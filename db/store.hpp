// bigtune::db::Store: the tuning database on disk (docs/database.md).
//
// Opening checks the file before SQLite may write to it: a file that is not
// SQLite, truncated, another application's, or of a newer schema is refused
// with a bigtune::Error (ErrorCode::Database) naming the path and the next
// step, and is left byte-for-byte as it was. A missing file is created, with
// its folders. An older schema is migrated (migrations.hpp).
//
// Connection settings, and why:
//  - journal_mode=WAL: readers (the runtime, `bigtune query`) never wait for
//    a writer (a tuning run) and vice versa;
//  - synchronous=NORMAL: in WAL mode this survives a crash or kill -9 of any
//    process; only a power loss may drop the last transactions, which for
//    tuning data is an acceptable price for fast commits;
//  - busy_timeout (default 5 s): concurrent writers queue up instead of
//    failing at once; past it the caller gets a "locked" error;
//  - foreign_keys=ON: rows never point at missing devices or variants.
// Every logical write is one IMMEDIATE transaction; statements are prepared
// once at open. One Store may be shared by threads (calls are serialized by
// an internal mutex); processes each open their own.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/records.hpp"

namespace bigtune::db {

enum class OpenMode {
  ReadWrite,  // create if missing, migrate if older
  ReadOnly,   // must exist and be current; nothing is ever written
};

struct StoreOptions {
  OpenMode mode = OpenMode::ReadWrite;
  int busy_timeout_ms = 5000;
};

struct StoreInfo {
  std::string path;
  int schema_version = 0;
  int found_version = 0;  // the version on disk before this open migrated it
  int64_t file_bytes = 0;  // the main file
  int64_t wal_bytes = 0;   // its write-ahead log (pages not yet checkpointed)
  int64_t page_size = 0;
  int64_t page_count = 0;
  int64_t freelist_count = 0;
  std::string journal_mode;
  std::vector<std::pair<std::string, int64_t>> row_counts;  // per table
};

class Store {
 public:
  explicit Store(std::string path, StoreOptions options = {});
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const;

  // Devices and variants: inserted, or updated in place (by uuid / name+build).
  void put_device(const DeviceRecord& device);
  std::vector<DeviceRecord> devices();
  void put_variant(const VariantRecord& variant);
  std::vector<VariantRecord> variants();

  // Samples, one transaction for the whole batch. The device and variant must exist.
  void add_samples(const std::vector<SampleRecord>& samples);
  std::vector<SampleRecord> samples();

  // Models: replaced by (device, variant, metric).
  void put_model(const ModelRecord& model);
  std::vector<ModelRecord> models();

  // Decisions: replaced by (device, op, bucket), one transaction for the batch.
  // Their buckets must be the standard ones (db/buckets.hpp); others are
  // refused with InvalidArgument.
  void put_decisions(const std::vector<DecisionRecord>& decisions);
  std::vector<DecisionRecord> decisions();
  // The decision whose buckets hold (bits, count) for `op`: one of this very
  // device (by uuid) if any, else the newest of any device named `name`.
  std::optional<DecisionRecord> find_decision(const std::string& op, uint64_t bits,
                                              uint64_t count, const std::string& uuid,
                                              const std::string& name);
  // Whether any device named `name` has decisions (profiles apply only when not).
  bool has_decisions_for_model(const std::string& name);

  // The selector's miss path in one read transaction (a statement outside a
  // transaction pays for its own WAL read lock, about 6 us each): the
  // decision as find_decision, else the history as best_history, else
  // whether the model has any decision (has_decisions_for_model).
  struct Lookup {
    std::optional<DecisionRecord> decision;
    std::optional<HistoryRecord> history;
    bool model_has_decisions = false;
  };
  Lookup lookup(const std::string& op, uint64_t bits, uint64_t count, const std::string& uuid,
                const std::string& name);

  // History, one transaction for the batch.
  void add_history(const std::vector<HistoryRecord>& rows);
  // Among measured history rows in the bucket of (bits, count) for `op` on
  // this device (uuid) or, failing that, on devices named `name`: the plan
  // with the lowest measured time.
  std::optional<HistoryRecord> best_history(const std::string& op, uint64_t bits,
                                            uint64_t count, const std::string& uuid,
                                            const std::string& name);
  // Newest first; empty filters match everything.
  std::vector<HistoryRecord> recent_history(size_t limit, const std::string& op = {},
                                            const std::string& device_name = {});
  int64_t history_rows();

  // Everything, for export; and loading a dump in one transaction. Loading
  // upserts devices, variants, models and decisions, and adds samples and
  // history rows that are not already present, so importing twice is harmless.
  Dump dump();
  void load(const Dump& dump);

  StoreInfo info();
  // PRAGMA integrity_check and foreign_key_check; empty when healthy.
  std::vector<std::string> check();
  // Rewrites the file compactly (VACUUM) and truncates the WAL.
  void vacuum();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bigtune::db
