// Store's reads and writes. Each statement is prepared once in prepare(); the
// SQL next to its name is what runs. Public writers take the mutex and one
// IMMEDIATE transaction; Impl's writers are the bodies, reused by load().
#include <sqlite3.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <sstream>

#include "db/store_impl.hpp"

namespace bigtune::db {
namespace {

using detail::Query;
using detail::Transaction;
using Lock = std::lock_guard<std::recursive_mutex>;

std::string or_now(const std::string& timestamp) {
  return timestamp.empty() ? utc_timestamp() : timestamp;
}

// Coefficients are stored as text ("%.17g" separated by spaces): exact for
// doubles, and readable with sqlite3.
std::string join_reals(const std::vector<double>& values) {
  std::string out;
  char buffer[40];
  for (double v : values) {
    std::snprintf(buffer, sizeof(buffer), "%.17g", v);
    if (!out.empty()) out += ' ';
    out += buffer;
  }
  return out;
}

std::vector<double> split_reals(const std::string& text) {
  std::vector<double> out;
  std::istringstream in(text);
  std::string word;
  while (in >> word) out.push_back(std::strtod(word.c_str(), nullptr));
  return out;
}

SampleStatus status_or_throw(const std::string& name, const std::string& path) {
  if (auto status = parse_sample_status(name)) return *status;
  throw Error(ErrorCode::Database,
              "tuning database " + path + " holds a sample with unknown status '" + name + "'",
              "run `bigtune db check`");
}

}  // namespace

void Store::Impl::put_device(const DeviceRecord& d) {
  {
    Query q(*upsert_device);
    q.bind(1, d.uuid).bind(2, d.name).bind(3, d.cc_major).bind(4, d.cc_minor).bind(5, d.sm_count);
    q.bind(6, d.max_threads_per_block).bind(7, d.smem_per_block_optin).bind(8, d.regs_per_block);
    q.bind(9, d.global_memory_bytes).bind(10, or_now(d.first_seen));
    q.run();
  }
  if (d.probes.empty()) return;
  const int64_t id = device_row(d.uuid);
  for (const auto& [metric, value] : d.probes) {
    Query q(*upsert_probe);
    q.bind(1, id).bind(2, metric).bind(3, value).run();
  }
}

void Store::Impl::put_variant(const VariantRecord& v) {
  Query q(*upsert_variant);
  q.bind(1, v.name).bind(2, v.build_id).bind(3, v.op).bind(4, v.family).bind(5, v.algorithm);
  q.bind(6, v.limb_bits).bind(7, v.q).run();
}

void Store::Impl::add_sample(const SampleRecord& s, bool skip_duplicate) {
  const int64_t device = device_row(s.device_uuid);
  const int64_t variant = variant_row(s.variant_name, s.build_id);
  const std::string measured_at = or_now(s.measured_at);
  const std::string status = sample_status_name(s.status);
  if (skip_duplicate) {
    Query q(*sample_exists);
    q.bind(1, device).bind(2, variant).bind(3, s.bits).bind(4, s.count).bind(5, s.ipb);
    q.bind(6, status).bind(7, measured_at);
    if (q.step()) return;
  }
  {
    Query q(*insert_sample);
    q.bind(1, device).bind(2, variant).bind(3, s.bits).bind(4, s.count).bind(5, s.ipb);
    q.bind(6, status);
    if (s.reason.empty()) q.bind_null(7); else q.bind(7, s.reason);
    q.bind(8, s.reps).bind(9, s.time_us_median).bind(10, s.time_us_min).bind(11, s.time_us_max);
    q.bind(12, measured_at).run();
  }
  const int64_t id = sqlite3_last_insert_rowid(conn);
  for (const auto& [metric, value] : s.counters) {
    Query q(*insert_counter);
    q.bind(1, id).bind(2, metric).bind(3, value).run();
  }
}

void Store::Impl::put_model(const ModelRecord& m) {
  Query q(*upsert_model);
  q.bind(1, device_row(m.device_uuid)).bind(2, variant_row(m.variant_name, m.build_id));
  q.bind(3, m.metric).bind(4, m.degrees).bind(5, join_reals(m.coefficients));
  q.bind(6, m.fit_error).bind(7, m.sample_count).bind(8, or_now(m.fitted_at)).run();
}

void Store::Impl::put_decision(const DecisionRecord& d) {
  // Only the standard buckets: lookups probe by their lower ends.
  const bool standard = d.bits.lo != 0 && d.count.lo != 0 && d.bits.lo <= kMaxSize &&
                        d.count.lo <= kMaxSize && bits_bucket(d.bits.lo).hi == d.bits.hi &&
                        bits_bucket(d.bits.lo).lo == d.bits.lo &&
                        count_bucket(d.count.lo).hi == d.count.hi &&
                        count_bucket(d.count.lo).lo == d.count.lo;
  if (!standard) {
    throw Error(ErrorCode::InvalidArgument,
                "decision for " + d.op + " on " + d.device_uuid + " has buckets bits [" +
                    std::to_string(d.bits.lo) + ", " + std::to_string(d.bits.hi) + ") x count [" +
                    std::to_string(d.count.lo) + ", " + std::to_string(d.count.hi) +
                    ") that are not standard buckets",
                "make them with db::bits_bucket and db::count_bucket (docs/database.md, "
                "\"Buckets\")");
  }
  Query q(*upsert_decision);
  q.bind(1, device_row(d.device_uuid)).bind(2, d.op).bind(3, d.bits.lo).bind(4, d.bits.hi);
  q.bind(5, d.count.lo).bind(6, d.count.hi).bind(7, d.variant).bind(8, d.ipb);
  q.bind(9, d.predicted_us).bind(10, d.measured_us).bind(11, d.source);
  q.bind(12, or_now(d.decided_at)).run();
}

void Store::Impl::add_history(const HistoryRecord& h, bool skip_duplicate) {
  const int64_t device = device_row(h.device_uuid);
  const std::string first_at = or_now(h.first_at);
  const std::string last_at = h.last_at.empty() ? first_at : h.last_at;
  if (skip_duplicate) {
    Query q(*history_exists);
    q.bind(1, device).bind(2, h.op).bind(3, h.bits).bind(4, h.count).bind(5, h.variant);
    q.bind(6, h.ipb).bind(7, h.source).bind(8, h.calls).bind(9, first_at).bind(10, last_at);
    if (q.step()) return;
  }
  Query q(*insert_history);
  q.bind(1, device).bind(2, h.op).bind(3, h.bits).bind(4, h.count);
  q.bind(5, bits_bucket(h.bits).lo).bind(6, count_bucket(h.count).lo);
  q.bind(7, h.variant).bind(8, h.ipb).bind(9, h.source).bind(10, h.predicted_us);
  q.bind(11, h.measured_us).bind(12, h.calls).bind(13, first_at).bind(14, last_at).run();
}

// ---- public API: lock, one transaction per logical write ----

void Store::put_device(const DeviceRecord& device) {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Write);
  impl_->put_device(device);
  tx.commit();
}

