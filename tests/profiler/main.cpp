// Test main of bigtune_profiler_tests. Started by a Worker in exec mode
// (BIGTUNE_WORKER_FD set), the binary serves requests instead of testing:
// "echo:<text>" -> "<text>", "crash" -> SIGSEGV, "hang" -> sleeps forever,
// "invalid" -> bigtune::Error(InvalidArgument), "pid" -> its process id.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <string>

#include "bigtune/error.hpp"
#include "profiler/worker.hpp"

std::string test_worker_handler(const std::string& request) {
  if (request.rfind("echo:", 0) == 0) return request.substr(5);
  if (request == "pid") return std::to_string(getpid());
  if (request == "crash") raise(SIGSEGV);
  if (request == "hang")
    for (;;) pause();
  if (request == "invalid") throw bigtune::Error(bigtune::ErrorCode::InvalidArgument, "bad launch");
  if (request == "throw") throw bigtune::Error(bigtune::ErrorCode::Cuda, "simulated sticky CUDA error");
  return "unknown request";
}

int main(int argc, char** argv) {
  if (bigtune::profiler::is_worker_process()) return bigtune::profiler::serve_worker(test_worker_handler);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
