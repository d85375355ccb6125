// `bigtune validate`: the tuner's quality as one number (DESIGN.md): on
// held-out sizes (2^15-2^20 and sizes between powers of two, none of which
// the tuner sampled), measure every valid plan (exhaustive search), and
// report per (op, size) the chosen plan's time over the best one, the
// geometric mean and the worst; the same for "top 3" (the model's three best
// measured, seed 004 §4.4 step 5); and the speed-up over three baselines
// (tuner/baseline.hpp says why the first is the one to judge the tuner by):
//  - occ-all: what a CUDA programmer without a tuner gets (seed 004 §4.7):
//    among ALL valid plans of the op, those with the highest occupancy
//    (cudaOccupancyMaxActiveBlocksPerMultiprocessor), ties broken by the
//    largest block as cudaOccupancyMaxPotentialBlockSize does; plans still
//    tied count by the geometric mean of their times;
//  - occ-def: the built-in default's variant with the block size the
//    occupancy API picks (the default variant is itself this project's hand
//    measurements on the H100, so this baseline already knows the algorithm);
//  - default: the built-in default plans (runtime/default_plan.cpp).
// --out writes every measurement as TSV for `bigtune report`.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <memory>
#include <sstream>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"
#include "cli/tune_bench.hpp"
#include "cli/tune_common.hpp"
#include "db/paths.hpp"
#include "db/store.hpp"
#include "profiler/kernel_facts.hpp"
#include "runtime/default_plan.hpp"
#include "tuner/baseline.hpp"
#include "tuner/select.hpp"

