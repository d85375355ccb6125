// Several processes on one file: 8 writers x 10,000 history rows with 2
// readers at once lose nothing and see no errors; a writer killed with
// SIGKILL in the middle of a transaction leaves a healthy file and no part
// of that transaction.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "db/store.hpp"
#include "test_util.hpp"

namespace bigtune::db {
namespace {

constexpr int kWriters = 8;
constexpr int kRowsPerWriter = 10000;
constexpr int kRowsPerTransaction = 100;

DeviceRecord card() {
  DeviceRecord d;
  d.uuid = "GPU-concurrency";
  d.name = "Concurrency GPU";
  return d;
}

HistoryRecord row(int writer, int i) {
  return {"GPU-concurrency", "", "w" + std::to_string(writer), static_cast<uint64_t>(i + 1), 1,
          "v", 1, "default", std::nullopt, std::nullopt, 1, "", ""};
}

StoreOptions patient() {
  StoreOptions o;
  o.busy_timeout_ms = 60000;  // 2 shared cores: writers may queue for a while
  return o;
}

// Runs `body` in a child process; the child exits 0 on success, 1 on any exception.
pid_t spawn(const std::function<void()>& body) {
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 0;
    try {
      body();
    } catch (const std::exception& e) {
      fprintf(stderr, "child %d: %s\n", getpid(), e.what());
      code = 1;
    }
    _exit(code);
  }
  return pid;
}

TEST(Concurrency, EightWritersAndTwoReadersLoseNothing) {
  test::TempDir dir;
  const std::string path = dir.file("shared.db");
  Store(path, patient()).put_device(card());
  std::vector<pid_t> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.push_back(spawn([&, w] {
      Store store(path, patient());
      for (int start = 0; start < kRowsPerWriter; start += kRowsPerTransaction) {
        std::vector<HistoryRecord> batch;
        for (int i = start; i < start + kRowsPerTransaction; ++i) batch.push_back(row(w, i));
        store.add_history(batch);
      }
    }));
  }
  std::vector<pid_t> readers;
  for (int r = 0; r < 2; ++r) {
    readers.push_back(spawn([&] {
      Store store(path, patient());
      int64_t seen = 0;
      for (int i = 0; i < 200; ++i) {
        const int64_t now = store.history_rows();
        if (now < seen || now % kRowsPerTransaction != 0) {
          throw std::runtime_error("reader saw " + std::to_string(now) + " rows after " +
                                   std::to_string(seen));
        }
        seen = now;
        store.recent_history(50);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }));
  }
  int failures = 0;
  for (pid_t pid : writers) {
    int status = 0;
    waitpid(pid, &status, 0);
    failures += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  for (pid_t pid : readers) {
    int status = 0;
    waitpid(pid, &status, 0);
    failures += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(failures, 0);
  Store store(path);
  EXPECT_EQ(store.history_rows(), int64_t{kWriters} * kRowsPerWriter);
  for (int w = 0; w < kWriters; ++w) {
    EXPECT_EQ(store.recent_history(kRowsPerWriter * 2, "w" + std::to_string(w)).size(),
              static_cast<size_t>(kRowsPerWriter))
        << "writer " << w;
  }
  EXPECT_EQ(store.check(), std::vector<std::string>{});
}

TEST(Concurrency, KilledWriterLeavesAHealthyFile) {
  constexpr int kBatch = 5000;
  for (int delay_ms : {5, 30, 90}) {
    test::TempDir dir;
    const std::string path = dir.file("killed.db");
    Store(path).put_device(card());
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t pid = spawn([&] {
      Store store(path);
      std::vector<HistoryRecord> batch;
      for (int i = 0; i < kBatch; ++i) batch.push_back(row(0, i));
      store.add_history(batch);
      if (write(ready[1], "x", 1) != 1) throw std::runtime_error("pipe");
      for (;;) store.add_history(batch);  // killed somewhere in here
    });
    char byte = 0;
    ASSERT_EQ(read(ready[0], &byte, 1), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    close(ready[0]);
    close(ready[1]);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer was not killed";
    Store store(path);
    EXPECT_EQ(store.check(), std::vector<std::string>{}) << "delay " << delay_ms;
    const int64_t rows = store.history_rows();
    EXPECT_GE(rows, kBatch);
    EXPECT_EQ(rows % kBatch, 0) << "a partial transaction survived (delay " << delay_ms << ")";
  }
}

}  // namespace
}  // namespace bigtune::db
