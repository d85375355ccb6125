// Schema migrations, one function per step (docs/database.md, "History of the
// schema").
//
// Migration how-to (adding version N+1):
//  1. Save the current schema with a few representative rows as
//     tests/db/fixtures/schema_v<N>.sql (sqlite3 tuning.db .dump, trimmed).
//  2. Write `void migrate_v<N>_to_v<N+1>(Step&)` below; it may only run SQL
//     through `step.exec` (checked) and must not commit, vacuum or change
//     pragmas that cannot run inside a transaction.
//  3. Append it to kSteps, raise kSchemaVersion in migrations.hpp, add the
//     fixture to tests/db/CMakeLists.txt's list, and document the change in
//     docs/database.md.
// A fresh file runs every step from v0, so a new database and a migrated one
// always have the same schema (migrations_test.cpp compares them).
#include "db/migrations.hpp"

#include <string>

#include "db/buckets.hpp"
#include "db/statement.hpp"

namespace bigtune::db {
namespace {

// What a migration step may do: run SQL on the connection, inside the
// migration's transaction (checked; a failure rolls back every step).
struct Step {
  sqlite3* conn;
  void exec(const char* sql) { detail::exec(conn, sql); }
};

// v1: devices and their probes, variants, samples (successful ones only),
// fitted models and per-bucket decisions.
void migrate_v0_to_v1(Step& step) {
  step.exec(R"sql(
CREATE TABLE device (
  id INTEGER PRIMARY KEY,
  uuid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  cc_major INTEGER NOT NULL,
  cc_minor INTEGER NOT NULL,
  sm_count INTEGER NOT NULL,
  max_threads_per_block INTEGER,
  smem_per_block_optin INTEGER,
  regs_per_block INTEGER,
  global_memory_bytes INTEGER,
  first_seen TEXT NOT NULL
);
CREATE INDEX device_by_name ON device(name);
CREATE TABLE device_probe (
  device_id INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (device_id, metric)
);
CREATE TABLE variant (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  build_id TEXT NOT NULL,
  op TEXT NOT NULL,
  family TEXT NOT NULL,
  algorithm TEXT NOT NULL,
  limb_bits INTEGER NOT NULL,
  q INTEGER NOT NULL,
  UNIQUE (name, build_id)
);
CREATE TABLE sample (
  id INTEGER PRIMARY KEY,
  device_id INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
  variant_id INTEGER NOT NULL REFERENCES variant(id) ON DELETE CASCADE,
  bits INTEGER NOT NULL,
  count INTEGER NOT NULL,
  ipb INTEGER NOT NULL,
  reps INTEGER NOT NULL,
  time_us_median REAL,
  time_us_min REAL,
  time_us_max REAL,
  measured_at TEXT NOT NULL
);
CREATE INDEX sample_by_point ON sample(device_id, variant_id, bits, count, ipb);
CREATE TABLE sample_counter (
  sample_id INTEGER NOT NULL REFERENCES sample(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (sample_id, metric)
);
CREATE TABLE model (
  id INTEGER PRIMARY KEY,
  device_id INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
  variant_id INTEGER NOT NULL REFERENCES variant(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  degrees TEXT NOT NULL,
  coefficients TEXT NOT NULL,
  fit_error REAL,
  sample_count INTEGER NOT NULL,
  fitted_at TEXT NOT NULL,
  UNIQUE (device_id, variant_id, metric)
);
CREATE TABLE decision (
  id INTEGER PRIMARY KEY,
  device_id INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
  op TEXT NOT NULL,
  bits_lo INTEGER NOT NULL,
  bits_hi INTEGER NOT NULL,
  count_lo INTEGER NOT NULL,
  count_hi INTEGER NOT NULL,
  variant TEXT NOT NULL,
  ipb INTEGER NOT NULL,
  predicted_us REAL,
  measured_us REAL,
  source TEXT NOT NULL,
  decided_at TEXT NOT NULL,
  UNIQUE (device_id, op, bits_lo, count_lo)
);
)sql");
}

// v2: failed measurements are kept as data (house rule: a sample has a status
// of ok/timeout/fault/invalid and a reason), and every runtime choice goes to
// the new `history` table. Existing samples were all successful: 'ok'.
// The selector looks up only measured history rows by bucket, and most rows
// are unmeasured call counts, hence the partial index.
void migrate_v1_to_v2(Step& step) {
  step.exec(R"sql(
ALTER TABLE sample ADD COLUMN status TEXT NOT NULL DEFAULT 'ok'
  CHECK (status IN ('ok', 'timeout', 'fault', 'invalid'));
ALTER TABLE sample ADD COLUMN reason TEXT;
CREATE TABLE history (
  id INTEGER PRIMARY KEY,
  device_id INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
  op TEXT NOT NULL,
  bits INTEGER NOT NULL,
  count INTEGER NOT NULL,
  bits_lo INTEGER NOT NULL,
  count_lo INTEGER NOT NULL,
  variant TEXT NOT NULL,
  ipb INTEGER NOT NULL,
  source TEXT NOT NULL,
  predicted_us REAL,
  measured_us REAL,
  calls INTEGER NOT NULL DEFAULT 1,
  first_at TEXT NOT NULL,
  last_at TEXT NOT NULL
);
CREATE INDEX history_measured_by_bucket ON history(device_id, op, bits_lo, count_lo)
  WHERE measured_us IS NOT NULL;
CREATE INDEX history_by_time ON history(last_at);
)sql");
}

// v3: bit buckets closed at the top, (2^k, 1.25 2^k] instead of [2^k, 1.25 2^k)
// (db/buckets.hpp), so that a plan whose limit is exactly 2^k can serve 2^k.
// A stored decision keeps its plan and its range moves up by one bit (every old
// lower end from 8 up is even, every new one odd: no row collides); the
// runtime still checks a plan against the actual size before using it, and
// `bigtune tune` recomputes decisions from the kept samples. History rows keep
// their exact sizes; their bucket column is recomputed.
void migrate_v2_to_v3(Step& step) {
  step.exec(R"sql(
UPDATE decision SET bits_lo = bits_lo + 1, bits_hi = bits_hi + 1 WHERE bits_lo >= 8;
UPDATE history SET bits_lo = bigtune_bits_bucket_lo(bits);
)sql");
}

using StepFn = void (*)(Step&);
// kSteps[v] brings version v to v + 1.
constexpr StepFn kSteps[] = {migrate_v0_to_v1, migrate_v1_to_v2, migrate_v2_to_v3};

// SQL function bigtune_bits_bucket_lo(bits) = db::bits_bucket(bits).lo, for
// steps that recompute a bucket column (SQLite has no log2 in every build).
void bits_bucket_lo_sql(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const sqlite3_int64 bits = sqlite3_value_int64(argv[0]);
  if (bits < 1 || uint64_t(bits) > kMaxSize) {
    sqlite3_result_error(ctx, "bigtune_bits_bucket_lo: bits out of range", -1);
    return;
  }
  sqlite3_result_int64(ctx, sqlite3_int64(bits_bucket(uint64_t(bits)).lo));
}
static_assert(sizeof(kSteps) / sizeof(kSteps[0]) == kSchemaVersion,
              "one migration step per schema version");

int read_int_pragma(sqlite3* conn, const char* sql) {
  detail::Statement statement(conn, sql);
  detail::Query q(statement);
  return q.step() ? static_cast<int>(q.int64(0)) : 0;
}

}  // namespace

int migrate_to_current(sqlite3* conn, const std::string& path) {
  detail::exec(conn, "BEGIN IMMEDIATE");
  try {
    const int found = read_int_pragma(conn, "PRAGMA user_version");
    if (found > kSchemaVersion) {
      // Another, newer bigtune upgraded the file between our check and now.
      throw Error(ErrorCode::Database,
                  "tuning database " + path + " has schema v" + std::to_string(found) +
                      " but this bigtune knows up to v" + std::to_string(kSchemaVersion),
                  "upgrade bigtune, or pass --db with another file");
    }
    BIGTUNE_SQLITE_CHECK(conn, sqlite3_create_function_v2(conn, "bigtune_bits_bucket_lo", 1,
                                                            SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                                                            bits_bucket_lo_sql, nullptr, nullptr, nullptr));
    for (int version = found; version < kSchemaVersion; ++version) {
      Step step{conn};
      kSteps[version](step);
    }
    if (found < kSchemaVersion) {
      const std::string set = "PRAGMA application_id = " + std::to_string(kApplicationId) +
                              "; PRAGMA user_version = " + std::to_string(kSchemaVersion);
      detail::exec(conn, set.c_str());
    }
    detail::exec(conn, "COMMIT");
    return found;
  } catch (...) {
    sqlite3_exec(conn, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace bigtune::db
