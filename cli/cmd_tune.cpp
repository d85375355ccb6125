// `bigtune tune`: tune this GPU (issue 6; seed 004 §4.2-4.4). Probe the
// device, sample every variant of each op on small sizes (<= 2^14 bits by
// default), fit the per-instance counters as rational functions and
// calibrate the wave model, precompute decisions for the sizes users meet,
// and store samples, models and decisions in the tuning database; then print
// the chosen plan per op and size.
//
// Resumable: the samples of an op are stored once it is measured, keyed by
// the device and the build; a rerun (after an interruption, or past the time
// budget) reuses them and measures only what is missing. Bounded: ops that
// the full design would not fit in the budget are sampled with the lite one
// (six sizes); past 80 % of the budget no new op is sampled (rerun to
// finish); measured points stop near the budget. Each step logs where its
// time went (batches, timing, counters, fitting, measured points).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <tuple>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"
#include "cli/tune_bench.hpp"
#include "cli/tune_common.hpp"
#include "cli/tune_measure.hpp"
#include "db/paths.hpp"
#include "db/store.hpp"
#include "profiler/kernel_facts.hpp"
#include "tuner/occupancy.hpp"
#include "tuner/select.hpp"

namespace bigtune::cli {
namespace {

struct TuneArgs {
  std::string ops;
  double budget_s = 180;
  uint64_t max_bits = 16384;
  int repetitions = 3;        // timed runs per sample ...
  int extra_repetitions = 4;  // ... and this many more where they spread by more than `spread`
  double spread = 0.03;
  int warmup = 1;
  // Per variant. Each counter launch costs ~30 ms on the H100 (kernel
  // replay), the largest share of sampling (session 3, merged tree: 36 of
  // mul's 38 s with 12). With 6, one 180-s run samples all 16 default ops
  // (147.7 s; with 12 it stopped after 10 and part of mulmod); the fits have
  // fewer points per coefficient, and `bigtune validate` measured mul at
  // geomean 1.138 against 1.097 with 12 (add and divmod unchanged):
  // bench/results/2026-11-22-h100-session3.md. More: --counter-samples 12.
  int counter_samples = 6;
  // The same for the modular ops (heavy_op), whose counter launches are
  // long: with 6, powm's counters alone took 20 s (session 5, H100, all 17
  // ops) and gcd, modinv and sqrt missed the sampling deadline.
  int counter_samples_heavy = 4;
  // Share of the budget for sampling; the rest is fitting, decisions and the
  // measured points (anchors, bisection).
  double sampling_share = 0.62;
  // Hard end of sampling (and no new op past it): what follows, the fits,
  // decisions and measured points of every op, took 14 s of the 178-s budget
  // on the H100 (session 4, run B), so sampling may run to 85 % of it (at 75 %
  // it left gcd, modinv and sqrt unsampled).
  double sampling_deadline = 0.85;
  int bisection_points = 8;  // per op
  // A sample of a heavy (modular) op slower than this is timed once, and no
  // sample this slow gets counters (one replayed launch per pass): Montgomery
  // variants with 128- and 256-limb register arrays ran 0.3-7.7 s per launch
  // even at 256 bits in tuner2's second H100 run (mulmod: 53 s for 47
  // samples, 44 s of it in the 256-limb variant's 4 samples).
  double slow_ms = 20;
  int fit_threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  bool fresh = false;
  bool no_counters = false;
  uint64_t decide_max_bits = uint64_t(1) << 20;
};

// Kernels per call above which a sample gets no counters: each kernel is a
// range the profiler replays. The NTT and Karatsuba plans launch 2-4; the
// composed ones launch dozens (the composed Newton division ~60 passes,
// Barrett 7 per mulmod plus its division, powm thousands), and their
// counters took 9 s of divmod's 15 s and half of mulmod's and sqrmod's
// sampling on the H100 (session 5), which left gcd, modinv and sqrt past the
// sampling deadline. They are chosen by measurement (anchors, bisection, the
// default plan) instead of by the model.
constexpr int kMaxCountedKernels = 16;

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void say(const std::string& s) { std::fprintf(stderr, "%s\n", s.c_str()); }

Op public_op(kernels::Op op) { return static_cast<Op>(static_cast<int>(op)); }

// Measures the sampling plan of every variant of `op`: times first, then
// counters (separate runs), one counter collect for the op.
//
// Where the time goes (first H100 runs: 40 ms per sample, 150 s for 8 ops):
// one batch allocation and fill per (bits, count), one timer call per
// sample, one replayed launch per counter sample. So every variant of a size
// shares one batch (counts a multiple of 1024, select.hpp), samples are
// timed with 3 runs and 4 more only where those disagree by more than 3 %,
// and counters are read on a small batch of the same size (counter_batch_count:
// counters are sums over instances, and a small batch is less memory for
// the range profiler to save and restore at each replay pass) with only the
// four metrics the fits use.
std::vector<db::SampleRecord> sample_op(OpBench& bench, kernels::Op op, const TuneArgs& a,
                                        const std::string& uuid, const std::string& build, int sm_count,
                                        bool lite, const std::function<bool()>& past_deadline) {
  tuner::SamplingOptions so;
  so.max_bits = a.max_bits;
  so.sm_count = sm_count;
  so.lite = lite;
  using Key = std::pair<uint64_t, uint64_t>;
  std::map<Key, std::vector<std::pair<const kernels::Variant*, uint32_t>>> groups;
  std::map<std::string, int> planned;
  for (const kernels::Variant& v : kernels::registry()) {
    if (v.op != op) continue;
    for (const tuner::SamplePoint& p : tuner::sampling_plan(v, bench.limits(), so)) {
      groups[{p.bits, p.count}].push_back({&v, p.ipb});
      ++planned[v.name];
    }
  }
  std::vector<db::SampleRecord> out;
  std::map<std::string, int> seen;
  size_t done = 0, total = 0;
  for (const auto& g : groups) total += g.second.size();
  size_t skipped = 0;
  for (const auto& [key, list] : groups) {
    if (past_deadline()) {  // the budget: no more sizes of this op
      skipped += list.size();
      continue;
    }
    bench.prepare(public_op(op), key.first, key.second);
    for (const auto& [v, ipb] : list) {
      // Also between the variants of one size: one size of a slow op (powm,
      // 44 variants) took minutes, past the whole budget. Once past, every
      // later sample is left out too, so `out` stays a prefix of the plan.
      if (past_deadline()) {
        ++skipped;
        continue;
      }
      db::SampleRecord r;
      r.device_uuid = uuid;
      r.variant_name = v->name;
      r.build_id = build;
      r.bits = key.first;
      r.count = key.second;
      r.ipb = ipb;
      r.reps = a.repetitions;
      try {
        const double t = bench.time_us_adaptive(Plan{v->name, ipb, "tuner", 0}, a.warmup, a.repetitions,
                                                a.extra_repetitions, a.spread,
                                                tuner::heavy_op(op) ? a.slow_ms * 1e3 : 0.0);
        r.time_us_median = t;
      } catch (const Error& e) {
        r.status = e.code() == ErrorCode::Unsupported || e.code() == ErrorCode::InvalidArgument
                       ? db::SampleStatus::Invalid
                       : db::SampleStatus::Fault;
        r.reason = e.what();
        if (r.status == db::SampleStatus::Fault) throw;  // the context is gone
      }
      out.push_back(r);
      ++done;
    }
  }
  std::fprintf(stderr, "  %s: timed %zu samples in %zu batches%s\n", kernels::op_name(op), done, groups.size(),
               skipped ? (", " + std::to_string(skipped) + " left out by the time budget").c_str() : "");
  if (a.no_counters) return out;
  // Counters on up to counter_samples points per variant, spread over its
  // plan, each on the small batch of its size (scaled back to the sample's
  // count: every counter read is a sum over the launch). Collected per size:
  // a launch whose kernel count was not as expected then costs the counters
  // of its size only, not of every launch sharing its counter-data image.
  size_t index = 0, with = 0, queued = 0, slow = 0;
  for (const auto& [key, list] : groups) {
    if (index >= out.size()) break;  // sizes left out by the budget come last
    if (past_deadline()) break;
    bool prepared = false;
    const uint64_t ccount = tuner::counter_batch_count(key.first, key.second);
    std::vector<size_t> counted;  // indices into out, in queue order
    for (const auto& [v, ipb] : list) {
      if (index >= out.size()) break;  // a size cut by the budget
      db::SampleRecord& r = out[index++];
      // Evenly spaced over the variant's plan (sizes ascending, IPB within a
      // size): positions floor(i * n / m), which a fixed stride would alias
      // with the IPB values (counting always the same IPB of each size).
      const int k = seen[v->name]++;
      const int n = planned[v->name],
                m = std::min(n, tuner::heavy_op(op) ? a.counter_samples_heavy : a.counter_samples);
      bool pick = false;
      for (int i = 0; i < m && !pick; ++i) pick = i * n / m == k;
      if (r.status != db::SampleStatus::Ok || !pick) continue;
      // What one counted launch costs: powm's sample time is extrapolated to
      // full-size exponents, its launches run the two short ones.
      double launch_us = r.time_us_median ? *r.time_us_median : 0;
      if (tuner::short_exponents(op, key.first))
        launch_us *= double(tuner::kShortExponentBits[0] + tuner::kShortExponentBits[1]) / double(key.first);
      // A composed plan that launches many kernels per call (Barrett powm:
      // thousands) would have each one replayed for the counters.
      if (launch_us >= a.slow_ms * 1e3 || bench.kernels_per_launch(Plan{v->name, ipb, "tuner", 0}) > kMaxCountedKernels) {
        ++slow;  // replaying it would cost seconds; its time alone is kept
        continue;
      }
      if (!prepared) bench.prepare(public_op(op), key.first, ccount, 1), prepared = true;
      try {
        bench.queue_counters(Plan{v->name, ipb, "tuner", 0});
      } catch (const Error& e) {
        if (e.code() != ErrorCode::Unsupported && e.code() != ErrorCode::InvalidArgument) throw;
        continue;  // refused at the small batch: no counters for this sample
      }
      counted.push_back(index - 1);
    }
    if (counted.empty()) continue;
    queued += counted.size();
    const auto values = bench.collect_counters();
    const double scale = double(key.second) / double(ccount);
    for (size_t i = 0; i < counted.size() && i < values.size(); ++i) {
      std::map<std::string, double> c = values[i];
      if (c.empty()) continue;
      for (auto& [name, value] : c) value *= scale;
      out[counted[i]].counters = std::move(c);
      ++with;
    }
  }
  if (!bench.counters_unavailable().empty()) say("  note: " + bench.counters_unavailable());
  std::fprintf(stderr, "  %s: counters of %zu of %zu samples queued (%zu slow or many-kernel samples without)\n", kernels::op_name(op),
               with, queued, slow);
  return out;
}

// The four counters tuner::fit_variant reads (time_model.cpp).
std::vector<std::string> tuner_counter_metrics() {
  return {"smsp__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"};
}

void run_tune(const TuneArgs& a) {
  const auto t0 = Clock::now();
  const int device = global_options().device;
  say("[1/5] probing the device");
  profiler::ProbeOptions po;
  po.device = device;
  po.repetitions = 5;
  const profiler::DeviceProbe probe = profiler::probe_device(po);
  const db::DeviceRecord dev = device_record(probe);
  tuner::DeviceModel dm = device_model_from_probe(probe);
  const std::string path = db::resolve_db_path(global_options().db_path);
  db::Store store(path);
  store.put_device(dev);
  say(fmt::format("  {} ({} SMs, {:.0f} GB/s copy, {:.2f} GHz); database {}", probe.name, probe.sm_count,
                  dm.dram_gbs, dm.clock_ghz, path));
  const std::string build = tuner_build_id();
  OpBench bench(device);
  bench.set_short_exponents(true);  // powm: extrapolated from short exponents (tuner/select.hpp)
  const kernels::DeviceLimits limits = bench.limits();
  const std::vector<kernels::Op> ops = parse_op_list(a.ops);

  // Samples already stored for this device and build (resume).
  std::map<std::string, std::vector<db::SampleRecord>> stored;
  if (!a.fresh)
    for (db::SampleRecord& s : store.samples())
      if (s.device_uuid == dev.uuid && s.build_id == build) stored[s.variant_name].push_back(std::move(s));

  say(fmt::format("[2/5] sampling {} op(s) on sizes <= {} bits (budget {:.0f} s)", ops.size(), a.max_bits, a.budget_s));
  bench.set_counter_metrics(tuner_counter_metrics());
  std::vector<kernels::Op> sampled;
  // Budget: every op should be sampled. Once the ops sampled so far, at
  // their average cost, would not leave room for the rest within the
  // sampling share, the rest is sampled with the lite design (six sizes).
  double full_s = 0;
  int full_ops = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const kernels::Op op = ops[i];
    bool have = true;
    for (const kernels::Variant& v : kernels::registry())
      if (v.op == op && stored[v.name].empty()) have = false;
    if (have) {
      say(fmt::format("  {}: samples found in the database (resumed)", kernels::op_name(op)));
      sampled.push_back(op);
      continue;
    }
    if (since(t0) > a.budget_s * a.sampling_deadline) {
      say(fmt::format("  {}: skipped, time budget spent (rerun `bigtune tune` to continue)", kernels::op_name(op)));
      continue;
    }
    const double left = a.budget_s * a.sampling_share - since(t0);
    const bool lite = full_ops > 0 && (full_s / full_ops) * double(ops.size() - i) > left;
    for (const kernels::Variant& v : kernels::registry())
      if (v.op == op)
        store.put_variant(db::VariantRecord{v.name, build, kernels::op_name(op), v.family, v.algorithm,
                                            int(v.limb_bits), int(v.q)});
    const auto t = Clock::now();
    bench.reset_stats();
    std::vector<db::SampleRecord> rows =
        sample_op(bench, op, a, dev.uuid, build, probe.sm_count, lite,
                  [&] { return since(t0) > a.budget_s * a.sampling_deadline; });
    const OpBench::Stats st = bench.stats();
    store.add_samples(rows);
    for (db::SampleRecord& r : rows) stored[r.variant_name].push_back(std::move(r));
    const double took = since(t);
    if (!lite) full_s += took, ++full_ops;
    say(fmt::format("  {}: {} samples{} in {:.1f} s (batches {:.1f} s for {}, timing {:.1f} s for {} + {} repeated, "
                    "counters {:.1f} s for {})",
                    kernels::op_name(op), rows.size(), lite ? " (lite design: budget)" : "", took, st.prepare_s,
                    st.prepares, st.timing_s, st.timings - st.extra_timings, st.extra_timings, st.counters_s,
                    st.counter_launches));
    sampled.push_back(op);
  }
  say(fmt::format("  sampling done at {:.1f} s", since(t0)));

