// Each `bigtune` subcommand lives in its own cli/cmd_<name>.cpp and registers
// itself on the CLI11 app through one of these functions (called by main.cpp).
#pragma once
#include <CLI/CLI.hpp>

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

}  // namespace bigtune::cli
