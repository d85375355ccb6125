// `bigtune query`: the plan bigtune would use for (op, bits, count) on a GPU
// model, its predicted time and where it comes from. Needs no GPU when the
// model is named with --device; records nothing in history.
#include <fmt/core.h>

#include <algorithm>
#include <memory>

#include "bigtune/error.hpp"
#include "cli/cmd_query.hpp"
#include "cli/commands.hpp"
#include "cli/json_quote.hpp"
#include "db/paths.hpp"
#include "db/store.hpp"

namespace bigtune::cli {
namespace {

struct QueryArgs {
  std::string op;
  uint64_t bits = 0;
  uint64_t count = 1;
  std::string device;
};

runtime::DeviceIdentity pick_device(const QueryArgs& args, db::Store& store) {
  if (!args.device.empty()) return {args.device, "", 0, 0, 0};
  if (query_hooks().local_device) {
    if (auto local = query_hooks().local_device(global_options().device)) return *local;
  }
  std::vector<std::string> names;
  for (const db::DeviceRecord& d : store.devices()) {
    if (std::find(names.begin(), names.end(), d.name) == names.end()) names.push_back(d.name);
  }
  if (names.size() == 1) return {names[0], "", 0, 0, 0};
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + ("\"" + n + "\"");
  throw Error(ErrorCode::InvalidArgument, "which GPU? no GPU here and the database knows " +
                                              (names.empty() ? std::string("none") : known),
              "name the model: --device \"NVIDIA H100 80GB HBM3\"");
}

void run_query(const QueryArgs& args) {
  auto store = std::make_shared<db::Store>(db::resolve_db_path(global_options().db_path));
  const runtime::DeviceIdentity device = pick_device(args, *store);
  runtime::SelectorOptions options;
  options.record_history = false;  // a question, not a call
  options.check = query_hooks().check;
  runtime::Selector selector(store, query_hooks().default_plan, options);
  if (query_hooks().model) selector.set_model(query_hooks().model);
  std::optional<Plan> plan;
  try {
    plan = selector.plan(args.op, args.bits, args.count, device);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Unsupported) throw;
  }
  std::optional<Plan> per_instance, shared;
  if (query_hooks().per_instance_modulus) per_instance = query_hooks().per_instance_modulus(args.op, args.bits);
  if (query_hooks().shared_modulus) shared = query_hooks().shared_modulus(args.op, args.bits, args.count, device);
  if (global_options().json) {
    fmt::print("{{\"op\": {}, \"bits\": {}, \"count\": {}, \"device\": {}", json_quote(args.op),
               args.bits, args.count, json_quote(device.name));
    if (per_instance)
      fmt::print(", \"per_instance_modulus\": {{\"variant\": {}, \"ipb\": {}}}", json_quote(per_instance->variant),
                 per_instance->ipb);
    if (shared)
      fmt::print(", \"shared_modulus\": {{\"variant\": {}, \"ipb\": {}}}", json_quote(shared->variant), shared->ipb);
    if (plan) {
      fmt::print(", \"variant\": {}, \"ipb\": {}, \"predicted_us\": {}, \"source\": {}}}\n",
                 json_quote(plan->variant), plan->ipb, plan->predicted_us,
                 json_quote(plan->source));
    } else {
      fmt::print(", \"variant\": null, \"ipb\": null, \"predicted_us\": null, "
                 "\"source\": \"builtin-default\"}}\n");
    }
    return;
  }
  fmt::print("{} of {} bits x {} on {}{}\n", args.op, args.bits, args.count, device.name,
             per_instance ? ", one modulus for the batch" : shared ? ", a modulus per instance" : "");
  // What the other kind of moduli runs instead (mulmod and sqrmod with a
  // modulus per instance, powm with one for the batch), then the database.
  auto tail = [&] {
    if (per_instance)
      fmt::print("  moduli per instance: {} with {} instance{} per block (the runtime's rule, not tuned)\n",
                 per_instance->variant, per_instance->ipb, per_instance->ipb == 1 ? "" : "s");
    if (shared)
      fmt::print("  one modulus for the batch: {} with {} instance{} per block (the runtime's rule, not tuned)\n",
                 shared->variant, shared->ipb, shared->ipb == 1 ? "" : "s");
    fmt::print("  database:  {}\n", store->path());
  };
  if (!plan) {
    fmt::print("  plan:      none stored: no decision, history, profile or model covers this size;\n"
               "             at run time the runtime's built-in default plan is used\n");
    tail();
    return;
  }
  fmt::print("  plan:      {} with {} instance{} per block\n", plan->variant, plan->ipb,
             plan->ipb == 1 ? "" : "s");
  if (plan->predicted_us > 0) {
    fmt::print("  predicted: {:.3f} us\n", plan->predicted_us);
  } else {
    fmt::print("  predicted: unknown\n");
  }
  fmt::print("  source:    {}\n", plan->source);
  tail();
}

}  // namespace

QueryHooks& query_hooks() {
  static QueryHooks hooks;
  return hooks;
}

void add_query_command(CLI::App& app) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* cmd = app.add_subcommand(
      "query", "Show the launch plan for an operation and size, with its predicted time and "
               "source (no GPU needed with --device NAME)");
  cmd->add_option("--op", args->op, "operation: add, sub, cmp, shl, shr, mul_low, mul, ...")
      ->required();
  cmd->add_option("--bits", args->bits, "operand size in bits")->required()
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62));
  cmd->add_option("--count", args->count, "batch size: how many integers (default 1)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62));
  cmd->add_option("--device", args->device,
                  "GPU model name, e.g. \"NVIDIA H100 80GB HBM3\" (default: this machine's GPU, "
                  "or the only model in the database)");
  cmd->callback([args] { run_query(*args); });
}

}  // namespace bigtune::cli
