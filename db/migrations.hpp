// The schema's version history and the steps between versions.
//
// The version lives in `PRAGMA user_version` (SQLite's own `schema_version`
// is never touched); `PRAGMA application_id` marks the file as bigtune's so a
// foreign SQLite file is refused instead of "migrated". docs/database.md
// describes the current schema; tests/db/fixtures/schema_v<N>.sql keeps every
// past version, and tests/db/migrations_test.cpp migrates each one.
#pragma once
#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace bigtune::db {

// The version this build writes. Raise it only together with a new step in
// migrations.cpp, a fixture and the docs (see "Migration how-to" there).
constexpr int kSchemaVersion = 3;

// "BGTU" in ASCII: written to the file header's application id.
constexpr int32_t kApplicationId = 0x42475455;

// Brings the open database at `path` from whatever version it holds (0 for a
// new, empty file) to kSchemaVersion: all pending steps and the version write
// run in one IMMEDIATE transaction, so another process either sees the old
// schema or the new one, and a crash leaves the old one. The version is read
// again inside the transaction, so two processes opening a new file at once
// migrate it once. Returns the version found before migrating.
// Precondition: the stored version is <= kSchemaVersion (Store checks first).
int migrate_to_current(sqlite3* conn, const std::string& path);

}  // namespace bigtune::db
