// The statements Store prepares once at open (the SQL that runs for each
// public call), the lookups of row ids by natural key, and small record
// helpers (sample status names, timestamps).
#include <sqlite3.h>

#include <cstdio>
#include <ctime>

#include "db/store_impl.hpp"

namespace bigtune::db {

using detail::Query;
const char* sample_status_name(SampleStatus status) {
  switch (status) {
    case SampleStatus::Ok: return "ok";
    case SampleStatus::Timeout: return "timeout";
    case SampleStatus::Fault: return "fault";
    case SampleStatus::Invalid: return "invalid";
  }
  return "invalid";
}

std::optional<SampleStatus> parse_sample_status(const std::string& name) {
  for (SampleStatus s : {SampleStatus::Ok, SampleStatus::Timeout, SampleStatus::Fault,
                         SampleStatus::Invalid}) {
    if (name == sample_status_name(s)) return s;
  }
  return std::nullopt;
}

std::string utc_timestamp() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  tm parts{};
  gmtime_r(&now.tv_sec, &parts);
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
                parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour,
                parts.tm_min, parts.tm_sec, now.tv_nsec / 1000000);
  return buffer;
}

void Store::Impl::prepare() {
  auto make = [this](const char* sql) { return std::make_unique<detail::Statement>(conn, sql); };
  device_id = make("SELECT id FROM device WHERE uuid = ?1");
  upsert_device = make(
      "INSERT INTO device (uuid, name, cc_major, cc_minor, sm_count, max_threads_per_block,"
      " smem_per_block_optin, regs_per_block, global_memory_bytes, first_seen)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
      " ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, cc_major = excluded.cc_major,"
      " cc_minor = excluded.cc_minor, sm_count = excluded.sm_count,"
      " max_threads_per_block = coalesce(excluded.max_threads_per_block, max_threads_per_block),"
      " smem_per_block_optin = coalesce(excluded.smem_per_block_optin, smem_per_block_optin),"
      " regs_per_block = coalesce(excluded.regs_per_block, regs_per_block),"
      " global_memory_bytes = coalesce(excluded.global_memory_bytes, global_memory_bytes),"
      " first_seen = min(first_seen, excluded.first_seen)");
  upsert_probe = make(
      "INSERT INTO device_probe (device_id, metric, value) VALUES (?1, ?2, ?3)"
      " ON CONFLICT (device_id, metric) DO UPDATE SET value = excluded.value");
  select_devices = make(
      "SELECT id, uuid, name, cc_major, cc_minor, sm_count, max_threads_per_block,"
      " smem_per_block_optin, regs_per_block, global_memory_bytes, first_seen"
      " FROM device ORDER BY id");
  select_probes = make("SELECT metric, value FROM device_probe WHERE device_id = ?1 ORDER BY metric");

  variant_id = make("SELECT id FROM variant WHERE name = ?1 AND build_id = ?2");
  upsert_variant = make(
      "INSERT INTO variant (name, build_id, op, family, algorithm, limb_bits, q)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
      " ON CONFLICT (name, build_id) DO UPDATE SET op = excluded.op, family = excluded.family,"
      " algorithm = excluded.algorithm, limb_bits = excluded.limb_bits, q = excluded.q");
  select_variants = make(
      "SELECT name, build_id, op, family, algorithm, limb_bits, q FROM variant ORDER BY id");

  insert_sample = make(
      "INSERT INTO sample (device_id, variant_id, bits, count, ipb, status, reason, reps,"
      " time_us_median, time_us_min, time_us_max, measured_at)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  insert_counter = make("INSERT INTO sample_counter (sample_id, metric, value) VALUES (?1, ?2, ?3)");
  sample_exists = make(
      "SELECT 1 FROM sample WHERE device_id = ?1 AND variant_id = ?2 AND bits = ?3"
      " AND count = ?4 AND ipb = ?5 AND status = ?6 AND measured_at = ?7");
  select_samples = make(
      "SELECT s.id, d.uuid, v.name, v.build_id, s.bits, s.count, s.ipb, s.status, s.reason,"
      " s.reps, s.time_us_median, s.time_us_min, s.time_us_max, s.measured_at"
      " FROM sample s JOIN device d ON d.id = s.device_id JOIN variant v ON v.id = s.variant_id"
      " ORDER BY s.id");
  select_counters = make("SELECT metric, value FROM sample_counter WHERE sample_id = ?1 ORDER BY metric");

  upsert_model = make(
      "INSERT INTO model (device_id, variant_id, metric, degrees, coefficients, fit_error,"
      " sample_count, fitted_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
      " ON CONFLICT (device_id, variant_id, metric) DO UPDATE SET degrees = excluded.degrees,"
      " coefficients = excluded.coefficients, fit_error = excluded.fit_error,"
      " sample_count = excluded.sample_count, fitted_at = excluded.fitted_at");
  select_models = make(
      "SELECT d.uuid, v.name, v.build_id, m.metric, m.degrees, m.coefficients, m.fit_error,"
      " m.sample_count, m.fitted_at FROM model m JOIN device d ON d.id = m.device_id"
      " JOIN variant v ON v.id = m.variant_id ORDER BY m.id");

  upsert_decision = make(
      "INSERT INTO decision (device_id, op, bits_lo, bits_hi, count_lo, count_hi, variant, ipb,"
      " predicted_us, measured_us, source, decided_at)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
      " ON CONFLICT (device_id, op, bits_lo, count_lo) DO UPDATE SET bits_hi = excluded.bits_hi,"
      " count_hi = excluded.count_hi, variant = excluded.variant, ipb = excluded.ipb,"
      " predicted_us = excluded.predicted_us, measured_us = excluded.measured_us,"
      " source = excluded.source, decided_at = excluded.decided_at");
  constexpr const char* kDecisionColumns =
      "SELECT d.op, d.bits_lo, d.bits_hi, d.count_lo, d.count_hi, d.variant, d.ipb,"
      " d.predicted_us, d.measured_us, d.source, d.decided_at, v.uuid, v.name"
      " FROM decision d JOIN device v ON v.id = d.device_id";
  select_decisions = make((std::string(kDecisionColumns) + " ORDER BY d.id").c_str());
  // This very device first, then the newest decision of any device of the
  // same model. Decisions always use the standard buckets (put_decision
  // checks), so a lookup is one probe of the unique index by the bucket's
  // lower ends: ?2 = bits_bucket(bits).lo, ?3 = count_bucket(count).lo.
  find_decision_by_uuid = make((std::string(kDecisionColumns) +
                                " WHERE v.uuid = ?4 AND d.op = ?1 AND d.bits_lo = ?2"
                                " AND d.count_lo = ?3")
                                   .c_str());
  find_decision_by_name = make((std::string(kDecisionColumns) +
                                " WHERE v.name = ?4 AND d.op = ?1 AND d.bits_lo = ?2"
                                " AND d.count_lo = ?3 ORDER BY d.decided_at DESC LIMIT 1")
                                   .c_str());
  // Prepared, unlike other transactions: lookup() runs on every selector miss.
  begin_read = make("BEGIN DEFERRED");
  commit_read = make("COMMIT");
  model_has_decisions = make(
      "SELECT EXISTS (SELECT 1 FROM decision d JOIN device v ON v.id = d.device_id"
      " WHERE v.name = ?1)");

  insert_history = make(
      "INSERT INTO history (device_id, op, bits, count, bits_lo, count_lo, variant, ipb, source,"
      " predicted_us, measured_us, calls, first_at, last_at)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
  history_exists = make(
      "SELECT 1 FROM history WHERE device_id = ?1 AND op = ?2 AND bits = ?3 AND count = ?4"
      " AND variant = ?5 AND ipb = ?6 AND source = ?7 AND calls = ?8 AND first_at = ?9"
      " AND last_at = ?10");
  constexpr const char* kHistoryColumns =
      "SELECT h.op, h.bits, h.count, h.variant, h.ipb, h.source, h.predicted_us, h.measured_us,"
      " h.calls, h.first_at, h.last_at, v.uuid, v.name FROM history h"
      " JOIN device v ON v.id = h.device_id";
  // Lowest measured time per bit and instance: sizes differ a little inside a bucket.
  best_history = make((std::string(kHistoryColumns) +
                       " WHERE h.op = ?1 AND h.bits_lo = ?2 AND h.count_lo = ?3"
                       " AND h.measured_us IS NOT NULL AND (v.uuid = ?4 OR v.name = ?5)"
                       " ORDER BY v.uuid = ?4 DESC,"
                       " h.measured_us / (CAST(h.bits AS REAL) * h.count) ASC LIMIT 1")
                          .c_str());
  recent_history = make((std::string(kHistoryColumns) +
                         " WHERE (?1 = '' OR h.op = ?1) AND (?2 = '' OR v.name = ?2)"
                         " ORDER BY h.id DESC LIMIT ?3")
                            .c_str());
  count_history = make("SELECT count(*) FROM history");
}

int64_t Store::Impl::device_row(const std::string& uuid) {
  Query q(*device_id);
  q.bind(1, uuid);
  if (!q.step()) {
    throw Error(ErrorCode::InvalidArgument, "unknown device '" + uuid + "' in " + path,
                "store the device (put_device) before rows that refer to it");
  }
  return q.int64(0);
}

int64_t Store::Impl::variant_row(const std::string& name, const std::string& build_id) {
  Query q(*variant_id);
  q.bind(1, name).bind(2, build_id);
  if (!q.step()) {
    throw Error(ErrorCode::InvalidArgument,
                "unknown variant '" + name + "' (build " + build_id + ") in " + path,
                "store the variant (put_variant) before rows that refer to it");
  }
  return q.int64(0);
}

}  // namespace bigtune::db