std::vector<DeviceRecord> Store::devices() {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Read);
  std::vector<std::pair<int64_t, DeviceRecord>> rows;
  {
    Query q(*impl_->select_devices);
    while (q.step()) {
      DeviceRecord d;
      d.uuid = q.text(1);
      d.name = q.text(2);
      d.cc_major = static_cast<int>(q.int64(3));
      d.cc_minor = static_cast<int>(q.int64(4));
      d.sm_count = static_cast<int>(q.int64(5));
      d.max_threads_per_block = q.opt_int64(6);
      d.smem_per_block_optin = q.opt_int64(7);
      d.regs_per_block = q.opt_int64(8);
      d.global_memory_bytes = q.opt_int64(9);
      d.first_seen = q.text(10);
      rows.emplace_back(q.int64(0), std::move(d));
    }
  }
  std::vector<DeviceRecord> out;
  for (auto& [id, d] : rows) {
    Query q(*impl_->select_probes);
    q.bind(1, id);
    while (q.step()) d.probes[q.text(0)] = q.real(1);
    out.push_back(std::move(d));
  }
  tx.commit();
  return out;
}

void Store::put_variant(const VariantRecord& variant) {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Write);
  impl_->put_variant(variant);
  tx.commit();
}

std::vector<VariantRecord> Store::variants() {
  Lock lock(impl_->mutex);
  std::vector<VariantRecord> out;
  Query q(*impl_->select_variants);
  while (q.step()) {
    out.push_back({q.text(0), q.text(1), q.text(2), q.text(3), q.text(4),
                   static_cast<int>(q.int64(5)), static_cast<int>(q.int64(6))});
  }
  return out;
}

