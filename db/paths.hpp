// Where the tuning database lives (docs/database.md, "Where the file is").
// Precedence: the --db flag, then $BIGTUNE_DB, then
// $XDG_DATA_HOME/bigtune/tuning.db, then ~/.local/share/bigtune/tuning.db
// (the XDG base-directory default; a relative $XDG_DATA_HOME is ignored, as
// that specification asks).
#pragma once
#include <string>

namespace bigtune::db {

// The default path without a flag. Throws bigtune::Error (Database) when
// neither BIGTUNE_DB, XDG_DATA_HOME nor HOME gives a place.
std::string default_db_path();

// `flag` if non-empty, else default_db_path().
std::string resolve_db_path(const std::string& flag);

}  // namespace bigtune::db
