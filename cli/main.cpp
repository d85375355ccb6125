// The `bigtune` command. Each subcommand registers itself (commands.hpp);
// this file owns the global options and maps errors to exit codes.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"
#include "cli/cmd_query.hpp"
#include "cli/profile_target.hpp"
#include "runtime/default_plan.hpp"
#include "runtime/plan_source.hpp"

namespace bigtune::cli {
GlobalOptions& global_options() {
  static GlobalOptions options;
  return options;
}
}  // namespace bigtune::cli

int main(int argc, char** argv) {
  using namespace bigtune::cli;
  CLI::App app{"bigtune: autotuned batched big-integer arithmetic on NVIDIA GPUs"};
  app.require_subcommand(1);
  GlobalOptions& g = global_options();
  app.add_option("--db", g.db_path, "tuning database (default: $BIGTUNE_DB, then $XDG_DATA_HOME/bigtune/tuning.db)");
  app.add_option("--device", g.device, "CUDA device index")->capture_default_str();
  app.add_flag("--json", g.json, "machine-readable output where supported");
  QueryHooks& hooks = query_hooks();
  hooks.default_plan = [](const std::string& op, uint64_t bits, uint64_t count,
                          const bigtune::runtime::DeviceIdentity& device) {
    return bigtune::runtime::default_plan_function(bigtune::runtime::limits_for_model(device.name))(op, bits, count,
                                                                                                    device);
  };
  hooks.check = [](const std::string& op, uint64_t bits, uint64_t count,
                   const bigtune::runtime::DeviceIdentity& device, const bigtune::Plan& plan) {
    return bigtune::runtime::plan_check(bigtune::runtime::limits_for_model(device.name))(op, bits, count, device,
                                                                                         plan);
  };
  hooks.local_device = [](int index) { return bigtune::runtime::device_identity(index); };
  hooks.per_instance_modulus = [](const std::string& op, uint64_t bits) -> std::optional<bigtune::Plan> {
    const auto o = bigtune::runtime::op_from_name(op);
    return o ? bigtune::runtime::per_instance_modulus_plan(*o, bits) : std::nullopt;
  };
  hooks.shared_modulus = [](const std::string& op, uint64_t bits, uint64_t count,
                            const bigtune::runtime::DeviceIdentity& device) -> std::optional<bigtune::Plan> {
    if (op != "powm") return std::nullopt;
    return bigtune::runtime::shared_modulus_powm_plan(bits, count, bigtune::runtime::limits_for_model(device.name));
  };
  add_variants_command(app);
  add_query_command(app);
  add_db_command(app);
  add_history_command(app);
  add_check_command(app);
  add_probe_command(app);
  set_profile_target_factory(make_profile_target);
  add_profile_command(app);
  add_tune_command(app);
  add_validate_command(app);
  add_report_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const bigtune::Error& e) {
    fmt::print(stderr, "bigtune: {}: {}\n", bigtune::error_code_name(e.code()), e.what());
    return 10 + static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "bigtune: internal error: {}\n", e.what());
    return 2;
  }
  return 0;
}
