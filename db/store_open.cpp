// Opening a Store: file checks, connection settings, identity and version
// checks, migration. Nothing is written before the file is known to be ours
// (or new) and not newer than this build.
#include <filesystem>

#include "db/file_check.hpp"
#include "db/migrations.hpp"
#include "db/store_impl.hpp"

namespace bigtune::db {
namespace {

int int_pragma(sqlite3* conn, const char* sql) {
  detail::Statement statement(conn, sql);
  detail::Query q(statement);
  return q.step() ? static_cast<int>(q.int64(0)) : 0;
}

std::string text_pragma(sqlite3* conn, const char* sql) {
  detail::Statement statement(conn, sql);
  detail::Query q(statement);
  return q.step() ? q.text(0) : std::string();
}

[[noreturn]] void refuse_foreign(const std::string& path) {
  throw Error(ErrorCode::Database,
              "tuning database " + path + " is an SQLite file of another application",
              "bigtune leaves it untouched; pass --db (or BIGTUNE_DB) with another file");
}

}  // namespace

Store::Store(std::string path, StoreOptions options) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.path = std::move(path);
  if (s.path.empty()) {
    throw Error(ErrorCode::Database, "no tuning database path given",
                "pass --db or set BIGTUNE_DB");
  }
  const bool writable = options.mode == OpenMode::ReadWrite;
  detail::check_database_file(s.path);
  if (!std::filesystem::exists(s.path)) {
    if (!writable) {
      throw Error(ErrorCode::Database, "tuning database " + s.path + " does not exist",
                  "run a command that writes (e.g. `bigtune query`) to create it, or pass --db");
    }
    detail::create_parent_folders(s.path);
  }
  const int flags = (writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) |
                    SQLITE_OPEN_NOMUTEX;  // Store serializes calls with its own mutex
  // Not BIGTUNE_SQLITE_CHECK: the connection has no file name yet to report.
  detail::check_sqlite(sqlite3_open_v2(s.path.c_str(), &s.conn, flags, nullptr), s.conn, s.path,
                       "sqlite3_open_v2", __FILE__, __LINE__);
  sqlite3_extended_result_codes(s.conn, 1);
  // Concurrent writers queue up to this long before the caller sees "locked".
  BIGTUNE_SQLITE_CHECK(s.conn, sqlite3_busy_timeout(s.conn, options.busy_timeout_ms));
  detail::exec(s.conn, "PRAGMA foreign_keys = ON");

  // First reads: a damaged or locked file fails here, before any write.
  const int application_id = int_pragma(s.conn, "PRAGMA application_id");
  s.found_version = int_pragma(s.conn, "PRAGMA user_version");
  // Whose file is it? Only then does its version mean anything.
  if (application_id != 0 && application_id != kApplicationId) refuse_foreign(s.path);
  if (application_id == 0) {
    if (s.found_version != 0) refuse_foreign(s.path);
    if (int_pragma(s.conn, "SELECT count(*) FROM sqlite_schema") != 0) refuse_foreign(s.path);
  }
  if (s.found_version > kSchemaVersion) {
    throw Error(ErrorCode::Database,
                "tuning database " + s.path + " has schema v" +
                    std::to_string(s.found_version) + ", written by a newer bigtune; this one "
                    "knows up to v" + std::to_string(kSchemaVersion),
                "upgrade bigtune, or pass --db (or BIGTUNE_DB) with another file; the file "
                "is left as it is");
  }

  if (writable) {
    if (sqlite3_db_readonly(s.conn, "main") == 1) {
      throw Error(ErrorCode::Database, "tuning database " + s.path + " is read-only",
                  detail::advice_for(SQLITE_READONLY, s.path));
    }
    // WAL: readers and the writer never block each other (see store.hpp).
    if (text_pragma(s.conn, "PRAGMA journal_mode = WAL") != "wal") {
      throw Error(ErrorCode::Database,
                  "tuning database " + s.path + " cannot use write-ahead logging",
                  "put it on a local file system (not NFS), or pass --db");
    }
    // NORMAL is crash-safe in WAL mode; see store.hpp for the trade-off.
    detail::exec(s.conn, "PRAGMA synchronous = NORMAL");
    if (s.found_version < kSchemaVersion) migrate_to_current(s.conn, s.path);
  } else if (s.found_version < kSchemaVersion) {
    throw Error(ErrorCode::Database,
                "tuning database " + s.path + " has the older schema v" +
                    std::to_string(s.found_version) + " and was opened read-only",
                "open it once read-write (any bigtune command that writes) to migrate it");
  }
  s.prepare();
}

Store::~Store() = default;

const std::string& Store::path() const { return impl_->path; }

}  // namespace bigtune::db
