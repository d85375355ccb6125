// bigtune-bench-mod: modular throughput (issue 9's targets, TARGETS.md).
//
// - powm x^e mod m with full-size exponents, one odd full-size modulus and one
//   exponent per instance (the hardest case; TARGETS.md's peer figures are
//   for odd m, e of full size), every powm variant that holds the size, and
//   GMP mpz_powm on all host cores in the same run; --powm-shared-modulus:
//   one odd modulus for the batch (a DH group, one RSA key), exponents still
//   per instance (GMP's rate is the same: mpz_powm prepares m every call);
// - mulmod with a shared odd modulus against the default plan's full product
//   (mul) at the same size, bits x count = 2^32 (the target: within 1.5x).
//   Its operands are residues, below m (a modular workload's values are;
//   session 27): with bits not a multiple of 64 the Barrett variants would
//   otherwise reduce the half of the operands that are >= m first, two more
//   reductions a call (bigtune.hpp) that no caller passing residues pays.
//   --unreduced-operands times them as before (random operands of full size).
//
// Timing: CUDA events, one warm-up, median of up to `reps` runs. A powm batch
// is sized so one launch takes about `--target-ms` (the per-thread kernels fill
// the GPU from ~64K instances on; fewer leave SMs idle, which is reported as
// measured), capped at bits x count = 2^32.
#include <cuda_runtime_api.h>
#include <fmt/core.h>
#include <gmp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/validate.hpp"
#include "bench/event_timing.hpp"

namespace {
using namespace bigtune;

// 1 warm-up, 2 to `reps` timed runs, at least 1.5 s: powm launches are long.
template <class F>
double median_ms(F&& launch, cudaStream_t stream, int reps) {
  return bench::time_with_events(launch, stream, {1, 2, reps, 1500.0f}).median_ms;
}

// count instances of `bits` random bits; odd_full: top and bottom bits set;
// residue: the top bit clear, so below any odd_full modulus of the size.
void fill(Batch& b, uint64_t seed, bool odd_full, bool residue = false) {
  std::mt19937_64 rng(seed);
  const uint64_t w = b.words_per_instance(), bits = b.bits();
  std::vector<uint64_t> h(w * b.count());
  for (uint64_t i = 0; i < b.count(); ++i) {
    uint64_t* x = h.data() + i * w;
    for (uint64_t j = 0; j < w; ++j) x[j] = rng();
    if (bits % 64) x[w - 1] &= (uint64_t(1) << (bits % 64)) - 1;
    if (odd_full) x[0] |= 1, x[(bits - 1) / 64] |= uint64_t(1) << ((bits - 1) % 64);
    if (residue) x[(bits - 1) / 64] &= ~(uint64_t(1) << ((bits - 1) % 64));
  }
  b.upload(h.data(), h.size());
}

// mpz_powm instances per second on all host cores (full-size odd m, x, e).
// ebits < bits: exponents of ebits bits and the rate scaled by ebits / bits,
// as the GPU rows are (--gmp-max-e-bits; one 64-Kbit mpz_powm takes ~40 s).
double gmp_powm_rate(uint64_t bits, uint64_t ebits) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<double> rate(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      gmp_randstate_t rng;
      gmp_randinit_default(rng);
      gmp_randseed_ui(rng, 77 + t);
      mpz_t x, e, m, r;
      mpz_inits(x, e, m, r, nullptr);
      mpz_urandomb(x, rng, bits);
      mpz_urandomb(e, rng, ebits);
      mpz_setbit(e, ebits - 1);
      mpz_urandomb(m, rng, bits);
      mpz_setbit(m, bits - 1);
      mpz_setbit(m, 0);
      uint64_t n = 0;
      const auto t0 = std::chrono::steady_clock::now();
      double s = 0;
      do {
        mpz_powm(r, x, e, m);
        mpz_add_ui(x, x, 1);
        ++n;
        s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      } while (s < 1.0);
      rate[t] = n / s;
      mpz_clears(x, e, m, r, nullptr);
      gmp_randclear(rng);
    });
  for (auto& th : pool) th.join();
  double sum = 0;
  for (double r : rate) sum += r;
  return sum * double(ebits) / double(bits);
}

