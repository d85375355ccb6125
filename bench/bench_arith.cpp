// bigtune-bench: times add, sub, mul_low and mul — every registry variant at a
// few instances-per-block choices, and the default plan — over 2^10 .. 2^20
// bits with bits x count = 2^32 (DESIGN.md, "How to measure"), and compares
// with the device copy bandwidth and GMP on all host cores in the same run.
//
// Units: add/sub in GB/s counting 3*bits/8 bytes per instance; mul in
// instances/s and seed 000's Gu32ops/s (300 * count * m * log2 m, m = bits/32).
// Timing: CUDA events around each launch, 2 warm-ups, median of up to 20 runs
// (fewer when one run is long), inputs random and fresh per size.
#include <cuda_runtime_api.h>
#include <fmt/core.h>
#include <gmp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/device_fill.cuh"
#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"
#include "bench/event_timing.hpp"

namespace bigtune::bench {
namespace {

struct Row {
  std::string op, variant;
  uint64_t bits, count;
  uint32_t ipb;
  bool is_default;
  double median_ms, min_ms;
  double gbs, inst_per_s, gu32ops;
};

// --hide-host: a 300-us spin queued before each start event, so that the
// events time the GPU alone (the copy and every op alike), not the host's
// submission of the launch (bench/notes/add-cluster.md).
bool g_hide_host = false;
void hide_host(cudaStream_t stream) { BIGTUNE_CUDA_CHECK(spin_ns(300000, stream)); }

// Median and min of kernel times in ms: 2 warm-ups, 5 to max_reps timed runs, at least 400 ms.
template <class F>
std::pair<double, double> time_ms(F&& launch, cudaStream_t stream, int max_reps) {
  TimingPolicy policy{2, 5, max_reps, 400.0f};
  if (g_hide_host) policy.before_start = hide_host;
  const EventTimes t = time_with_events(launch, stream, policy);
  return {t.median_ms, t.min_ms};
}

double copy_bandwidth_gbs(cudaStream_t stream) {
  const size_t bytes = size_t(1) << 30;
  void *src, *dst;
  BIGTUNE_CUDA_CHECK(cudaMalloc(&src, bytes));
  BIGTUNE_CUDA_CHECK(cudaMalloc(&dst, bytes));
  BIGTUNE_CUDA_CHECK(cudaMemsetAsync(src, 1, bytes, stream));
  const auto [med, mn] = time_ms([&] { cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream); }, stream, 20);
  (void)mn;
  cudaFree(src);
  cudaFree(dst);
  return 2.0 * bytes / (med * 1e-3) / 1e9;  // read + write
}

// GMP on all host cores: instances per second of mpn_add_n / mpn_sub_n /
// mpn_mullo-by-mpn_mul / mpn_mul on n-limb operands.
double gmp_rate(const std::string& op, uint64_t bits) {
  const mp_size_t n = mp_size_t((bits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t per_thread = std::max<uint64_t>(4, (uint64_t(1) << 25) / (bits * (op.rfind("mul", 0) == 0 ? std::max<uint64_t>(1, n / 8) : 1)));
  std::vector<std::thread> pool;
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::vector<mp_limb_t> a(n), b(n), r(3 * n);
      for (mp_size_t i = 0; i < n; ++i) a[i] = mp_limb_t(0x9e3779b97f4a7c15ull * (i + t + 1)), b[i] = ~a[i] ^ i;
      for (uint64_t k = 0; k < per_thread; ++k) {
        if (op == "add") mpn_add_n(r.data(), a.data(), b.data(), n);
        else if (op == "sub") mpn_sub_n(r.data(), a.data(), b.data(), n);
        else if (op == "divmod") {  // n / (n/2) limbs, as op_layout: quotient in r, remainder in a's copy
          const mp_size_t dn = std::max<mp_size_t>(1, n / 2);
          b[dn - 1] |= mp_limb_t(1) << 63;
          mpn_tdiv_qr(r.data(), r.data() + n, 0, a.data(), n, b.data(), dn);
        } else mpn_mul_n(r.data(), a.data(), b.data(), n);  // GMP has no public mullo: full product
        a[0] ^= r[0];
      }
    });
  }
  for (auto& th : pool) th.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return double(per_thread) * threads / s;
}

std::vector<uint32_t> g_ipbs;  // --ipbs (empty: the three widest valid ones)

