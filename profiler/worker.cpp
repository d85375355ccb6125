#include "profiler/worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "bigtune/error.hpp"

namespace bigtune::profiler {
namespace {

constexpr const char* kFdVariable = "BIGTUNE_WORKER_FD";
constexpr int kChildFd = 3;
constexpr std::uint32_t kMagic = 0x42545752;  // "BTWR"

// Frame: magic, status (an Outcome for replies, 0 for requests), length, bytes.
struct FrameHeader {
  std::uint32_t magic;
  std::uint32_t status;
  std::uint64_t length;
};

using Clock = std::chrono::steady_clock;

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

bool write_frame(int fd, std::uint32_t status, const std::string& payload) {
  const FrameHeader h{kMagic, status, payload.size()};
  return write_all(fd, &h, sizeof h) && write_all(fd, payload.data(), payload.size());
}

enum class ReadResult { Ok, Eof, Timeout, Error };

// Reads exactly n bytes, waiting until `deadline` (none when deadline is max()).
ReadResult read_all(int fd, void* data, std::size_t n, Clock::time_point deadline) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    int wait_ms = -1;
    if (deadline != Clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return ReadResult::Timeout;
      wait_ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd pfd{fd, POLLIN, 0};
    const int ready = poll(&pfd, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return ReadResult::Error;
    if (ready == 0) return ReadResult::Timeout;
    const ssize_t k = recv(fd, p, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return ReadResult::Error;
    if (k == 0) return ReadResult::Eof;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return ReadResult::Ok;
}

ReadResult read_frame(int fd, std::uint32_t* status, std::string* payload, Clock::time_point deadline) {
  FrameHeader h{};
  ReadResult r = read_all(fd, &h, sizeof h, deadline);
  if (r != ReadResult::Ok) return r;
  if (h.magic != kMagic || h.length > (std::uint64_t{1} << 32)) return ReadResult::Error;
  payload->resize(h.length);
  r = read_all(fd, payload->data(), h.length, deadline);
  *status = h.status;
  return r;
}

// The serving loop, in the child. Returns the exit code.
int serve(int fd, const WorkerHandler& handler) {
  for (;;) {
    std::uint32_t status = 0;
    std::string request;
    const ReadResult r = read_frame(fd, &status, &request, Clock::time_point::max());
    if (r == ReadResult::Eof) return 0;
    if (r != ReadResult::Ok) return 2;
    Outcome outcome = Outcome::Ok;
    std::string reply;
    try {
      reply = handler(request);
    } catch (const Error& e) {
      const bool invalid = e.code() == ErrorCode::InvalidArgument || e.code() == ErrorCode::Unsupported;
      outcome = invalid ? Outcome::Invalid : Outcome::Fault;
      reply = e.what();
    } catch (const std::exception& e) {
      outcome = Outcome::Fault;
      reply = e.what();
    } catch (...) {
      outcome = Outcome::Fault;
      reply = "unknown exception in the worker";
    }
    if (!write_frame(fd, static_cast<std::uint32_t>(outcome), reply)) return 3;
    if (outcome == Outcome::Fault) return 1;  // the CUDA context may be poisoned: start afresh
  }
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "worker killed by signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  if (WIFEXITED(status)) return "worker exited with status " + std::to_string(WEXITSTATUS(status));
  return "worker ended (wait status " + std::to_string(status) + ")";
}

}  // namespace

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::Ok: return "ok";
    case Outcome::Timeout: return "timeout";
    case Outcome::Fault: return "fault";
    case Outcome::Invalid: return "invalid";
  }
  return "?";
}

Worker::Worker(WorkerHandler handler) : handler_(std::move(handler)) {
  if (!handler_) throw Error(ErrorCode::InvalidArgument, "Worker: empty handler");
}

Worker::Worker(std::vector<std::string> command) : command_(std::move(command)) {
  if (command_.empty()) throw Error(ErrorCode::InvalidArgument, "Worker: empty command");
}

Worker::~Worker() { stop(); }

void Worker::start() {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw Error(ErrorCode::Internal, std::string("socketpair failed: ") + std::strerror(errno));
  std::vector<char*> argv;
  for (std::string& a : command_) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw Error(ErrorCode::Internal, std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {  // child
    close(fds[0]);
    if (!command_.empty()) {
      if (dup2(fds[1], kChildFd) < 0) _exit(127);  // dup2 clears close-on-exec
      setenv(kFdVariable, "3", 1);
      execvp(argv[0], argv.data());
      _exit(127);
    }
    // _exit: the parent's atexit handlers and static destructors are not ours to run.
    _exit(serve(fds[1], handler_));
  }
  close(fds[1]);
  pid_ = pid;
  fd_ = fds[0];
  ++starts_;
}

std::string Worker::reap(bool kill_first) {
  if (pid_ == 0) return {};
  if (kill_first) kill(pid_, SIGKILL);
  int status = 0;
  // A child that replied "fault" exits by itself; give it a moment, then kill.
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  pid_t r = 0;
  while ((r = waitpid(pid_, &status, WNOHANG)) == 0 && Clock::now() < deadline) usleep(1000);
  if (r == 0) {
    kill(pid_, SIGKILL);
    r = waitpid(pid_, &status, 0);
  }
  pid_ = 0;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  return r > 0 ? describe_status(status) : std::string("worker vanished");
}

void Worker::stop() {
  if (pid_ == 0) return;
  shutdown(fd_, SHUT_RDWR);  // the child's serve loop sees end of file and exits
  reap(false);
}

WorkerReply Worker::call(const std::string& request, double timeout_seconds) {
  const auto t0 = Clock::now();
  WorkerReply reply;
  auto finish = [&]() -> WorkerReply {
    reply.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return reply;
  };
  if (pid_ == 0) start();
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));

  if (!write_frame(fd_, 0, request)) {
    // The idle child died since the last call (not this request's doing):
    // start a fresh one and send again, once.
    reap(false);
    start();
    if (!write_frame(fd_, 0, request)) {
      reply.outcome = Outcome::Fault;
      reply.reason = "could not send the request: " + reap(false);
      return finish();
    }
  }
  std::uint32_t status = 0;
  std::string payload;
  switch (read_frame(fd_, &status, &payload, deadline)) {
    case ReadResult::Ok:
      break;
    case ReadResult::Timeout:
      reap(true);
      reply.outcome = Outcome::Timeout;
      reply.reason = "no reply within " + std::to_string(timeout_seconds) + " s; worker killed";
      return finish();
    case ReadResult::Eof:
    case ReadResult::Error:
      reply.outcome = Outcome::Fault;
      reply.reason = reap(false);
      return finish();
  }
  reply.outcome = static_cast<Outcome>(status);
  if (reply.outcome == Outcome::Ok) {
    reply.payload = std::move(payload);
  } else {
    reply.reason = std::move(payload);
    if (reply.outcome == Outcome::Fault) reap(false);  // it exits after a fault
  }
  return finish();
}

int serve_worker(const WorkerHandler& handler) {
  const char* fd_text = std::getenv(kFdVariable);
  if (!fd_text) return 2;
  const int fd = std::atoi(fd_text);
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  return serve(fd, handler);
}

bool is_worker_process() { return std::getenv(kFdVariable) != nullptr; }

}  // namespace bigtune::profiler
