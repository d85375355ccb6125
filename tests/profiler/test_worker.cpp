// Worker protocol and watchdog with non-GPU children that crash, hang or
// refuse on purpose (fork mode: a handler; exec mode: this test binary
// re-executed as a worker, see main.cpp).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <string>

#include "bigtune/error.hpp"
#include "profiler/worker.hpp"

std::string test_worker_handler(const std::string& request);  // main.cpp

namespace bigtune::profiler {
namespace {

std::vector<std::string> self_command() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return {"/proc/self/exe"};
  return {std::string(path, static_cast<std::size_t>(n))};
}

TEST(Worker, OutcomeNames) {
  EXPECT_STREQ(outcome_name(Outcome::Ok), "ok");
  EXPECT_STREQ(outcome_name(Outcome::Timeout), "timeout");
  EXPECT_STREQ(outcome_name(Outcome::Fault), "fault");
  EXPECT_STREQ(outcome_name(Outcome::Invalid), "invalid");
}

TEST(Worker, ForkServesManyRequestsInOneProcess) {
  Worker w(test_worker_handler);
  const WorkerReply a = w.call("echo:hello", 10);
  ASSERT_EQ(a.outcome, Outcome::Ok) << a.reason;
  EXPECT_EQ(a.payload, "hello");
  const std::string big(1 << 20, 'x');  // larger than a socket buffer
  const WorkerReply b = w.call("echo:" + big, 10);
  ASSERT_EQ(b.outcome, Outcome::Ok) << b.reason;
  EXPECT_EQ(b.payload, big);
  const WorkerReply empty = w.call("echo:", 10);
  EXPECT_EQ(empty.outcome, Outcome::Ok);
  EXPECT_EQ(empty.payload, "");
  EXPECT_EQ(w.starts(), 1);
}

TEST(Worker, CrashIsAFaultAndTheNextCallRunsInANewChild) {
  Worker w(test_worker_handler);
  const std::string first_pid = w.call("pid", 10).payload;
  const WorkerReply crash = w.call("crash", 10);
  EXPECT_EQ(crash.outcome, Outcome::Fault);
  EXPECT_NE(crash.reason.find("signal 11"), std::string::npos) << crash.reason;
  const WorkerReply after = w.call("pid", 10);
  ASSERT_EQ(after.outcome, Outcome::Ok) << after.reason;
  EXPECT_NE(after.payload, first_pid);
  EXPECT_EQ(w.starts(), 2);
}

TEST(Worker, HangIsATimeoutWithinTheLimit) {
  Worker w(test_worker_handler);
  const WorkerReply hang = w.call("hang", 0.5);
  EXPECT_EQ(hang.outcome, Outcome::Timeout);
  EXPECT_GE(hang.seconds, 0.45);
  EXPECT_LT(hang.seconds, 5.0);
  EXPECT_EQ(w.pid(), 0);  // killed
  const WorkerReply after = w.call("echo:alive", 10);
  ASSERT_EQ(after.outcome, Outcome::Ok) << after.reason;
  EXPECT_EQ(after.payload, "alive");
}

TEST(Worker, InvalidKeepsTheChildFaultRestartsIt) {
  Worker w(test_worker_handler);
  const std::string pid = w.call("pid", 10).payload;
  const WorkerReply invalid = w.call("invalid", 10);
  EXPECT_EQ(invalid.outcome, Outcome::Invalid);
  EXPECT_NE(invalid.reason.find("bad launch"), std::string::npos) << invalid.reason;
  EXPECT_EQ(w.call("pid", 10).payload, pid);  // same child goes on
  const WorkerReply fault = w.call("throw", 10);
  EXPECT_EQ(fault.outcome, Outcome::Fault);
  EXPECT_NE(fault.reason.find("sticky"), std::string::npos) << fault.reason;
  EXPECT_NE(w.call("pid", 10).payload, pid);  // a fresh child after a fault
}

TEST(Worker, ExecModeRunsAWorkerProgram) {
  Worker w(self_command());
  const WorkerReply a = w.call("echo:from exec", 20);
  ASSERT_EQ(a.outcome, Outcome::Ok) << a.reason;
  EXPECT_EQ(a.payload, "from exec");
  EXPECT_EQ(w.call("crash", 20).outcome, Outcome::Fault);
  EXPECT_EQ(w.call("hang", 0.5).outcome, Outcome::Timeout);
  EXPECT_EQ(w.call("echo:again", 20).payload, "again");
  EXPECT_EQ(w.starts(), 3);
}

TEST(Worker, ExecOfAProgramThatNeverAnswersTimesOut) {
  Worker w(std::vector<std::string>{"sleep", "30"});
  const WorkerReply r = w.call("anything", 0.3);
  EXPECT_EQ(r.outcome, Outcome::Timeout);
}

TEST(Worker, ExecOfAMissingProgramIsAFault) {
  Worker w(std::vector<std::string>{"/nonexistent/bigtune-worker"});
  const WorkerReply r = w.call("anything", 5);
  EXPECT_EQ(r.outcome, Outcome::Fault);
  EXPECT_NE(r.reason.find("127"), std::string::npos) << r.reason;
}

TEST(Worker, AChildThatDiedWhileIdleIsReplaced) {
  Worker w(test_worker_handler);
  ASSERT_EQ(w.call("echo:x", 10).outcome, Outcome::Ok);
  kill(w.pid(), SIGKILL);
  usleep(100000);
  // Sending to a dead child fails at once (EPIPE): the request goes to a new
  // child and is not blamed for the death.
  const WorkerReply r = w.call("echo:still here", 10);
  ASSERT_EQ(r.outcome, Outcome::Ok) << r.reason;
  EXPECT_EQ(r.payload, "still here");
  EXPECT_EQ(w.starts(), 2);
  EXPECT_EQ(w.call("echo:y", 10).payload, "y");
}

TEST(Worker, StopEndsTheChild) {
  Worker w(test_worker_handler);
  ASSERT_EQ(w.call("echo:x", 10).outcome, Outcome::Ok);
  const pid_t pid = w.pid();
  ASSERT_GT(pid, 0);
  w.stop();
  EXPECT_EQ(w.pid(), 0);
  EXPECT_NE(kill(pid, 0), 0);  // reaped: no such process
}

}  // namespace
}  // namespace bigtune::profiler