  say(fmt::format("[3/5] fitting rational functions and calibrating the wave model ({} threads)", a.fit_threads));
  // The device queries (kernel facts, the occupancy API) run here, in
  // order; the fits themselves (LAPACK dgelsd, thread-safe since LAPACK 3.3,
  // and the wave model's grid calibration, ~0.1 s per variant) run on
  // `fit_threads` threads, each variant on its own model; notes and
  // database rows follow in registry order.
  struct Job {
    const kernels::Variant* v = nullptr;
    tuner::VariantModel m;
    std::vector<tuner::Observation> obs;
    tuner::FitReport rep;
  };
  std::vector<Job> jobs;
  int occ_checked = 0, occ_mismatch = 0;
  for (kernels::Op op : sampled)
    for (const kernels::Variant& v : kernels::registry()) {
      if (v.op != op) continue;
      Job j;
      j.v = &v;
      tuner::VariantModel& m = j.m;
      m.variant = v.name;
      const profiler::KernelFacts f = profiler::kernel_facts(v.kernel);
      m.regs = f.registers_per_thread;
      m.static_smem = int(f.static_shared_bytes);
      cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(limits.smem_per_block_optin - f.static_shared_bytes));
      for (const db::SampleRecord& s : stored[v.name]) {
        if (s.status != db::SampleStatus::Ok || !s.time_us_median) continue;
        tuner::Observation o;
        o.shape = tuner::launch_shape(v, s.bits, s.count, s.ipb, limits);
        o.time_us = *s.time_us_median;
        o.counters = s.counters;
        j.obs.push_back(o);
        // The exact occupancy node against the CUDA occupancy API.
        const profiler::Occupancy api = profiler::occupancy(v.kernel, int(o.shape.block_threads), o.shape.smem_bytes, device);
        const tuner::OccupancyResult mine =
            tuner::occupancy(dm.sm, int(o.shape.block_threads), m.regs, int64_t(o.shape.smem_bytes) + m.static_smem);
        ++occ_checked;
        if (api.active_blocks_per_sm != mine.blocks_per_sm) {
          if (++occ_mismatch <= 5)
            say(fmt::format("  occupancy mismatch {} block {} smem {}: API {} blocks, model {}", v.name,
                            o.shape.block_threads, o.shape.smem_bytes, api.active_blocks_per_sm, mine.blocks_per_sm));
        }
      }
      jobs.push_back(std::move(j));
    }
  {
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i = next++; i < jobs.size(); i = next++) {
        Job& j = jobs[i];
        if (j.obs.size() < 4) continue;
        try {
          j.rep = tuner::fit_variant(dm, j.obs, j.m, tuner::extrapolation_shapes(*j.v, limits));
        } catch (const std::exception& e) {
          j.rep.notes.push_back(std::string("fit failed: ") + e.what());
          j.m.metrics.clear();
        }
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < a.fit_threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
  }
  std::map<std::string, tuner::VariantModel> models;
  for (Job& j : jobs) {
    const kernels::Variant& v = *j.v;
    tuner::VariantModel& m = j.m;
    if (j.obs.size() < 4) {
      say(fmt::format("  {}: {} usable samples, no model", v.name, j.obs.size()));
      continue;
    }
    for (const std::string& n : j.rep.notes) say("  " + v.name + ": " + n);
    if (!tuner::has_instruction_model(m)) continue;
    for (const db::ModelRecord& r : tuner::to_records(m, dev.uuid, build)) store.put_model(r);
    const bool per_warp = m.metrics.count(tuner::kMetricInstWarp);
    const auto& inst = m.metrics.at(per_warp ? tuner::kMetricInstWarp : tuner::kMetricInst);
    say(fmt::format("  {:<28} inst/{} {} (cv {:.2g})  time rms {:.1f} % max {:.1f} %  a={:.2f} b={:.2f} L={:.1f} t0={:.1f}us",
                    v.name, per_warp ? "warp" : "inst", inst.f.degrees.to_string(), inst.cv_error, 100 * m.time_error, 100 * m.time_max_error,
                    m.alpha, m.beta, m.latency, m.t0_us));
    models[v.name] = m;
  }
  say(fmt::format("  occupancy node vs cudaOccupancyMaxActiveBlocksPerMultiprocessor: {} of {} shapes differ",
                  occ_mismatch, occ_checked));