std::vector<uint32_t> ipb_choices(const kernels::Variant& v, uint64_t bits, uint64_t count,
                                  const kernels::DeviceLimits& limits, bool quick) {
  std::vector<uint32_t> out;
  if (std::string(v.family) == "grid") {  // one tile per block: the plan's ipb is ignored
    if (kernels::why_invalid(v, bits, count, 1, limits).empty()) out.push_back(1);
    return out;
  }
  for (uint32_t ipb = 1; ipb <= 1024; ipb *= 2)
    if (kernels::why_invalid(v, bits, count, ipb, limits).empty()) out.push_back(ipb);
  // --ipbs: exactly these (the valid ones), e.g. the narrow blocks below the
  // three widest that the warp products prefer (bench/results/2026-11-22-h100-mulsmall.md).
  if (!g_ipbs.empty()) {
    std::vector<uint32_t> chosen;
    for (uint32_t ipb : out)
      if (std::find(g_ipbs.begin(), g_ipbs.end(), ipb) != g_ipbs.end()) chosen.push_back(ipb);
    return chosen;
  }
  // Keep the widest blocks: they dominate at small sizes; one is enough when quick.
  const size_t keep = quick ? 1 : 3;
  if (out.size() > keep) out.erase(out.begin(), out.end() - keep);
  return out;
}


// seed 002 Table 3.4 (Honda's thesis, GTX 980): the time of 10,240 full
// products per size, 64 .. 65,536 bits, every power of two, here with the
// default plan (issue 4). The thesis' figures are printed beside ours: GMP
// 6.1.0 on one Xeon X7460 core ("CPU") and the thesis' own kernels ("GPU 2").
int run_table34(Context& ctx, cudaStream_t stream, int reps, const std::string& csv) {
  constexpr uint64_t kCount = 10240;
  constexpr double kThesisCpu[] = {0.201, 0.214, 0.627, 1.468, 4.858, 16.755, 54.624, 168.431, 497.046, 1279.736, 3330.669};
  constexpr double kThesisGpu2[] = {0.010, 0.012, 0.016, 0.031, 0.093, 0.345, 1.297, 5.024, 17.892, 57.137, 154.015};
  std::ofstream out;
  if (!csv.empty()) out.open(csv), out << "device,bits,count,variant,ipb,median_ms,min_ms,thesis_gpu2_ms,thesis_cpu_ms\n";
  fmt::print("seed 002 Table 3.4: {} full products per size, default plan\n", kCount);
  fmt::print("{:>6} | {:<32} {:>4} | {:>10} {:>10} | {:>12} {:>8} | {:>12} {:>8}\n", "bits", "default plan", "ipb",
             "median ms", "min ms", "thesis GPU2", "x GPU2", "thesis CPU", "x CPU");
  for (int lg = 6; lg <= 16; ++lg) {
    const uint64_t bits = uint64_t(1) << lg;
    const runtime::OpLayout layout = runtime::op_layout(Op::Mul, bits);
    Batch a(ctx, bits, kCount), b(ctx, bits, kCount), r(ctx, layout.r_bits ? layout.r_bits : 2 * bits, kCount);
    BIGTUNE_CUDA_CHECK(fill_random(static_cast<uint64_t*>(a.device_data()), a.words_per_instance(), kCount, bits, 3, stream));
    BIGTUNE_CUDA_CHECK(fill_random(static_cast<uint64_t*>(b.device_data()), b.words_per_instance(), kCount, bits, 4, stream));
    const Plan plan = ctx.plan(Op::Mul, bits, kCount);
    runtime::OpBatches x;
    x.r = &r;
    x.a = &a;
    x.b = &b;
    const auto [med, mn] = time_ms([&] { runtime::run_op(ctx, Op::Mul, x, &plan); }, stream, reps);
    const double gpu2 = kThesisGpu2[lg - 6], cpu = kThesisCpu[lg - 6];
    fmt::print("{:>6} | {:<32} {:>4} | {:>10.4f} {:>10.4f} | {:>12.3f} {:>8.1f} | {:>12.3f} {:>8.1f}\n", bits, plan.variant,
               plan.ipb, med, mn, gpu2, gpu2 / med, cpu, cpu / med);
    if (out) out << fmt::format("{},{},{},{},{},{:.6f},{:.6f},{},{}\n", ctx.device().name, bits, kCount, plan.variant,
                                plan.ipb, med, mn, gpu2, cpu);
  }
  fmt::print("(x GPU2, x CPU: the thesis' time over ours; its GPU was a GTX 980, its CPU one Xeon X7460 core)\n");
  return 0;
}
}  // namespace
}  // namespace bigtune::bench

