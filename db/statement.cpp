// RAII statements, queries and transactions over the SQLite C API.
#include "db/statement.hpp"

namespace bigtune::db::detail {

Statement::Statement(sqlite3* conn, const char* sql) : conn_(conn) {
  BIGTUNE_SQLITE_CHECK(conn_, sqlite3_prepare_v3(conn_, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                                 &stmt_, nullptr));
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Query::~Query() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Query& Query::bind(int i, int64_t value) {
  BIGTUNE_SQLITE_CHECK(conn_, sqlite3_bind_int64(stmt_, i, value));
  return *this;
}

Query& Query::bind(int i, double value) {
  BIGTUNE_SQLITE_CHECK(conn_, sqlite3_bind_double(stmt_, i, value));
  return *this;
}

Query& Query::bind(int i, const std::string& value) {
  BIGTUNE_SQLITE_CHECK(conn_, sqlite3_bind_text(stmt_, i, value.data(),
                                                static_cast<int>(value.size()),
                                                SQLITE_TRANSIENT));
  return *this;
}

Query& Query::bind(int i, const std::optional<double>& value) {
  return value ? bind(i, *value) : bind_null(i);
}

Query& Query::bind(int i, const std::optional<int64_t>& value) {
  return value ? bind(i, *value) : bind_null(i);
}

Query& Query::bind_null(int i) {
  BIGTUNE_SQLITE_CHECK(conn_, sqlite3_bind_null(stmt_, i));
  return *this;
}

bool Query::step() {
  return BIGTUNE_SQLITE_CHECK(conn_, sqlite3_step(stmt_)) == SQLITE_ROW;
}

bool Query::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
int64_t Query::int64(int col) const { return sqlite3_column_int64(stmt_, col); }
double Query::real(int col) const { return sqlite3_column_double(stmt_, col); }

std::optional<double> Query::opt_real(int col) const {
  if (is_null(col)) return std::nullopt;
  return real(col);
}

std::optional<int64_t> Query::opt_int64(int col) const {
  if (is_null(col)) return std::nullopt;
  return int64(col);
}

std::string Query::text(int col) const {
  const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (data == nullptr) return {};
  return std::string(data, static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

void exec(sqlite3* conn, const char* sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(conn, sql, nullptr, nullptr, &message);
  if (message != nullptr) sqlite3_free(message);
  BIGTUNE_SQLITE_CHECK(conn, rc);
}

Transaction::Transaction(sqlite3* conn, Kind kind) : conn_(conn) {
  if (kind == Kind::Read && sqlite3_get_autocommit(conn_) == 0) return;  // join the open one
  exec(conn_, kind == Kind::Write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
  open_ = true;
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(conn_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  if (!open_) return;
  exec(conn_, "COMMIT");
  open_ = false;
}

}  // namespace bigtune::db::detail
