// `bigtune profile VARIANT --bits B --count N`: one variant at one size —
// static facts, occupancy, durations (CUPTI, events fallback) and hardware
// counters (range profiler) — as a table or JSON. Counters and durations come
// from separate runs; when counters are refused (privileges, another
// profiler) the command says so and reports durations only.
//
// The command knows no variants itself: the runtime installs a
// ProfileTargetFactory (commands.hpp) that prepares the launch.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"
#include "profiler/counters.hpp"
#include "profiler/json.hpp"
#include "profiler/kernel_facts.hpp"
#include "profiler/timer.hpp"

namespace bigtune::cli {
namespace {

ProfileTargetFactory& factory() {
  static ProfileTargetFactory f;
  return f;
}

struct ProfileArgs {
  ProfileRequest request;
  int repetitions = 20;
  int warmup = 3;
  std::string backend = "auto";
  std::string metrics;  // comma-separated; empty: the default set
  bool no_counters = false;
  bool flush_l2 = false;
  bool json = false;
};

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

void progress(bool quiet, const std::string& line) {
  if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
}

struct ProfileReport {
  profiler::LaunchTarget target;
  std::optional<profiler::KernelFacts> facts;
  std::optional<profiler::Occupancy> occupancy;
  profiler::TimingResult timing;
  std::optional<profiler::CounterSample> counters;
  std::vector<profiler::RejectedMetric> rejected;
  std::string counters_unavailable;  // why there are no counters, if so
};

std::string to_json(const ProfileReport& r) {
  profiler::JsonWriter w;
  w.begin_object().field("target", r.target.name);
  w.key("work").begin_object();
  for (const auto& [unit, amount] : r.target.work) w.field(unit, amount);
  w.end_object();
  w.key("facts");
  r.facts ? w.raw(r.facts->to_json()) : w.null();
  w.key("occupancy");
  r.occupancy ? w.raw(r.occupancy->to_json()) : w.null();
  w.key("timing").raw(r.timing.to_json());
  w.key("counters");
  r.counters ? w.raw(r.counters->to_json()) : w.null();
  if (!r.counters_unavailable.empty()) w.field("counters_unavailable", r.counters_unavailable);
  w.key("rejected_metrics").begin_array();
  for (const auto& m : r.rejected) w.begin_object().field("name", m.name).field("reason", m.reason).end_object();
  w.end_array();
  w.end_object();
  return w.str();
}

void print_table(const ProfileReport& r) {
  fmt::print("{}\n", r.target.name);
  if (r.facts)
    fmt::print("  kernel: {} registers, {} B static shared, {} B local per thread, max {} threads/block\n",
               r.facts->registers_per_thread, r.facts->static_shared_bytes, r.facts->local_bytes_per_thread,
               r.facts->max_threads_per_block);
  if (r.occupancy)
    fmt::print("  occupancy: {} blocks/SM, {}/{} warps ({:.0f} %), limited by {}\n", r.occupancy->active_blocks_per_sm,
               r.occupancy->active_warps_per_sm, r.occupancy->max_warps_per_sm, 100 * r.occupancy->fraction,
               profiler::occupancy_limit_name(r.occupancy->limit));
  const auto& t = r.timing;
  fmt::print("  time ({}, {} runs): median {:.3f} us, min {:.3f}, max {:.3f}, stddev {:.2f} %\n",
             profiler::timing_backend_name(t.backend), t.summary.count, t.median_ns() / 1e3, t.min_ns() / 1e3,
             t.max_ns() / 1e3, 100 * t.summary.relative_spread());
  if (!t.fallback_reason.empty()) fmt::print("  (CUDA events: {})\n", t.fallback_reason);
  for (const auto& [unit, amount] : r.target.work)
    if (t.median_ns() > 0) fmt::print("  throughput: {:.4g} {}/s\n", amount / (t.median_ns() * 1e-9), unit);
  if (!r.counters_unavailable.empty()) fmt::print("  counters: {}\n", r.counters_unavailable);
  if (r.counters) {
    if (!r.counters->ok) {
      fmt::print("  counters failed: {}\n", r.counters->error);
    } else {
      fmt::print("  counters:\n");
      for (std::size_t i = 0; i < r.counters->names.size(); ++i)
        fmt::print("    {:<52} {:>18.6g}\n", r.counters->names[i], r.counters->values[i]);
    }
  }
  for (const auto& m : r.rejected) fmt::print("  not collected: {} ({})\n", m.name, m.reason);
}

void run_profile(const ProfileArgs& args) {
  if (!factory())
    throw Error(ErrorCode::Internal, "this bigtune was built without a profile target factory",
                "main.cpp must call set_profile_target_factory()");
  const bool json = args.json || global_options().json;
  ProfileRequest request = args.request;
  request.device = global_options().device;

  ProfileReport report;
  progress(json, fmt::format("[1/3] preparing {} bits={} count={}", request.variant, request.bits, request.count));
  report.target = factory()(request);
  if (!report.target.launch) throw Error(ErrorCode::Internal, "the profile target has no launch function");
  if (report.target.kernel) {
    report.facts = profiler::kernel_facts(report.target.kernel);
    if (report.target.block_threads > 0)
      report.occupancy = profiler::occupancy(report.target.kernel, report.target.block_threads,
                                             report.target.dynamic_shared_bytes, request.device);
  }

  progress(json, fmt::format("[2/3] timing: {} warm-up + {} runs over {} input sets", args.warmup, args.repetitions,
                             report.target.rotations));
  profiler::TimingOptions timing;
  timing.warmup = args.warmup;
  timing.repetitions = args.repetitions;
  timing.rotations = std::max(1, report.target.rotations);
  timing.kernels_per_launch = report.target.kernels_per_launch;
  timing.backend = profiler::parse_timing_backend(args.backend);
  timing.flush_l2 = args.flush_l2;
  {
    profiler::Timer timer(request.device);
    report.timing = timer.time(report.target.launch, timing);
  }

  // A composed variant's kernels per call, counted from the timed records
  // (CUPTI); the range profiler needs that count, one range per kernel.
  int kernels_per_call = report.target.kernels_per_launch;
  if (kernels_per_call == 0 && !report.timing.kernels.empty() &&
      report.timing.kernels.size() % size_t(args.repetitions) == 0)
    kernels_per_call = int(report.timing.kernels.size() / size_t(args.repetitions));
  constexpr int kMaxCountedKernels = 16;
  if (args.no_counters) {
    report.counters_unavailable = "not requested (--no-counters)";
  } else if (kernels_per_call < 1 || kernels_per_call > kMaxCountedKernels) {
    report.counters_unavailable =
        kernels_per_call < 1
            ? "this variant launches several kernels per call and their number is unknown without CUPTI timing"
            : fmt::format("this variant launches {} kernels per call (counters take at most {}); profile the "
                          "variants it is composed of instead",
                          kernels_per_call, kMaxCountedKernels);
  } else {
    profiler::CounterOptions counters;
    counters.device = request.device;
    if (!args.metrics.empty()) counters.metrics = split_commas(args.metrics);
    try {
      profiler::CounterSession session(counters);
      progress(json, fmt::format("[3/3] counters: {} metrics in {} replay passes on {}", session.metrics().size(),
                                 session.passes(), session.chip()));
      report.rejected = session.rejected();
      const auto& target = report.target;
      report.counters = session.measure([&](cudaStream_t s) { target.launch(s, 0); }, kernels_per_call);
    } catch (const profiler::CountersUnavailable& e) {
      report.counters_unavailable = e.what();
      progress(json, std::string("note: ") + e.what());
    }
  }

  if (json)
    fmt::print("{}\n", to_json(report));
  else
    print_table(report);
}

}  // namespace

void set_profile_target_factory(ProfileTargetFactory f) { factory() = std::move(f); }

void add_profile_command(CLI::App& app) {
  auto args = std::make_shared<ProfileArgs>();
  CLI::App* cmd = app.add_subcommand("profile", "Measure one variant at one size: time, counters, occupancy");
  cmd->add_option("variant", args->request.variant, "Variant name (see `bigtune variants`)")->required();
  cmd->add_option("--bits", args->request.bits, "Operand bit-size")->required()->check(CLI::PositiveNumber);
  cmd->add_option("--count", args->request.count, "Instances in the batch")->required()->check(CLI::PositiveNumber);
  cmd->add_option("--ipb", args->request.ipb, "Instances per block (default: the variant's)");
  cmd->add_option("--rotations", args->request.rotations, "Input sets to cycle through (default: beyond the L2)");
  cmd->add_option("--repetitions", args->repetitions, "Timed runs")->check(CLI::Range(1, 100000));
  cmd->add_option("--warmup", args->warmup, "Untimed runs first")->check(CLI::Range(0, 100000));
  cmd->add_option("--timer", args->backend, "Timing source: auto, cupti or events")
      ->check(CLI::IsMember({"auto", "cupti", "events"}));
  cmd->add_option("--metrics", args->metrics, "Comma-separated CUPTI metric names (default: the tuner's set)");
  cmd->add_flag("--no-counters", args->no_counters, "Durations only");
  cmd->add_flag("--flush-l2", args->flush_l2, "Overwrite the L2 before each timed run");
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->callback([args] { run_profile(*args); });
}

}  // namespace bigtune::cli
