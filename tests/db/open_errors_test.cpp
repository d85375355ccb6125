// Files bigtune must refuse: each gives a Database error that names the path
// and the next step, and the file is left byte-for-byte as it was.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

#include "bigtune/error.hpp"
#include "db/migrations.hpp"
#include "db/store.hpp"
#include "test_util.hpp"

namespace bigtune::db {
namespace {

// Opens `path` expecting a Database error whose message holds `path` and each
// of `words`; checks the file's bytes did not change.
void expect_refused(const std::string& path, std::initializer_list<const char*> words,
                    StoreOptions options = {}) {
  const std::string before = test::read_bytes(path);
  try {
    Store store(path, options);
    ADD_FAILURE() << "opened " << path << " without an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Database);
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    for (const char* w : words) EXPECT_NE(message.find(w), std::string::npos) << message;
  }
  EXPECT_EQ(test::read_bytes(path), before) << "the file was modified";
}

// A real database of a few pages, closed cleanly (WAL checkpointed).
std::string make_database(const test::TempDir& dir) {
  const std::string path = dir.file("t.db");
  Store store(path);
  DeviceRecord d;
  d.uuid = "GPU-1";
  d.name = std::string(3000, 'x');  // spread over several pages
  store.put_device(d);
  for (int i = 0; i < 20; ++i) {
    d.uuid = "GPU-" + std::to_string(i + 2);
    store.put_device(d);
  }
  return path;
}

TEST(OpenErrors, NotADatabase) {
  test::TempDir dir;
  const std::string path = dir.file("notes.db");
  std::string junk;
  for (int i = 0; i < 5000; ++i) junk += static_cast<char>('a' + i % 26);
  test::write_bytes(path, junk);
  expect_refused(path, {"not an SQLite database", "move it aside"});
  test::write_bytes(path, "not a database");  // shorter than a header, too
  expect_refused(path, {"not an SQLite database"});
}

TEST(OpenErrors, ShorterThanItsHeader) {
  test::TempDir dir;
  const std::string path = make_database(dir);
  test::write_bytes(path, test::read_bytes(path).substr(0, 60));
  expect_refused(path, {"truncated"});
}

TEST(OpenErrors, TruncatedToHalf) {
  test::TempDir dir;
  const std::string path = make_database(dir);
  const std::string bytes = test::read_bytes(path);
  ASSERT_GT(bytes.size(), 4096u * 4);
  test::write_bytes(path, bytes.substr(0, bytes.size() / 2));
  expect_refused(path, {"truncated", "pages"});
}

TEST(OpenErrors, NewerSchemaNamesBothVersions) {
  test::TempDir dir;
  const std::string path = make_database(dir);
  {
    test::RawDb raw(path);
    raw.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion + 5));
  }
  expect_refused(path, {("v" + std::to_string(kSchemaVersion + 5)).c_str(),
                        ("v" + std::to_string(kSchemaVersion)).c_str(), "upgrade bigtune"});
}

TEST(OpenErrors, AnotherApplicationsDatabase) {
  test::TempDir dir;
  const std::string path = dir.file("other.db");
  {
    test::RawDb raw(path);
    raw.exec("CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('a')");
  }
  expect_refused(path, {"another application"});
  {
    test::RawDb raw(path);
    raw.exec("PRAGMA application_id = 7");
  }
  expect_refused(path, {"another application"});
}

TEST(OpenErrors, LockedByAnotherConnection) {
  test::TempDir dir;
  const std::string path = dir.file("locked.db");
  {
    // A rollback-journal file, as another tool might leave it: an exclusive
    // lock there blocks even reading the header.
    test::RawDb raw(path);
    raw.exec("PRAGMA journal_mode = DELETE; CREATE TABLE t (x)");
  }
  test::RawDb holder(path);
  holder.exec("BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)");
  StoreOptions quick;
  quick.busy_timeout_ms = 100;
  expect_refused(path, {"locked", "another process"}, quick);
  holder.exec("ROLLBACK");
}

TEST(OpenErrors, WriteWhileAnotherWriterHoldsTheLock) {
  test::TempDir dir;
  const std::string path = make_database(dir);
  StoreOptions quick;
  quick.busy_timeout_ms = 100;
  Store store(path, quick);
  test::RawDb holder(path);
  holder.exec("BEGIN IMMEDIATE");
  try {
    store.put_device(DeviceRecord{"GPU-x", "x", 9, 0, 1, {}, {}, {}, {}, {}, ""});
    FAIL() << "no error while locked";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Database);
    EXPECT_NE(std::string(e.what()).find("another process holds a lock"), std::string::npos) << e.what();
  }
  holder.exec("ROLLBACK");
  EXPECT_NO_THROW(store.put_device(DeviceRecord{"GPU-x", "x", 9, 0, 1, {}, {}, {}, {}, {}, ""}));
}

TEST(OpenErrors, ReadOnlyFile) {
  test::TempDir dir;
  const std::string path = make_database(dir);
  chmod(path.c_str(), 0444);
  if (geteuid() != 0) {
    expect_refused(path, {"read-only", "writable"});
    return;
  }
  // Root writes through file permissions (as CI may run): check as "nobody"
  // in a child process, which reports by its exit code.
  chmod(dir.path().c_str(), 0777);  // nobody may create the -wal and -shm files
  const std::string before = test::read_bytes(path);
  const pid_t pid = fork();
  if (pid == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(3);
    int code = 1;
    try {
      Store store(path);
    } catch (const Error& e) {
      const std::string message = e.what();
      const bool good = e.code() == ErrorCode::Database &&
                        message.find(path) != std::string::npos &&
                        message.find("read-only") != std::string::npos;
      if (!good) fprintf(stderr, "wrong error: %s\n", message.c_str());
      code = good ? 0 : 2;
    }
    _exit(code);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 3) GTEST_SKIP() << "cannot drop root privileges here";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: opened without an error, 2: wrong error";
  EXPECT_EQ(test::read_bytes(path), before) << "the file was modified";
}

TEST(OpenErrors, ReadOnlyModeNeverCreatesOrMigrates) {
  test::TempDir dir;
  const std::string missing = dir.file("missing.db");
  StoreOptions read_only;
  read_only.mode = OpenMode::ReadOnly;
  EXPECT_THROW(Store(missing, read_only), Error);
  EXPECT_FALSE(std::filesystem::exists(missing));
  const std::string path = make_database(dir);
  { test::RawDb raw(path); raw.exec("PRAGMA user_version = 1"); }
  expect_refused(path, {"older schema v1", "read-write"}, read_only);
}

TEST(OpenErrors, FolderInsteadOfFile) {
  test::TempDir dir;
  try {
    Store store(dir.path().string());
    FAIL() << "opened a folder";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Database);
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos);
  }
}

TEST(OpenErrors, CorruptPagesAreReportedByCheck) {
  test::TempDir dir;
  const std::string path = make_database(dir);
  std::string bytes = test::read_bytes(path);
  // Scribble over the middle of page 2 (the device table's b-tree).
  for (size_t i = 4096 + 8; i < 4096 + 2000; ++i) bytes[i] = static_cast<char>(0xA5);
  test::write_bytes(path, bytes);
  try {
    Store store(path);
    EXPECT_FALSE(store.check().empty());
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Database);  // refusing at open is fine too
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
}

}  // namespace
}  // namespace bigtune::db
