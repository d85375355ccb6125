// Thin RAII helpers over sqlite3_stmt and transactions, private to db/.
// Every call goes through BIGTUNE_SQLITE_CHECK, so a failure becomes a
// bigtune::Error naming the file, the call and the next step.
#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

#include "db/sqlite_check.hpp"

namespace bigtune::db::detail {

// One prepared statement, prepared once (at Store open) and reused.
class Statement {
 public:
  Statement(sqlite3* conn, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  sqlite3_stmt* get() const { return stmt_; }
  sqlite3* connection() const { return conn_; }

 private:
  sqlite3* conn_;
  sqlite3_stmt* stmt_ = nullptr;
};

// One use of a Statement: bind, step, read columns. The destructor resets the
// statement and clears its bindings, so a half-read SELECT never keeps a read
// transaction open (which would stop WAL checkpoints).
class Query {
 public:
  explicit Query(Statement& statement) : stmt_(statement.get()), conn_(statement.connection()) {}
  ~Query();
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  // Parameters are 1-based, as in SQLite.
  Query& bind(int i, int64_t value);
  Query& bind(int i, uint64_t value) { return bind(i, static_cast<int64_t>(value)); }
  Query& bind(int i, int value) { return bind(i, static_cast<int64_t>(value)); }
  Query& bind(int i, uint32_t value) { return bind(i, static_cast<int64_t>(value)); }
  Query& bind(int i, double value);
  Query& bind(int i, const std::string& value);
  Query& bind(int i, const std::optional<double>& value);
  Query& bind(int i, const std::optional<int64_t>& value);
  Query& bind_null(int i);

  // True when a row is available, false when done; throws on errors.
  bool step();
  // Runs a statement that returns no rows.
  void run() { while (step()) {} }

  // Columns are 0-based, as in SQLite.
  bool is_null(int col) const;
  int64_t int64(int col) const;
  double real(int col) const;
  std::optional<double> opt_real(int col) const;
  std::optional<int64_t> opt_int64(int col) const;
  std::string text(int col) const;

 private:
  sqlite3_stmt* stmt_;
  sqlite3* conn_;
};

// BEGIN IMMEDIATE (writes: take the write lock up front so a long transaction
// cannot fail half-way on a lock upgrade) or BEGIN DEFERRED (reads). Rolls
// back unless commit() was called. A Read transaction started inside another
// transaction joins it (begins and commits nothing).
class Transaction {
 public:
  enum class Kind { Read, Write };
  Transaction(sqlite3* conn, Kind kind);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  sqlite3* conn_;
  bool open_ = false;
};

// Runs SQL without results (pragmas, DDL), checked.
void exec(sqlite3* conn, const char* sql);

}  // namespace bigtune::db::detail