  say(fmt::format("  fitted at {:.1f} s", since(t0)));

  say("[4/5] precomputing decisions; timing the model's top 3 and the default plan at anchor sizes, "
      "bisecting where the winner changes");
  tuner::DecisionGrid grid;
  grid.max_bits = a.decide_max_bits;
  // The exact occupancy node (the same as the model's), for which measured
  // plans may stand for a whole bucket (correct_decisions).
  std::map<const void*, profiler::KernelFacts> facts;
  const WarpsPerSm warps_per_sm = [&](const kernels::Variant& v, uint64_t bits, uint64_t count, uint32_t ipb) {
    auto it = facts.find(v.kernel);
    if (it == facts.end()) it = facts.emplace(v.kernel, profiler::kernel_facts(v.kernel)).first;
    const tuner::LaunchShape s = tuner::launch_shape(v, bits, count, ipb, limits);
    return tuner::occupancy(dm.sm, int(s.block_threads), it->second.registers_per_thread,
                            int64_t(s.smem_bytes) + int64_t(it->second.static_shared_bytes))
        .warps_per_sm;
  };
  size_t stored_decisions = 0, corrected = 0;
  std::map<kernels::Op, std::vector<tuner::MeasuredPoint>> points;
  tuner::CrossoverOptions co;
  co.max_points = a.bisection_points;
  for (size_t i = 0; i < sampled.size(); ++i) {
    const kernels::Op op = sampled[i];
    const auto t = Clock::now();
    auto ds = tuner::precompute_decisions(op, grid, dm, models, limits, dev.uuid);
    const double decide_s = since(t);
    // Measured points while the budget lasts, keeping about a second for
    // each op still to come (its anchors).
    const double ops_after = double(sampled.size() - i - 1);
    auto keep_going = [&] { return since(t0) < a.budget_s * 0.97 - ops_after; };
    bench.reset_stats();
    points[op] = measure_op(bench, op, a.decide_max_bits, probe.sm_count, dm, models, limits, co, keep_going);
    const OpBench::Stats st = bench.stats();
    const size_t c = correct_decisions(ds, points[op], limits, 0.02, warps_per_sm);
    corrected += c;
    store.put_decisions(ds);
    stored_decisions += ds.size();
    int bisected = 0;
    for (const tuner::MeasuredPoint& p : points[op]) bisected += p.bisected;
    say(fmt::format("  {}: {} decisions ({:.1f} s), {} measured points ({} by bisection; batches {:.1f} s, "
                    "timing {:.1f} s), {} decisions corrected",
                    kernels::op_name(op), ds.size(), decide_s, points[op].size(), bisected, st.prepare_s,
                    st.timing_s, c));
  }
  say(fmt::format("  {} decisions stored, {} of them corrected by measurement", stored_decisions, corrected));

