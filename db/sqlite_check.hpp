// The one checking path for SQLite calls in db/ (house rule: one checking
// macro per library, recording file, line and the call's text).
//
// BIGTUNE_SQLITE_CHECK(conn, call) runs `call` (an expression returning an
// SQLite result code) and throws bigtune::Error(ErrorCode::Database) when the
// code is not SQLITE_OK, SQLITE_ROW or SQLITE_DONE. The message names the
// database file, the SQLite error text, the call and where it was made, plus
// the next step for the user (which depends on the kind of failure: locked,
// read-only, corrupt, full disk...). Raw result codes never leave db/.
// Unchecked on purpose: cleanup in destructors and after an error has been
// thrown (ROLLBACK, sqlite3_reset, sqlite3_finalize, sqlite3_close_v2), whose
// codes only repeat the error already reported.
#pragma once
#include <sqlite3.h>

#include <string>

#include "bigtune/error.hpp"

namespace bigtune::db::detail {

// What the user should do after SQLite returned `rc` on the file at `path`.
std::string advice_for(int rc, const std::string& path);

// Throws bigtune::Error for any rc other than OK/ROW/DONE; returns rc otherwise.
int check_sqlite(int rc, sqlite3* conn, const std::string& path, const char* call,
                 const char* file, int line);

// The path a connection was opened on ("" for none), for messages.
std::string connection_path(sqlite3* conn);

}  // namespace bigtune::db::detail

#define BIGTUNE_SQLITE_CHECK(conn, call)                                                   \
  ::bigtune::db::detail::check_sqlite((call), (conn),                                      \
                                      ::bigtune::db::detail::connection_path(conn), #call, \
                                      __FILE__, __LINE__)
