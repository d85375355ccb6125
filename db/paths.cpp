// Resolving the tuning database path from flag, environment and XDG.
#include "db/paths.hpp"

#include <cstdlib>

#include "bigtune/error.hpp"

namespace bigtune::db {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

}  // namespace

std::string default_db_path() {
  if (std::string path = env("BIGTUNE_DB"); !path.empty()) return path;
  if (std::string xdg = env("XDG_DATA_HOME"); !xdg.empty() && xdg.front() == '/') {
    return xdg + "/bigtune/tuning.db";
  }
  if (std::string home = env("HOME"); !home.empty()) {
    return home + "/.local/share/bigtune/tuning.db";
  }
  throw Error(ErrorCode::Database, "no place for the tuning database: HOME is not set",
              "set BIGTUNE_DB to a file path, or pass --db");
}

std::string resolve_db_path(const std::string& flag) {
  return flag.empty() ? default_db_path() : flag;
}

}  // namespace bigtune::db