  say("[5/5] chosen plans (measured; batches as `bigtune validate` uses; * = bisection point)");
  fmt::print("{:<8} {:>9} {:>8}  {:<32} {:>5} {:>11}  {:<32} {:>11}\n", "op", "bits", "count", "chosen", "ipb",
             "measured_us", "model's first choice", "its_us");
  for (kernels::Op op : sampled)
    for (const tuner::MeasuredPoint& r : points[op]) {
      const tuner::TimedPlan* w = r.winner();
      fmt::print("{:<8} {:>8}{} {:>8}  {:<32} {:>5} {:>11.2f}  {:<32} {:>11.2f}\n", kernels::op_name(op), r.bits,
                 r.bisected ? "*" : " ", r.count, w->variant, w->ipb, w->us,
                 r.model_first.variant.empty() ? "-" : r.model_first.variant + "/" + std::to_string(r.model_first.ipb),
                 r.model_first.us);
    }
  say(fmt::format("tuned in {:.1f} s", since(t0)));
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto a = std::make_shared<TuneArgs>();
  CLI::App* cmd = app.add_subcommand("tune", "Tune this GPU: probe, sample, fit, select and store decisions");
  cmd->add_option("--ops", a->ops, "Comma-separated ops (default: all with variants)");
  cmd->add_option("--budget", a->budget_s, "Time budget in seconds (no new op is sampled past it)")->capture_default_str();
  cmd->add_option("--max-bits", a->max_bits, "Largest bit-size sampled")->capture_default_str();
  cmd->add_option("--repetitions", a->repetitions, "Timed runs per sample (more only where they spread)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--extra-repetitions", a->extra_repetitions,
                  "Runs added to a sample whose runs spread by more than --spread")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  cmd->add_option("--spread", a->spread, "Relative spread (max-min)/median that asks for more runs")
      ->capture_default_str();
  cmd->add_option("--bisection-points", a->bisection_points,
                  "Sizes measured per op between anchors whose winners differ")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  cmd->add_option("--counter-samples", a->counter_samples, "Samples per variant with counters")->check(CLI::Range(4, 1000));
  cmd->add_option("--counter-samples-heavy", a->counter_samples_heavy,
                  "Samples per variant with counters, modular ops (mulmod ... sqrt)")
      ->check(CLI::Range(4, 1000))
      ->capture_default_str();
  cmd->add_option("--decide-max-bits", a->decide_max_bits, "Largest bit-size of the stored decisions");
  cmd->add_option("--slow-ms", a->slow_ms, "Samples slower than this are timed once and get no counters")
      ->capture_default_str();
  cmd->add_option("--fit-threads", a->fit_threads, "Threads fitting variants' models")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_flag("--fresh", a->fresh, "Ignore samples stored by an earlier run");
  cmd->add_flag("--no-counters", a->no_counters, "Durations only (no model can be fitted without counters)");
  cmd->callback([a] { run_tune(*a); });
}

}  // namespace bigtune::cli
