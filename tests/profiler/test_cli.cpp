// `bigtune probe` and `bigtune profile` without a GPU: argument parsing, the
// target factory contract, and errors that main.cpp turns into exit codes.
// cli/cmd_probe.cpp and cli/cmd_profile.cpp are compiled into this test with
// the stub of global_options() below (main.cpp owns the real one).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"

namespace bigtune::cli {

GlobalOptions& global_options() {
  static GlobalOptions options;
  return options;
}

namespace {

void parse(CLI::App& app, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11 takes them last-first
  app.parse(args);
}

TEST(Cli, ProfileWithoutAFactoryIsAnInternalError) {
  set_profile_target_factory(nullptr);
  CLI::App app;
  add_profile_command(app);
  try {
    parse(app, {"profile", "add.scan.u32.q4", "--bits", "1024", "--count", "100"});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Internal);
  }
}

TEST(Cli, ProfilePassesTheRequestToTheFactory) {
  ProfileRequest seen;
  set_profile_target_factory([&](const ProfileRequest& r) -> profiler::LaunchTarget {
    seen = r;
    throw Error(ErrorCode::Unsupported, "no variant " + r.variant);
  });
  CLI::App app;
  add_profile_command(app);
  try {
    parse(app, {"profile", "mul.classical.u64.q4", "--bits", "4096", "--count", "65536", "--ipb", "2",
                "--no-counters", "--json"});
    FAIL() << "expected the factory's error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
  }
  EXPECT_EQ(seen.variant, "mul.classical.u64.q4");
  EXPECT_EQ(seen.bits, 4096u);
  EXPECT_EQ(seen.count, 65536u);
  EXPECT_EQ(seen.ipb, 2u);
  set_profile_target_factory(nullptr);
}

TEST(Cli, ProfileNeedsBitsAndCount) {
  CLI::App app;
  add_profile_command(app);
  EXPECT_THROW(parse(app, {"profile", "x", "--bits", "64"}), CLI::ParseError);
  CLI::App app2;
  add_profile_command(app2);
  EXPECT_THROW(parse(app2, {"profile", "x", "--bits", "64", "--count", "1", "--timer", "stopwatch"}),
               CLI::ParseError);
}

TEST(Cli, ProbeWithoutADeviceSaysSo) {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) GTEST_SKIP() << "a GPU is present";
  CLI::App app;
  add_probe_command(app);
  try {
    parse(app, {"probe", "--no-bench"});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::NoDevice);
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bigtune::cli
