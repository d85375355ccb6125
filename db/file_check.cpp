// Reading the 100-byte SQLite file header (sqlite.org/fileformat.html §1.3):
// the magic string, the page size (offset 16), the file change counter (24),
// the size in pages (28) and the "version-valid-for" number (92). The size in
// pages is only trusted when the last two counters agree, as SQLite does, and
// only when no -wal or -journal file is beside it: while another process has
// the file open, a checkpoint or commit may write the header before the pages
// that extend the file, and a size check then would be a false alarm.
#include "db/file_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "bigtune/error.hpp"

namespace bigtune::db::detail {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[16] = "SQLite format 3";  // 15 characters and the NUL

uint32_t read_be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw Error(ErrorCode::Database, "tuning database " + path + " " + what,
              "move it aside (bigtune never deletes or rewrites it) and run again to start "
              "a new one, or pass --db (or BIGTUNE_DB) with another file");
}

}  // namespace

void check_database_file(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return;  // missing: SQLite creates it
  if (fs::is_directory(status)) {
    throw Error(ErrorCode::Database, "tuning database path " + path + " is a folder",
                "pass --db (or BIGTUNE_DB) with a file path");
  }
  const uintmax_t size = fs::file_size(path, ec);
  if (ec || size == 0) return;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(ErrorCode::Database, "cannot read tuning database " + path,
                "check its permissions, or pass --db with another file");
  }
  unsigned char header[100] = {};
  in.read(reinterpret_cast<char*>(header), sizeof(header));
  const auto got = static_cast<size_t>(in.gcount());
  // A short file is "truncated" only if what it has is the start of the magic.
  if (std::memcmp(header, kMagic, std::min(got, sizeof(kMagic))) != 0) {
    refuse(path, "is not an SQLite database (no SQLite header)");
  }
  if (got < sizeof(header)) {
    refuse(path, "is truncated (" + std::to_string(size) + " bytes, less than its header)");
  }
  uint32_t page_size = (uint32_t{header[16]} << 8) | header[17];
  if (page_size == 1) page_size = 65536;
  const uint32_t change_counter = read_be32(header + 24);
  const uint32_t page_count = read_be32(header + 28);
  const uint32_t valid_for = read_be32(header + 92);
  if (page_size < 512 || (page_size & (page_size - 1)) != 0) {
    refuse(path, "has a damaged header (page size " + std::to_string(page_size) + ")");
  }
  const bool quiet = !fs::exists(path + "-wal", ec) && !fs::exists(path + "-journal", ec);
  if (quiet && valid_for == change_counter && page_count > 0 &&
      size < uintmax_t{page_size} * page_count) {
    refuse(path, "is truncated (" + std::to_string(size) + " bytes, but its header says " +
                     std::to_string(page_count) + " pages of " + std::to_string(page_size) +
                     ")");
  }
}

void create_parent_folders(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    throw Error(ErrorCode::Database,
                "cannot create the folder " + parent.string() + " for the tuning database: " +
                    ec.message(),
                "create it yourself, or pass --db (or BIGTUNE_DB) with a writable path");
  }
}

}  // namespace bigtune::db::detail
