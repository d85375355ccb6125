// The GPU tests must not write into the user's tuning database: a Context
// opened without a path uses BIGTUNE_DB or ~/.local/share/bigtune/tuning.db,
// and its selector records history there. Before any test runs, point
// BIGTUNE_DB at a fresh temporary file (unless the caller set one) and remove
// it at exit. (Found on the lent GPU machine: a test binary of one schema
// version met the file an older run of another version had left in $HOME.)
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace {

class IsolatedDatabase {
 public:
  IsolatedDatabase() {
    if (const char* set = std::getenv("BIGTUNE_DB"); set && *set) return;
    std::string dir = (std::filesystem::temp_directory_path() / "bigtune-gpu-tests-XXXXXX").string();
    if (!mkdtemp(dir.data())) return;  // then the tests use the default path, as before
    dir_ = dir;
    setenv("BIGTUNE_DB", (dir_ + "/tuning.db").c_str(), 1);
  }
  ~IsolatedDatabase() {
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
  }

 private:
  std::string dir_;
};

const IsolatedDatabase isolated_database;

}  // namespace
