// Isolated measurement (issue 5, item 5): run each measurement in a child
// process with a watchdog, so that a candidate that faults (an illegal
// address poisons the CUDA context for good) or hangs is recorded and the
// tuning run goes on. Tuning failures are data (STYLE.md): every call returns
// an outcome ok / timeout / fault / invalid with its reason, never throws for
// the candidate's sake.
//
// The worker is a persistent child: one process (and one CUDA context) serves
// many requests, so context creation is paid once. It is started lazily and
// restarted after a fault or a time-out. Requests and replies are opaque
// strings (the caller chooses the encoding, e.g. JSON), framed over a Unix
// socket pair.
//
// Two ways to start the child:
//  - fork: the child runs the handler given here. CUDA does not survive
//    fork(): the parent must not have touched CUDA before the first call.
//  - exec: the child is a program (e.g. bigtune-worker, or this executable
//    with a flag) whose main calls serve_worker(handler); safe whatever the
//    parent did. The socket is the child's fd 3, named in BIGTUNE_WORKER_FD.
//
// In the child, the handler's exceptions become the outcome: bigtune::Error
// with code InvalidArgument or Unsupported -> invalid (the worker goes on);
// any other exception -> fault, and the worker exits after replying (its
// context may be poisoned); a crash (signal) -> fault with the signal's name.
#pragma once
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace bigtune::profiler {

enum class Outcome { Ok, Timeout, Fault, Invalid };
const char* outcome_name(Outcome outcome);  // "ok", "timeout", "fault", "invalid"

struct WorkerReply {
  Outcome outcome = Outcome::Fault;
  std::string payload;  // the handler's reply (Ok only)
  std::string reason;   // what went wrong (not Ok)
  double seconds = 0;   // wall time of the call, including a (re)start
};

// Runs in the child: request in, reply out.
using WorkerHandler = std::function<std::string(const std::string& request)>;

class Worker {
 public:
  explicit Worker(WorkerHandler handler);             // fork mode
  explicit Worker(std::vector<std::string> command);  // exec mode: program and arguments
  ~Worker();  // stops the child (closes its socket, then kills it if it lingers)
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Sends `request` and waits at most `timeout_seconds` for the reply. On a
  // time-out the child is killed (SIGKILL) and the next call starts a new one.
  // Throws bigtune::Error only when the child cannot be started at all.
  WorkerReply call(const std::string& request, double timeout_seconds);

  void stop();
  pid_t pid() const { return pid_; }     // 0 when no child runs
  int starts() const { return starts_; }  // children started so far

 private:
  void start();
  std::string reap(bool kill_first);  // waits for the child; returns how it ended

  WorkerHandler handler_;
  std::vector<std::string> command_;
  pid_t pid_ = 0;
  int fd_ = -1;
  int starts_ = 0;
};

// A worker program's main: serves requests on the socket named by
// BIGTUNE_WORKER_FD until the parent closes it. Returns main's exit code.
int serve_worker(const WorkerHandler& handler);
// True in a process started by Worker's exec mode.
bool is_worker_process();

}  // namespace bigtune::profiler
