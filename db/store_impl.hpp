// Store's private state, shared by store_open.cpp and store.cpp.
#pragma once
#include <sqlite3.h>

#include <memory>
#include <mutex>
#include <string>

#include "db/statement.hpp"
#include "db/store.hpp"

namespace bigtune::db {

struct Store::Impl {
  std::string path;
  sqlite3* conn = nullptr;
  int found_version = 0;
  // One call at a time on this connection; recursive so that dump() can hold
  // one read snapshot across the public readers it calls.
  std::recursive_mutex mutex;

  // Prepared once by prepare(); the SQL of each is in store.cpp.
  using Stmt = std::unique_ptr<detail::Statement>;
  Stmt device_id, upsert_device, upsert_probe, select_devices, select_probes;
  Stmt variant_id, upsert_variant, select_variants;
  Stmt insert_sample, insert_counter, sample_exists, select_samples, select_counters;
  Stmt upsert_model, select_models;
  Stmt upsert_decision, select_decisions, find_decision_by_uuid, find_decision_by_name;
  Stmt model_has_decisions, begin_read, commit_read;
  Stmt insert_history, history_exists, best_history, recent_history, count_history;

  void prepare();
  int64_t device_row(const std::string& uuid);  // throws InvalidArgument if unknown
  int64_t variant_row(const std::string& name, const std::string& build_id);

  // Bodies of the public writers, without locking or a transaction of their own.
  void put_device(const DeviceRecord& d);
  void put_variant(const VariantRecord& v);
  void add_sample(const SampleRecord& s, bool skip_duplicate);
  void put_model(const ModelRecord& m);
  void put_decision(const DecisionRecord& d);
  void add_history(const HistoryRecord& h, bool skip_duplicate);

  ~Impl() {
    // close_v2 waits for the statements (destroyed after this body) to finalize.
    if (conn != nullptr) sqlite3_close_v2(conn);
  }
};

}  // namespace bigtune::db