// Instances per block for a variant: ~128 threads (thread family) or 256
// (warp family: 256 / L instances), halved until the variant accepts it.
// count rounded up to whole waves of v's kernel (the blocks an SM holds at
// once, from the occupancy query, times the SMs, times instances a block): a
// kernel whose threads each run a whole exponentiation (tens of milliseconds)
// would otherwise be timed on a last wave that is nearly empty and reported
// up to 2x slow (session 10, run D). Unchanged when the query fails.
// A composed tcbarrett powm launches many kernels, its registered one (the
// finish) among the shortest: its waves are the tensor-core products' blocks
// of 64 instances, one or two an SM (mul_const_imma_launch.hpp), so whole
// multiples of 64 per SM (session 22: the finish's occupancy gave 19008
// instances at 16 Kbit, 2.25 such waves, a last one a quarter full).
uint64_t whole_waves(const kernels::Variant& v, uint64_t bits, uint64_t count, uint32_t ipb,
                     const kernels::DeviceLimits& limits) {
  if (std::string(v.algorithm) == "tcbarrett" && limits.sm_count > 0) {
    const uint64_t wave = 64 * uint64_t(limits.sm_count);
    return (count + wave - 1) / wave * wave;
  }
  const kernels::Geometry g = kernels::geometry(v, bits, count, ipb, limits);
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.kernel, int(g.block), g.smem_bytes) != cudaSuccess ||
      per_sm <= 0 || limits.sm_count <= 0)
    return count;
  const uint64_t wave = uint64_t(per_sm) * uint64_t(limits.sm_count) * g.ipb;
  return (count + wave - 1) / wave * wave;
}

uint32_t bench_ipb(const kernels::Variant& v, uint64_t bits, uint64_t count, const kernels::DeviceLimits& limits) {
  const uint32_t tpi = kernels::threads_per_instance(v, bits);
  uint32_t ipb = tpi > 1 ? std::max<uint32_t>(1, 256 / tpi) : 128;
  while (ipb > 1 && !kernels::why_invalid(v, bits, count, ipb, limits).empty()) ipb /= 2;
  return ipb;
}

// A variant that needs twice the limbs (or more) of the size is never faster.
bool oversized(const kernels::Variant& v, uint64_t bits) {
  // Barrett and the product-and-remainder variants compose products (and a
  // division) chosen per size: no register arrays to oversize.
  if (std::string(v.algorithm) == "barrett" || std::string(v.algorithm) == "tcbarrett" ||
      std::string(v.algorithm) == "rem")
    return false;
  // The fused NTT Barrett powm sizes its transform to the operands (block
  // per instance): its 2^16-bit cap is no register array (task nttpowm).
  if (std::string(v.algorithm) == "nttbarrett") return false;
  const uint64_t cap = v.shape->fixed_max_bits ? v.shape->fixed_max_bits(v) : 0;
  return cap ? cap >= 2 * bits : uint64_t(v.q) * 16 >= bits;
}