void Store::add_samples(const std::vector<SampleRecord>& samples) {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Write);
  for (const SampleRecord& s : samples) impl_->add_sample(s, false);
  tx.commit();
}

std::vector<SampleRecord> Store::samples() {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Read);
  std::vector<std::pair<int64_t, SampleRecord>> rows;
  {
    Query q(*impl_->select_samples);
    while (q.step()) {
      SampleRecord s;
      s.device_uuid = q.text(1);
      s.variant_name = q.text(2);
      s.build_id = q.text(3);
      s.bits = static_cast<uint64_t>(q.int64(4));
      s.count = static_cast<uint64_t>(q.int64(5));
      s.ipb = static_cast<uint32_t>(q.int64(6));
      s.status = status_or_throw(q.text(7), impl_->path);
      s.reason = q.text(8);
      s.reps = static_cast<int>(q.int64(9));
      s.time_us_median = q.opt_real(10);
      s.time_us_min = q.opt_real(11);
      s.time_us_max = q.opt_real(12);
      s.measured_at = q.text(13);
      rows.emplace_back(q.int64(0), std::move(s));
    }
  }
  std::vector<SampleRecord> out;
  for (auto& [id, s] : rows) {
    Query q(*impl_->select_counters);
    q.bind(1, id);
    while (q.step()) s.counters[q.text(0)] = q.real(1);
    out.push_back(std::move(s));
  }
  tx.commit();
  return out;
}

void Store::put_model(const ModelRecord& model) {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Write);
  impl_->put_model(model);
  tx.commit();
}

std::vector<ModelRecord> Store::models() {
  Lock lock(impl_->mutex);
  std::vector<ModelRecord> out;
  Query q(*impl_->select_models);
  while (q.step()) {
    ModelRecord m;
    m.device_uuid = q.text(0);
    m.variant_name = q.text(1);
    m.build_id = q.text(2);
    m.metric = q.text(3);
    m.degrees = q.text(4);
    m.coefficients = split_reals(q.text(5));
    m.fit_error = q.opt_real(6);
    m.sample_count = static_cast<int>(q.int64(7));
    m.fitted_at = q.text(8);
    out.push_back(std::move(m));
  }
  return out;
}

namespace {

DecisionRecord read_decision(const Query& q) {
  DecisionRecord d;
  d.op = q.text(0);
  d.bits = {static_cast<uint64_t>(q.int64(1)), static_cast<uint64_t>(q.int64(2))};
  d.count = {static_cast<uint64_t>(q.int64(3)), static_cast<uint64_t>(q.int64(4))};
  d.variant = q.text(5);
  d.ipb = static_cast<uint32_t>(q.int64(6));
  d.predicted_us = q.opt_real(7);
  d.measured_us = q.opt_real(8);
  d.source = q.text(9);
  d.decided_at = q.text(10);
  d.device_uuid = q.text(11);
  d.device_name = q.text(12);
  return d;
}

HistoryRecord read_history(const Query& q) {
  HistoryRecord h;
  h.op = q.text(0);
  h.bits = static_cast<uint64_t>(q.int64(1));
  h.count = static_cast<uint64_t>(q.int64(2));
  h.variant = q.text(3);
  h.ipb = static_cast<uint32_t>(q.int64(4));
  h.source = q.text(5);
  h.predicted_us = q.opt_real(6);
  h.measured_us = q.opt_real(7);
  h.calls = q.int64(8);
  h.first_at = q.text(9);
  h.last_at = q.text(10);
  h.device_uuid = q.text(11);
  h.device_name = q.text(12);
  return h;
}

}  // namespace

