// Each `bigtune` subcommand lives in its own cli/cmd_<name>.cpp and registers
// itself on the CLI11 app through one of these functions (called by main.cpp).
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>

#include "profiler/launch_target.hpp"

namespace bigtune::cli {

// Options every command shares (filled before the command's callback runs).
struct GlobalOptions {
  std::string db_path;  // --db; empty: $BIGTUNE_DB, then the XDG default
  int device = 0;       // --device
  bool json = false;    // --json: machine-readable output where supported
};
GlobalOptions& global_options();

void add_variants_command(CLI::App& app);  // cmd_variants.cpp
void add_query_command(CLI::App& app);     // cmd_query.cpp (hooks: cmd_query.hpp)
void add_db_command(CLI::App& app);        // cmd_db.cpp: db info|check|export|import|vacuum
void add_history_command(CLI::App& app);   // cmd_history.cpp
void add_check_command(CLI::App& app);     // cmd_check.cpp
void add_probe_command(CLI::App& app);     // cmd_probe.cpp: the device, its limits and speeds
void add_profile_command(CLI::App& app);   // cmd_profile.cpp: one variant at one size
void add_tune_command(CLI::App& app);      // cmd_tune.cpp: probe, sample, fit, select, store (issue 6)
void add_validate_command(CLI::App& app);  // cmd_validate.cpp: chosen vs exhaustive best on held-out sizes
void add_report_command(CLI::App& app);    // cmd_report.cpp: HTML report of models, decisions, validation

// What `bigtune profile` asks for; the runtime turns it into a LaunchTarget.
struct ProfileRequest {
  std::string variant;      // registry name, e.g. "mul.classical.u64.q4"
  std::uint64_t bits = 0;   // operand bit-size
  std::uint64_t count = 0;  // instances in the batch
  std::uint32_t ipb = 0;    // instances per block; 0: the variant's default
  int device = 0;
  int rotations = 0;        // input sets; 0: enough to exceed twice the L2 (capped)
};
// Builds the target: allocates and fills inputs, validates (throws
// bigtune::Error InvalidArgument/Unsupported with the reason when the variant
// cannot run this size). Installed by main.cpp before parsing.
using ProfileTargetFactory = std::function<profiler::LaunchTarget(const ProfileRequest&)>;
void set_profile_target_factory(ProfileTargetFactory factory);

}  // namespace bigtune::cli