// Whether `name` contains one of the comma-separated parts of `list` (a
// single part: the plain substring test --only always was).
bool any_part_in(const std::string& list, const std::string& name) {
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    if (comma > at && name.find(list.substr(at, comma - at)) != std::string::npos) return true;
    at = comma + 1;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bigtune-bench-mod: powm and mulmod throughput against the issue 9 targets"};
  std::vector<uint64_t> powm_bits{1024, 2048, 4096, 8192};
  std::vector<uint64_t> mulmod_bits{256, 1024, 2048, 4096, 8192};
  double target_ms = 400;
  int reps = 5;
  uint64_t max_e = 2048, min_count = 16384, probe = 4096, gmp_max_e = ~uint64_t(0);
  std::string only, only_mulmod;
  std::vector<uint32_t> powm_ipbs;
  bool no_gmp = false, no_mulmod = false, unreduced = false, sqr_table = false, per_instance = false, powm_shared = false;
  app.add_option("--powm-bits", powm_bits)->capture_default_str();
  app.add_option("--mulmod-bits", mulmod_bits)->capture_default_str();
  app.add_option("--target-ms", target_ms, "powm launch length to size batches for")->capture_default_str();
  app.add_option("--reps", reps)->capture_default_str();
  app.add_flag("--no-gmp", no_gmp);
  app.add_flag("--no-mulmod", no_mulmod, "skip the mulmod table");
  app.add_flag("--sqrmod", sqr_table, "the mulmod table times sqrmod against sqr instead");
  app.add_flag("--per-instance-moduli", per_instance, "the mulmod table with an odd modulus per instance");
  app.add_flag("--unreduced-operands", unreduced,
               "the mulmod table's operands of full size, about half of them >= m (default: residues, below m)");
  app.add_flag("--powm-shared-modulus", powm_shared, "the powm table with one odd modulus for the batch");
  app.add_option("--only", only,
                 "time only powm variants whose name contains this (or one of these comma-separated parts), "
                 "also those whose limbs oversize the size");
  app.add_option("--max-e-bits", max_e, "longer exponents are cut and the rate scaled")->capture_default_str();
  app.add_option("--gmp-max-e-bits", gmp_max_e, "GMP: longer exponents are cut and the rate scaled");
  app.add_option("--min-count", min_count, "powm batch at least this large")->capture_default_str();
  app.add_option("--probe-count", probe, "powm batch of the sizing probe")->capture_default_str();
  app.add_option("--only-mulmod", only_mulmod, "time only mulmod variants whose name contains this");
  app.add_option("--powm-ipb", powm_ipbs,
                 "powm: time each of these instances per block (where valid) instead of the default choice");
  CLI11_PARSE(app, argc, argv);
  try {
    Context ctx;
    cudaStream_t stream = ctx.impl().stream;
    const auto& limits = ctx.impl().limits;
    fmt::print("device: {} ({} SMs); host threads for GMP: {}\n", ctx.device().name, ctx.device().sm_count,
               std::thread::hardware_concurrency());
    fmt::print("\npowm, full-size exponent, {}\n",
               powm_shared ? "one modulus for the batch, an exponent per instance" : "modulus and exponent per instance");
    fmt::print("{:>6} {:<26} {:>8} {:>10} {:>11} | {:>10} {:>9}\n", "bits", "variant", "count", "ms", "inst/s",
               "GMP-16", "x GMP");
    for (uint64_t bits : powm_bits) {
      const uint64_t gmp_e = std::min<uint64_t>(bits, gmp_max_e);
      const double g = no_gmp ? 0 : gmp_powm_rate(bits, gmp_e);
      if (gmp_e < bits && !no_gmp)
        fmt::print("{:>6} GMP-16 timed with {}-bit exponents, rate scaled by {} / {}\n", bits, gmp_e, gmp_e, bits);
      for (const kernels::Variant& v : kernels::registry()) {
        if (v.op != kernels::Op::PowM) continue;
        const uint32_t auto_ipb = bench_ipb(v, bits, 1, limits);
        if (!kernels::why_invalid(v, bits, 1, auto_ipb, limits).empty()) continue;
        // --only names what to time, also variants whose limbs oversize the size.
        if (only.empty() ? oversized(v, bits) : !any_part_in(only, v.name)) continue;
        // The warp family's table (shared memory) and registers decide how
        // many instances fit an SM: --powm-ipb measures the block sizes
        // (the tuner's parameter) instead of the one default.
        std::vector<uint32_t> ipbs = powm_ipbs;
        if (ipbs.empty()) ipbs.push_back(auto_ipb);
        for (uint32_t ipb : ipbs) {
          if (!kernels::why_invalid(v, bits, 1, ipb, limits).empty()) continue;
          // Exponents above max_e bits are cut to max_e and the rate scaled by
          // max_e / bits (the time is linear in the exponent's length; the fixed
          // part - table, conversions - is then slightly over-weighted), so the
          // per-thread kernels' long single-thread latency fits the GPU budget.
          const uint64_t ebits = std::min<uint64_t>(bits, max_e);
          // Size the batch: a probe of 4096 instances, then scale to target_ms.
          uint64_t count = probe;
          double ms = 0;
          for (int round = 0; round < 2; ++round) {
            Batch x(ctx, bits, count), e(ctx, ebits, count), m(ctx, bits, powm_shared ? 1 : count),
                r(ctx, bits, count);
            fill(x, 1, false);
            fill(e, 2, true);
            fill(m, 3, true);
            const Plan plan{v.name, ipb, "explicit", 0};
            ms = median_ms([&] { ctx.powm(r, x, e, m, &plan); }, stream, round == 0 ? 1 : reps);
            if (round == 0) {
              const double scale = target_ms / std::max(ms, 1e-3);
              count = std::min<uint64_t>((uint64_t(1) << 32) / bits,
                                         std::max<uint64_t>(min_count, uint64_t(count * std::min(scale, 256.0))));
              count = whole_waves(v, bits, count, ipb, limits);
            }
          }
          const double rate = count / (ms * 1e-3) * double(ebits) / double(bits);
          fmt::print("{:>6} {:<26} {:>8} {:>10.2f} {:>11.4g} | {:>10.4g} {:>9.1f}{}{}\n", bits, v.name, count, ms, rate,
                     g, g > 0 ? rate / g : 0.0, ebits < bits ? fmt::format("  (e of {} bits, scaled)", ebits) : "",
                     powm_ipbs.empty() ? "" : fmt::format("  ipb {}", ipb));
          std::fflush(stdout);
        }
      }
    }
    if (no_mulmod) return 0;
    fmt::print("\nmulmod ({} odd modulus, {}) vs mul (full product, default plan), bits x count = 2^32\n",
               per_instance ? "per-instance" : "shared", unreduced ? "operands of full size" : "operands below m");
    fmt::print("{:>6} {:>9} {:<22} {:>11} | {:<22} {:>11} | {:>7}\n", "bits", "count", "mulmod variant", "inst/s",
               "mul plan", "inst/s", "ratio");
    for (uint64_t bits : mulmod_bits) {
      const uint64_t count = (uint64_t(1) << 32) / bits;
      Batch a(ctx, bits, count), b(ctx, bits, count), m(ctx, bits, per_instance ? count : 1), r(ctx, bits, count),
          p(ctx, 2 * bits, count);
      fill(a, 4, false, !unreduced);
      fill(b, 5, false, !unreduced);
      fill(m, 6, true);
      double best = 0;
      std::string best_name;
      // The default plan's variant is always timed, oversized or not (at 64
      // bits the default runs 4 limbs).
      std::string default_variant;
      try {
        default_variant = ctx.plan(sqr_table ? Op::SqrMod : Op::MulMod, bits, count).variant;
      } catch (const Error&) {
      }
      for (const kernels::Variant& v : kernels::registry()) {
        if (v.op != (sqr_table ? kernels::Op::SqrMod : kernels::Op::MulMod)) continue;
        const uint32_t ipb = bench_ipb(v, bits, count, limits);
        if (!kernels::why_invalid(v, bits, count, ipb, limits).empty()) continue;
        if (oversized(v, bits) && v.name != default_variant) continue;
        if (!only_mulmod.empty() && v.name.find(only_mulmod) == std::string::npos) continue;
        const Plan plan{v.name, ipb, "explicit", 0};
        const double ms = median_ms(
            [&] { sqr_table ? ctx.sqrmod(r, a, m, &plan) : ctx.mulmod(r, a, b, m, &plan); }, stream, reps);
        fmt::print("       mulmod {:<26} ipb {:>3} {:>11.4g} inst/s\n", v.name, ipb, count / (ms * 1e-3));
        if (count / (ms * 1e-3) > best) best = count / (ms * 1e-3), best_name = v.name;
      }
      Plan mul_plan;
      double mul_rate = 0;
      try {
        mul_plan = ctx.plan(sqr_table ? Op::Sqr : Op::Mul, bits, count);
        const double ms =
            median_ms([&] { sqr_table ? ctx.sqr(p, a, &mul_plan) : ctx.mul(p, a, b, &mul_plan); }, stream, reps);
        mul_rate = count / (ms * 1e-3);
      } catch (const Error& e) {
        mul_plan.variant = "(none)";
      }
      fmt::print("{:>6} {:>9} {:<22} {:>11.4g} | {:<22} {:>11.4g} | {:>7.2f}\n", bits, count, best_name, best,
                 mul_plan.variant, mul_rate, best > 0 ? mul_rate / best : 0.0);
      std::fflush(stdout);
    }
  } catch (const Error& e) {
    fmt::print(stderr, "bigtune-bench-mod: {}\n", e.what());
    return 1;
  }
  return 0;
}