void Store::put_decisions(const std::vector<DecisionRecord>& decisions) {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Write);
  for (const DecisionRecord& d : decisions) impl_->put_decision(d);
  tx.commit();
}

std::vector<DecisionRecord> Store::decisions() {
  Lock lock(impl_->mutex);
  std::vector<DecisionRecord> out;
  Query q(*impl_->select_decisions);
  while (q.step()) out.push_back(read_decision(q));
  return out;
}

std::optional<DecisionRecord> Store::find_decision(const std::string& op, uint64_t bits,
                                                   uint64_t count, const std::string& uuid,
                                                   const std::string& name) {
  const uint64_t bits_lo = bits_bucket(bits).lo;
  const uint64_t count_lo = count_bucket(count).lo;
  Lock lock(impl_->mutex);
  for (auto* statement : {impl_->find_decision_by_uuid.get(), impl_->find_decision_by_name.get()}) {
    const bool by_uuid = statement == impl_->find_decision_by_uuid.get();
    Query q(*statement);
    q.bind(1, op).bind(2, bits_lo).bind(3, count_lo).bind(4, by_uuid ? uuid : name);
    if (q.step()) return read_decision(q);
  }
  return std::nullopt;
}

bool Store::has_decisions_for_model(const std::string& name) {
  Lock lock(impl_->mutex);
  Query q(*impl_->model_has_decisions);
  q.bind(1, name);
  return q.step() && q.int64(0) != 0;
}

