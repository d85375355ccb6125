// Turning SQLite result codes into bigtune::Error with a path and a next step.
#include "db/sqlite_check.hpp"

#include <cstring>

namespace bigtune::db::detail {

std::string advice_for(int rc, const std::string& path) {
  switch (rc & 0xff) {  // the primary code; extended codes share its advice
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "another process holds a lock on " + path +
             "; wait for it to finish (a running `bigtune tune`?) and retry";
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return "make " + path + " and its folder writable, or pass --db (or BIGTUNE_DB) " +
             "with a writable file";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return path + " is damaged or not a bigtune database; move it aside (bigtune " +
             "never deletes it) and run again to start a new one, or pass --db";
    case SQLITE_FULL:
      return "the disk holding " + path + " is full; free space and retry";
    case SQLITE_CANTOPEN:
      return "check that the folder of " + path + " exists and is writable, or pass --db";
    case SQLITE_IOERR:
      return "the file system reported an I/O error on " + path +
             "; check the disk and run `bigtune db check`";
    case SQLITE_CONSTRAINT:
      return "the data breaks a rule of the schema; see docs/database.md";
    default:
      return "run `bigtune db check --db " + path + "`; if this persists, report it";
  }
}

int check_sqlite(int rc, sqlite3* conn, const std::string& path, const char* call,
                 const char* file, int line) {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return rc;
  const char* text = conn != nullptr ? sqlite3_errmsg(conn) : sqlite3_errstr(rc);
  std::string what = "tuning database " + (path.empty() ? std::string("(unnamed)") : path) +
                     ": " + text + " (SQLite code " + std::to_string(rc) + " in `" + call +
                     "` at " + file + ":" + std::to_string(line) + ")";
  throw Error(ErrorCode::Database, what, advice_for(rc, path));
}

std::string connection_path(sqlite3* conn) {
  if (conn == nullptr) return {};
  const char* name = sqlite3_db_filename(conn, "main");
  return name != nullptr ? std::string(name) : std::string();
}

}  // namespace bigtune::db::detail
