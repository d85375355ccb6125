// Checks on the database file made before SQLite opens it, so that a file
// bigtune must refuse is never written to (not even the journal-mode byte).
#pragma once
#include <string>

namespace bigtune::db::detail {

// For an existing file: throws bigtune::Error (Database) when it is a folder,
// not an SQLite file, or shorter than its header says (truncated). A missing
// or empty file passes (SQLite treats an empty file as a new database).
void check_database_file(const std::string& path);

// Creates the folders above `path`; throws bigtune::Error (Database) on failure.
void create_parent_folders(const std::string& path);

}  // namespace bigtune::db::detail