Store::Lookup Store::lookup(const std::string& op, uint64_t bits, uint64_t count,
                           const std::string& uuid, const std::string& name) {
  Lock lock(impl_->mutex);
  const bool own = sqlite3_get_autocommit(impl_->conn) != 0;
  if (own) Query(*impl_->begin_read).run();
  Lookup out;
  try {
    out.decision = find_decision(op, bits, count, uuid, name);
    if (out.decision) {
      out.model_has_decisions = true;
    } else {
      out.history = best_history(op, bits, count, uuid, name);
      if (!out.history) out.model_has_decisions = has_decisions_for_model(name);
    }
  } catch (...) {
    if (own) sqlite3_exec(impl_->conn, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  if (own) Query(*impl_->commit_read).run();
  return out;
}

void Store::add_history(const std::vector<HistoryRecord>& rows) {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Write);
  for (const HistoryRecord& h : rows) impl_->add_history(h, false);
  tx.commit();
}

std::optional<HistoryRecord> Store::best_history(const std::string& op, uint64_t bits,
                                                 uint64_t count, const std::string& uuid,
                                                 const std::string& name) {
  const uint64_t bits_lo = bits_bucket(bits).lo;
  const uint64_t count_lo = count_bucket(count).lo;
  Lock lock(impl_->mutex);
  Query q(*impl_->best_history);
  q.bind(1, op).bind(2, bits_lo).bind(3, count_lo).bind(4, uuid).bind(5, name);
  if (!q.step()) return std::nullopt;
  return read_history(q);
}

std::vector<HistoryRecord> Store::recent_history(size_t limit, const std::string& op,
                                                 const std::string& device_name) {
  Lock lock(impl_->mutex);
  std::vector<HistoryRecord> out;
  Query q(*impl_->recent_history);
  q.bind(1, op).bind(2, device_name).bind(3, static_cast<int64_t>(limit));
  while (q.step()) out.push_back(read_history(q));
  return out;
}

int64_t Store::history_rows() {
  Lock lock(impl_->mutex);
  Query q(*impl_->count_history);
  return q.step() ? q.int64(0) : 0;
}

Dump Store::dump() {
  // One read transaction: the export is a consistent snapshot even while
  // another process writes (the readers below join it instead of starting their own).
  Lock lock(impl_->mutex);
  Transaction snapshot(impl_->conn, Transaction::Kind::Read);
  Dump out;
  out.devices = devices();
  out.variants = variants();
  out.samples = samples();
  out.models = models();
  out.decisions = decisions();
  std::vector<HistoryRecord> newest_first = recent_history(static_cast<size_t>(INT64_MAX));
  out.history.assign(newest_first.rbegin(), newest_first.rend());
  snapshot.commit();
  return out;
}

void Store::load(const Dump& dump) {
  Lock lock(impl_->mutex);
  Transaction tx(impl_->conn, Transaction::Kind::Write);
  for (const DeviceRecord& d : dump.devices) impl_->put_device(d);
  for (const VariantRecord& v : dump.variants) impl_->put_variant(v);
  for (const SampleRecord& s : dump.samples) impl_->add_sample(s, true);
  for (const ModelRecord& m : dump.models) impl_->put_model(m);
  for (const DecisionRecord& d : dump.decisions) impl_->put_decision(d);
  for (const HistoryRecord& h : dump.history) impl_->add_history(h, true);
  tx.commit();
}

StoreInfo Store::info() {
  Lock lock(impl_->mutex);
  sqlite3* conn = impl_->conn;
  auto scalar = [conn](const std::string& sql) {
    detail::Statement statement(conn, sql.c_str());
    Query q(statement);
    return q.step() ? q.text(0) : std::string();
  };
  StoreInfo info;
  info.path = impl_->path;
  info.schema_version = std::atoi(scalar("PRAGMA user_version").c_str());
  info.found_version = impl_->found_version;
  std::error_code ec;
  info.file_bytes = static_cast<int64_t>(std::filesystem::file_size(impl_->path, ec));
  const auto wal = std::filesystem::file_size(impl_->path + "-wal", ec);
  info.wal_bytes = ec ? 0 : static_cast<int64_t>(wal);
  info.page_size = std::atoll(scalar("PRAGMA page_size").c_str());
  info.page_count = std::atoll(scalar("PRAGMA page_count").c_str());
  info.freelist_count = std::atoll(scalar("PRAGMA freelist_count").c_str());
  info.journal_mode = scalar("PRAGMA journal_mode");
  for (const char* table : {"device", "device_probe", "variant", "sample", "sample_counter",
                            "model", "decision", "history"}) {
    info.row_counts.emplace_back(
        table, std::atoll(scalar(std::string("SELECT count(*) FROM ") + table).c_str()));
  }
  return info;
}

std::vector<std::string> Store::check() {
  Lock lock(impl_->mutex);
  std::vector<std::string> problems;
  {
    detail::Statement statement(impl_->conn, "PRAGMA integrity_check");
    Query q(statement);
    while (q.step()) {
      if (q.text(0) != "ok") problems.push_back("integrity: " + q.text(0));
    }
  }
  {
    detail::Statement statement(impl_->conn, "PRAGMA foreign_key_check");
    Query q(statement);
    while (q.step()) {
      problems.push_back("foreign key: row " + q.text(1) + " of table " + q.text(0) +
                         " refers to a missing row of " + q.text(2));
    }
  }
  return problems;
}

void Store::vacuum() {
  Lock lock(impl_->mutex);
  detail::exec(impl_->conn, "VACUUM");
  detail::exec(impl_->conn, "PRAGMA wal_checkpoint(TRUNCATE)");
}

}  // namespace bigtune::db
