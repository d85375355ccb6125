// `bigtune history`: the runtime's recent choices, newest first, with the
// measured time next to the predicted one where both are known.
#include <fmt/core.h>

#include <memory>

#include "cli/commands.hpp"
#include "cli/json_quote.hpp"
#include "db/paths.hpp"
#include "db/store.hpp"

namespace bigtune::cli {
namespace {

struct HistoryArgs {
  size_t limit = 20;
  std::string op;
  std::string device;
};

std::string micros(const std::optional<double>& us) {
  return us ? fmt::format("{:.3f}", *us) : std::string("-");
}

std::string json_number(const std::optional<double>& v) {
  return v ? fmt::format("{}", *v) : std::string("null");
}

void print_json(const std::vector<db::HistoryRecord>& rows) {
  fmt::print("[");
  bool first = true;
  for (const db::HistoryRecord& h : rows) {
    fmt::print("{}{{\"first_at\":{},\"last_at\":{},\"device\":{},\"device_uuid\":{},\"op\":{},"
               "\"bits\":{},\"count\":{},\"variant\":{},\"ipb\":{},\"source\":{},\"calls\":{},"
               "\"predicted_us\":{},\"measured_us\":{}}}",
               first ? "" : ",", json_quote(h.first_at), json_quote(h.last_at),
               json_quote(h.device_name), json_quote(h.device_uuid), json_quote(h.op), h.bits,
               h.count, json_quote(h.variant), h.ipb, json_quote(h.source), h.calls,
               json_number(h.predicted_us), json_number(h.measured_us));
    first = false;
  }
  fmt::print("]\n");
}

void run_history(const HistoryArgs& args) {
  db::Store store(db::resolve_db_path(global_options().db_path));
  const auto rows = store.recent_history(args.limit, args.op, args.device);
  if (global_options().json) {
    print_json(rows);
    return;
  }
  if (rows.empty()) {
    fmt::print("no history in {} yet{}\n", store.path(),
               args.op.empty() && args.device.empty() ? "" : " for this filter");
    return;
  }
  fmt::print("{:<24} {:<8} {:>10} {:>9} {:<28} {:>4} {:<8} {:>7} {:>11} {:>11} {:>6}  {}\n",
             "last used (UTC)", "op", "bits", "count", "variant", "ipb", "source", "calls",
             "pred. us", "meas. us", "m/p", "device");
  for (const db::HistoryRecord& h : rows) {
    std::string ratio = "-";
    if (h.measured_us && h.predicted_us && *h.predicted_us > 0) {
      ratio = fmt::format("{:.2f}", *h.measured_us / *h.predicted_us);
    }
    fmt::print("{:<24} {:<8} {:>10} {:>9} {:<28} {:>4} {:<8} {:>7} {:>11} {:>11} {:>6}  {}\n",
               h.last_at, h.op, h.bits, h.count, h.variant, h.ipb, h.source, h.calls,
               micros(h.predicted_us), micros(h.measured_us), ratio, h.device_name);
  }
}

}  // namespace

void add_history_command(CLI::App& app) {
  auto args = std::make_shared<HistoryArgs>();
  CLI::App* cmd = app.add_subcommand("history", "Recent plan choices of the runtime, measured "
                                                "vs predicted time");
  cmd->add_option("-n,--limit", args->limit, "how many rows (default 20)");
  cmd->add_option("--op", args->op, "only this operation");
  cmd->add_option("--device", args->device, "only this GPU model name");
  cmd->callback([args] { run_history(*args); });
}

}  // namespace bigtune::cli