int main(int argc, char** argv) {
  using namespace bigtune;
  using namespace bigtune::bench;
  CLI::App app{"bigtune-bench: add, sub and multiplication throughput at bits x count = 2^32"};
  std::vector<std::string> ops{"add", "sub", "mul_low", "mul"};
  int min_log = 10, max_log = 20, total_log = 32, reps = 20;
  bool quick = false, defaults_only = false;
  std::string csv, family, name_contains;
  uint64_t fixed_count = 0;
  bool no_flags = false;
  app.add_option("--ops", ops, "ops to time")->capture_default_str();
  app.add_option("--min-log2-bits", min_log)->capture_default_str();
  app.add_option("--max-log2-bits", max_log)->capture_default_str();
  app.add_option("--log2-total-bits", total_log, "bits x count")->capture_default_str();
  app.add_option("--reps", reps, "timed runs at most")->capture_default_str();
  app.add_flag("--quick", quick, "one instances-per-block choice per variant");
  app.add_flag("--defaults-only", defaults_only, "time only the default plans");
  app.add_option("--csv", csv, "write every row to this CSV file");
  app.add_option("--family", family, "time only variants of this family (thread, warp, block)");
  app.add_option("--name-contains", name_contains, "time only variants whose name contains this text (and the default plan)");
  app.add_flag("--no-flags", no_flags, "add/sub without the carry/borrow array (4 bytes per instance less traffic)");
  bool table34 = false;
  app.add_flag("--table34", table34, "only seed 002 Table 3.4: 10240 full products, 64 .. 65536 bits, default plan");
  app.add_option("--count", fixed_count, "instances per batch (default: bits x count = 2^log2-total-bits)");
  std::vector<uint64_t> explicit_bits;
  app.add_option("--bits", explicit_bits, "operand bit-sizes to time instead of the powers of two (count = 2^log2-total-bits / bits)");
  app.add_option("--ipbs", g_ipbs, "time variants at these instances-per-block values only (powers of two; default: the three widest valid)");
  app.add_flag("--hide-host", g_hide_host, "queue a 300-us spin before each timed run: time the GPU, not the host's launch overhead");
  CLI11_PARSE(app, argc, argv);
  try {
    Context ctx;
    auto& impl = ctx.impl();
    cudaStream_t stream = impl.stream;
    if (table34) return run_table34(ctx, stream, reps, csv);
    const double copy_gbs = copy_bandwidth_gbs(stream);
    fmt::print("device: {} ({} SMs); device copy bandwidth (read+write): {:.0f} GB/s\n", ctx.device().name,
               ctx.device().sm_count, copy_gbs);
    if (g_hide_host) fmt::print("timing: --hide-host (a 300-us spin before each start event; copy and ops alike)\n");
    std::vector<Row> rows;
    std::map<std::pair<std::string, uint64_t>, double> gmp;
    std::vector<uint64_t> sizes = explicit_bits;  // --bits, else the powers of two
    if (sizes.empty())
      for (int lg = min_log; lg <= max_log; ++lg) sizes.push_back(uint64_t(1) << lg);
    for (const std::string& op_text : ops) {
      const auto kop = kernels::parse_op(op_text);
      if (!kop) throw Error(ErrorCode::InvalidArgument, "unknown op " + op_text);
      const Op op = static_cast<Op>(static_cast<int>(*kop));
      for (const uint64_t bits : sizes) {
        uint64_t count = fixed_count ? fixed_count : std::max<uint64_t>(1, (uint64_t(1) << total_log) / bits);
        const runtime::OpLayout layout = runtime::op_layout(op, bits);
        const uint64_t rbits = layout.r_bits ? layout.r_bits : bits;
        Batch a(ctx, bits, count), b(ctx, layout.b_bits ? layout.b_bits : bits, count), r(ctx, rbits, count);
        std::unique_ptr<Batch> r2;
        if (layout.r2_bits) r2 = std::make_unique<Batch>(ctx, layout.r2_bits, count);
        Flags flags(ctx, count);
        BIGTUNE_CUDA_CHECK(fill_random(static_cast<uint64_t*>(a.device_data()), a.words_per_instance(), count, bits, 1, stream));
        BIGTUNE_CUDA_CHECK(fill_random(static_cast<uint64_t*>(b.device_data()), b.words_per_instance(), count, b.bits(), 2, stream));
        Plan def;
        try {
          def = ctx.plan(op, bits, count);
        } catch (const Error& e) {
          if (e.code() != ErrorCode::Unsupported) throw;
          fmt::print(stderr, "  {} {} bits: unsupported here ({})\n", op_text, bits, e.what());
          continue;
        }
        std::vector<Plan> plans{def};
        if (!defaults_only)
          for (const kernels::Variant& v : kernels::registry())
            if (v.op == *kop && (family.empty() || family == v.family) &&
                (name_contains.empty() || v.name.find(name_contains) != std::string::npos))
              for (uint32_t ipb : ipb_choices(v, bits, count, impl.limits, quick))
                plans.push_back(Plan{v.name, ipb, "explicit", 0});
        double best = 0;
        std::string best_name;
        for (size_t pi = 0; pi < plans.size(); ++pi) {
          const Plan& p = plans[pi];
          if (pi > 0 && p.variant == def.variant && p.ipb == def.ipb) continue;
          runtime::OpBatches x;
          x.r = &r;
          x.r2 = r2.get();
          x.a = &a;
          x.b = &b;
          x.flags = (no_flags && (op == Op::Add || op == Op::Sub)) ? nullptr : &flags;
          auto launch = [&] { runtime::run_op(ctx, op, x, &p); };
          const auto [med, mn] = time_ms(launch, stream, reps);
          Row row{op_text, p.variant, bits, count, p.ipb, pi == 0, med, mn, 0, 0, 0};
          row.inst_per_s = count / (med * 1e-3);
          row.gbs = 3.0 * bits / 8 * count / (med * 1e-3) / 1e9;
          const double m = bits / 32.0;
          row.gu32ops = 300.0 * count * m * std::log2(m) / (med * 1e-3) / 1e9;
          rows.push_back(row);
          if (row.inst_per_s > best) best = row.inst_per_s, best_name = p.variant + "/ipb" + std::to_string(p.ipb);
        }
        const auto key = std::make_pair(op_text, bits);
        gmp[key] = gmp_rate(op_text, bits);
        fmt::print(stderr, "  {} {} bits: {} plans timed, best {} ({:.3g} inst/s)\n", op_text, bits,
                   plans.size(), best_name, best);
      }
    }
    if (!csv.empty()) {
      std::ofstream out(csv);
      out << fmt::format("device,copy_gbs,op,bits,count,variant,ipb,default,median_ms,min_ms,gbs,inst_per_s,gu32ops,gmp_inst_per_s\n");
      for (const Row& r : rows)
        out << fmt::format("{},{:.1f},{},{},{},{},{},{},{:.6f},{:.6f},{:.1f},{:.6g},{:.1f},{:.6g}\n", ctx.device().name, copy_gbs,
                  r.op, r.bits, r.count, r.variant, r.ipb, r.is_default ? 1 : 0, r.median_ms, r.min_ms, r.gbs,
                  r.inst_per_s, r.gu32ops, gmp[{r.op, r.bits}]);
    }
    // Summary: per op and size, the default plan and the best plan found.
    fmt::print("\n{:<8} {:>8} {:>9} | {:<24} {:>4} {:>10} | {:<24} {:>4} {:>10} | {:>8} {:>9} | {:>10} {:>7}\n", "op",
               "bits", "count", "default plan", "ipb", "inst/s", "best plan", "ipb", "inst/s", "GB/s", "% copy",
               "GMP inst/s", "x GMP");
    for (const std::string& op_text : ops) {
      for (const uint64_t bits : sizes) {
        const Row* def = nullptr;
        const Row* best = nullptr;
        for (const Row& r : rows) {
          if (r.op != op_text || r.bits != bits) continue;
          if (r.is_default) def = &r;
          if (!best || r.inst_per_s > best->inst_per_s) best = &r;
        }
        if (!def || !best) continue;
        const bool add_like = op_text == "add" || op_text == "sub";
        const double g = gmp[{op_text, bits}];
        fmt::print("{:<8} {:>8} {:>9} | {:<24} {:>4} {:>10.3g} | {:<24} {:>4} {:>10.3g} | {:>8.0f} {:>8.1f}% | {:>10.3g} {:>7.1f}\n",
                   op_text, bits, def->count, def->variant, def->ipb, def->inst_per_s, best->variant, best->ipb,
                   best->inst_per_s, add_like ? best->gbs : best->gu32ops, add_like ? 100.0 * best->gbs / copy_gbs : 0.0,
                   g, best->inst_per_s / g);
      }
    }
    fmt::print("(GB/s column: add/sub bandwidth; mul rows show Gu32ops/s there, seed 000's unit)\n");
  } catch (const Error& e) {
    fmt::print(stderr, "bigtune-bench: {}\n", e.what());
    return 1;
  }
  return 0;
}