namespace bigtune::cli {
namespace {

struct ValidateArgs {
  std::string ops = "add,mul";
  std::string sizes;  // empty: the held-out set
  int warmup = 1, repetitions = 5;
  int top = 3;
  std::string out;
  double batch_log2_linear = 30, batch_log2_superlinear = 27;
};

std::vector<uint64_t> default_sizes() {
  return {32768, 40000, 48000, 65536, 100000, 131072, 150000, 200000, 262144, 300000, 400000, 524288, 700000, 850000, 1048576};
}

std::vector<uint64_t> parse_sizes(const std::string& s) {
  std::vector<uint64_t> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(std::stoull(item));
  return out;
}

std::string plan_name(const std::string& v, uint32_t ipb) { return v + "/" + std::to_string(ipb); }

struct Summary {
  std::vector<double> chosen, top, occ_all, occ, def;
  void add(double c, double t, double oa, double o, double d) {
    chosen.push_back(c), top.push_back(t);
    if (oa > 0) occ_all.push_back(oa);
    if (o > 0) occ.push_back(o);
    if (d > 0) def.push_back(d);
  }
  static double geomean(const std::vector<double>& v) {
    if (v.empty()) return NAN;
    double s = 0;
    for (double x : v) s += std::log(x);
    return std::exp(s / v.size());
  }
  static double worst(const std::vector<double>& v) { return v.empty() ? NAN : *std::max_element(v.begin(), v.end()); }
};

void run_validate(const ValidateArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const int device = global_options().device;
  profiler::ProbeOptions po;
  po.device = device;
  po.benchmarks = false;
  const profiler::DeviceProbe probe = profiler::probe_device(po);
  tuner::DeviceModel dm = device_model_from_probe(probe);
  const db::DeviceRecord me = device_record(probe);
  const std::string path = db::resolve_db_path(global_options().db_path);
  db::Store store(path);
  for (const db::DeviceRecord& d : store.devices())
    if (d.uuid == me.uuid) apply_stored_rates(dm, d);
  auto models = tuner::from_records(store.models(), me.uuid);
  if (models.empty()) {
    // Another GPU of the same model (a profile, or a lent machine of the
    // same kind): its models apply; say so.
    for (const db::DeviceRecord& d : store.devices())
      if (d.name == probe.name && d.uuid != me.uuid) {
        auto other = tuner::from_records(store.models(), d.uuid);
        if (!other.empty()) {
          std::fprintf(stderr, "note: no models for this GPU (%s); using those of %s, the same model\n",
                       me.uuid.c_str(), d.uuid.c_str());
          models = std::move(other);
          apply_stored_rates(dm, d);
        }
      }
  }
  if (models.empty())
    throw Error(ErrorCode::InvalidArgument, "no tuner models for " + probe.name + " in " + path,
                "run `bigtune tune` first");
  OpBench bench(device);
  const kernels::DeviceLimits limits = bench.limits();
  // The occupancy API answers for the dynamic shared memory a launch asks
  // for only once the kernel may use it (as the launch path sets it).
  std::set<const kernels::Variant*> smem_set;
  auto prepare_smem = [&](const kernels::Variant* v) {
    if (!smem_set.insert(v).second) return;
    cudaFuncSetAttribute(v->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         int(limits.smem_per_block_optin - profiler::kernel_facts(v->kernel).static_shared_bytes));
  };
  std::ofstream tsv;
  if (!a.out.empty()) {
    tsv.open(a.out);
    if (!tsv) throw Error(ErrorCode::InvalidArgument, "cannot write " + a.out);
    tsv << "op\tbits\tcount\tvariant\tipb\tmeasured_us\tpredicted_us\trole\n";
  }
  const std::vector<uint64_t> sizes = a.sizes.empty() ? default_sizes() : parse_sizes(a.sizes);
  fmt::print("{:<6} {:>8} {:>7}  {:<30} {:<30} {:>10} {:>7} {:>7} {:>8} {:>8} {:>8}\n", "op", "bits", "count",
             "oracle", "chosen (stored)", "oracle_us", "chosen", "top3", "occ-all", "occ-def", "default");
  std::map<std::string, Summary> sums;
  for (kernels::Op op : parse_op_list(a.ops)) {
    const Op pop = static_cast<Op>(static_cast<int>(op));
    for (uint64_t bits : sizes) {
      const double lb = tuner::superlinear_op(op) ? a.batch_log2_superlinear : a.batch_log2_linear;
      uint64_t count = std::max<uint64_t>(1, uint64_t(std::ldexp(1.0, int(lb))) / bits);
      count = std::max<uint64_t>(count, 2 * uint64_t(probe.sm_count));
      // Every valid plan of the op (exhaustive search).
      std::vector<std::pair<const kernels::Variant*, uint32_t>> all;
      for (const kernels::Variant& v : kernels::registry())
        if (v.op == op)
          for (uint32_t ipb : tuner::ipb_candidates(v, bits, count, limits)) all.push_back({&v, ipb});
      if (all.empty()) continue;
      const auto ranked = tuner::rank_candidates(op, bits, count, dm, models, limits);
      if (ranked.empty()) continue;
      bench.prepare(pop, bits, count);
      std::map<std::string, double> measured, predicted;
      for (const auto& c : ranked) predicted[plan_name(c.variant->name, c.ipb)] = c.prediction.time_us;
      std::string oracle;
      double best = INFINITY;
      for (const auto& [v, ipb] : all) {
        double t = INFINITY;
        try {
          t = bench.time_us(Plan{v->name, ipb, "validate", 0}, a.warmup, a.repetitions);
        } catch (const Error& e) {
          if (e.code() != ErrorCode::Unsupported && e.code() != ErrorCode::InvalidArgument) throw;
        }
        const std::string k = plan_name(v->name, ipb);
        measured[k] = t;
        if (t < best) best = t, oracle = k;
        if (tsv) {
          const auto p = predicted.find(k);
          tsv << kernels::op_name(op) << '\t' << bits << '\t' << count << '\t' << v->name << '\t' << ipb << '\t' << t
              << '\t' << (p == predicted.end() ? NAN : p->second) << '\t' << "candidate\n";
        }
      }
      // What a call gets after `bigtune tune`: the stored decision (the model's
      // choice, corrected by measurement at anchor sizes), else the model's.
      std::string chosen = plan_name(ranked[0].variant->name, ranked[0].ipb);
      if (const auto d = store.find_decision(kernels::op_name(op), bits, count, me.uuid, probe.name))
        if (measured.count(plan_name(d->variant, d->ipb))) chosen = plan_name(d->variant, d->ipb);
      double top = INFINITY;
      for (int i = 0; i < a.top && i < int(ranked.size()); ++i)
        top = std::min(top, measured[plan_name(ranked[i].variant->name, ranked[i].ipb)]);
      // occ-all: the occupancy API's rule over every valid plan (tuner/baseline.hpp).
      std::vector<tuner::OccupancyCandidate> occ_candidates;
      for (const auto& [v, ipb] : all) {
        prepare_smem(v);
        const kernels::Geometry g = kernels::geometry(*v, bits, count, ipb, limits);
        const profiler::Occupancy o = profiler::occupancy(v->kernel, int(g.block), g.smem_bytes, device);
        occ_candidates.push_back({plan_name(v->name, ipb), o.active_warps_per_sm, g.block});
      }
      const std::vector<std::string> occ_all = tuner::occupancy_choice(occ_candidates);
      std::vector<double> occ_all_times;
      for (const std::string& k : occ_all) occ_all_times.push_back(measured[k]);
      const double occ_all_t = occ_all.empty() ? 0 : tuner::geomean_time(occ_all_times);
      // The built-in default plan and its occupancy-API block size.
      double occ_t = 0, def_t = 0;
      std::string occ_plan, def_plan;
      if (const auto d = runtime::default_plan(pop, bits, count, limits)) {
        def_plan = plan_name(d->variant, d->ipb);
        if (measured.count(def_plan)) def_t = measured[def_plan];
        const kernels::Variant* v = kernels::find_variant(d->variant);
        prepare_smem(v);
        int best_warps = -1;
        for (uint32_t ipb : tuner::ipb_candidates(*v, bits, count, limits)) {
          const kernels::Geometry g = kernels::geometry(*v, bits, count, ipb, limits);
          const profiler::Occupancy o = profiler::occupancy(v->kernel, int(g.block), g.smem_bytes, device);
          if (o.active_warps_per_sm >= best_warps) best_warps = o.active_warps_per_sm, occ_plan = plan_name(v->name, ipb);
        }
        if (measured.count(occ_plan)) occ_t = measured[occ_plan];
      }
      const double rc = measured[chosen] / best, rt = top / best;
      const bool occ_all_ok = occ_all_t > 0 && std::isfinite(occ_all_t);
      sums[kernels::op_name(op)].add(rc, rt, occ_all_ok ? occ_all_t / measured[chosen] : 0,
                                     occ_t > 0 && std::isfinite(occ_t) ? occ_t / measured[chosen] : 0,
                                     def_t > 0 && std::isfinite(def_t) ? def_t / measured[chosen] : 0);
      fmt::print("{:<6} {:>8} {:>7}  {:<30} {:<30} {:>10.2f} {:>7.3f} {:>7.3f} {:>8.3f} {:>8.3f} {:>8.3f}\n",
                 kernels::op_name(op), bits, count, oracle, chosen, best, rc, rt, occ_all_ok ? occ_all_t / best : 0.0,
                 occ_t / best, def_t / best);
      std::fflush(stdout);
      if (tsv) {
        auto role = [&](const std::string& k, const char* r) {
          if (k.empty() || !measured.count(k)) return;
          const auto slash = k.rfind('/');
          tsv << kernels::op_name(op) << '\t' << bits << '\t' << count << '\t' << k.substr(0, slash) << '\t'
              << k.substr(slash + 1) << '\t' << measured[k] << '\t'
              << (predicted.count(k) ? predicted[k] : NAN) << '\t' << r << '\n';
        };
        role(oracle, "oracle");
        role(chosen, "chosen");
        role(occ_plan, "occupancy_api");
        role(def_plan, "default");
        // occ-all: one row with the geometric mean of the tied plans' times,
        // named by the first of them and how many tie.
        if (occ_all_ok) {
          const auto slash = occ_all[0].rfind('/');
          tsv << kernels::op_name(op) << '\t' << bits << '\t' << count << '\t' << occ_all[0].substr(0, slash)
              << (occ_all.size() > 1 ? "+" + std::to_string(occ_all.size() - 1) + "tied" : std::string()) << '\t'
              << occ_all[0].substr(slash + 1) << '\t' << occ_all_t << '\t' << NAN << '\t' << "occupancy_all\n";
        }
      }
    }
  }
  fmt::print("\nsummary (time / exhaustive best; speed-up = other plan's time / chosen's)\n");
  fmt::print("{:<6} {:>5} {:>14} {:>12} {:>12} {:>10} {:>18} {:>18} {:>16}\n", "op", "sizes", "chosen geomean",
             "chosen worst", "top3 geomean", "top3 worst", "vs occ-all geomean", "vs occ-def geomean",
             "vs default geomean");
  for (const auto& [op, s] : sums)
    fmt::print("{:<6} {:>5} {:>14.3f} {:>12.3f} {:>12.3f} {:>10.3f} {:>18.3f} {:>18.3f} {:>16.3f}\n", op,
               s.chosen.size(), Summary::geomean(s.chosen), Summary::worst(s.chosen), Summary::geomean(s.top),
               Summary::worst(s.top), Summary::geomean(s.occ_all), Summary::geomean(s.occ), Summary::geomean(s.def));
  fmt::print("(occ-all: the occupancy API's choice among all valid plans, ties by geometric mean; occ-def: the\n"
             " built-in default's variant at the API's block size; default: runtime/default_plan.cpp)\n");
  std::fprintf(stderr, "validated in %.1f s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

void add_validate_command(CLI::App& app) {
  auto a = std::make_shared<ValidateArgs>();
  CLI::App* cmd = app.add_subcommand("validate", "Chosen plans vs exhaustive search on held-out sizes");
  cmd->footer(
      "Ratios are times over the exhaustive best (every valid plan measured). Baselines (speed-up = baseline's\n"
      "time / the chosen plan's):\n"
      "  occ-all  what a CUDA developer without a tuner gets (seed 004 §4.7): among ALL valid plans of the op\n"
      "           (every variant, every IPB), the highest occupancy per cudaOccupancyMaxActiveBlocksPerMultiprocessor,\n"
      "           ties broken by the largest block as cudaOccupancyMaxPotentialBlockSize does; plans still tied\n"
      "           count by the geometric mean of their measured times (no tie-break picked to flatter the tuner).\n"
      "  occ-def  the built-in default plan's variant with the occupancy API's block size (the default variant\n"
      "           is this project's own H100 measurements, so this baseline already knows the algorithm).\n"
      "  default  runtime/default_plan.cpp as it is.");
  cmd->add_option("--ops", a->ops, "Comma-separated ops")->capture_default_str();
  cmd->add_option("--sizes", a->sizes, "Comma-separated bit-sizes (default: 2^15..2^20 and sizes between)");
  cmd->add_option("--repetitions", a->repetitions, "Timed runs per plan")->check(CLI::Range(1, 1000));
  cmd->add_option("--top", a->top, "Plans of the model measured for the top-k figure")->check(CLI::Range(1, 100));
  cmd->add_option("--out", a->out, "Write every measurement as TSV (input of `bigtune report`)");
  cmd->add_option("--batch-log2", a->batch_log2_linear, "log2 of bits per batch for linear-cost ops")->capture_default_str();
  cmd->add_option("--batch-log2-mul", a->batch_log2_superlinear, "log2 of bits per batch for products")->capture_default_str();
  cmd->callback([a] { run_validate(*a); });
}

}  // namespace bigtune::cli
