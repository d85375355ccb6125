// bigtune-bench-div: block division n / (n/2) (divmod.shinv, seed 001) and the
// fused ops (mul_add, poly; seed 000 §6) at bits x count = 2^32, with the best
// full multiplication of the same size (the div/mul ratio of seed 001 Table 1)
// and GMP's mpn_tdiv_qr on all host cores. Timing as bench_arith.cpp: CUDA
// events, 1 warm-up, median of up to --reps runs (fewer when runs are long).
#include <cuda_runtime_api.h>
#include <fmt/core.h>
#include <gmp.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "bench/device_fill.cuh"
#include "bench/event_timing.hpp"
#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/context_impl.hpp"
#include "runtime/run_op.hpp"

namespace {
using namespace bigtune;

// 1 warm-up, 3 to `reps` timed runs, at least 300 ms.
template <class F>
double median_ms(F&& launch, cudaStream_t stream, int reps) {
  return bench::time_with_events(launch, stream, {1, 3, reps, 300.0f}).median_ms;
}

// GMP on all host cores: n-limb by n/2-limb mpn_tdiv_qr per second.
double gmp_div_rate(uint64_t bits) {
  const mp_size_t n = mp_size_t(bits / 64), d = n / 2;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t per_thread = std::max<uint64_t>(4, (uint64_t(1) << 24) / (bits * std::max<uint64_t>(1, n / 16)));
  std::vector<std::thread> pool;
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::vector<mp_limb_t> u(n), v(d), q(n - d + 1), r(d);
      for (mp_size_t i = 0; i < n; ++i) u[i] = mp_limb_t(0x9e3779b97f4a7c15ull * (i + t + 1));
      for (mp_size_t i = 0; i < d; ++i) v[i] = ~u[i] ^ i;
      v[d - 1] |= mp_limb_t(1) << 63;
      for (uint64_t k = 0; k < per_thread; ++k) {
        mpn_tdiv_qr(q.data(), r.data(), 0, u.data(), n, v.data(), d);
        u[0] ^= q[0];
      }
    });
  for (auto& th : pool) th.join();
  return double(per_thread) * threads / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bigtune-bench-div: division n/(n/2), mul_add and poly at bits x count = 2^32"};
  int min_log = 14, max_log = 18, total_log = 32, reps = 10;
  bool no_gmp = false;
  app.add_option("--min-log2-bits", min_log)->capture_default_str();
  app.add_option("--max-log2-bits", max_log)->capture_default_str();
  app.add_option("--log2-total-bits", total_log)->capture_default_str();
  app.add_option("--reps", reps)->capture_default_str();
  app.add_flag("--no-gmp", no_gmp);
  CLI11_PARSE(app, argc, argv);
  try {
    Context ctx;
    cudaStream_t s = ctx.impl().stream;
    fmt::print("device: {}\n", ctx.device().name);
    fmt::print("{:>8} {:>8} | {:>10} {:>26} {:>10} {:>24} {:>7} {:>10} {:>7} | {:>10} {:>10}\n", "bits", "count",
               "div inst/s", "div variant", "mul inst/s", "mul plan", "div/mul", "GMP16 div", "x GMP", "mul_add",
               "poly");
    for (int lg = min_log; lg <= max_log; ++lg) {
      const uint64_t bits = uint64_t(1) << lg, count = uint64_t(1) << (total_log - lg);
      Batch u(ctx, bits, count), v(ctx, bits / 2, count), q(ctx, bits, count), r(ctx, bits / 2, count);
      Batch c(ctx, 2 * bits, count), p(ctx, 2 * bits, count);
      Flags f(ctx, count);
      BIGTUNE_CUDA_CHECK(bench::fill_random(static_cast<uint64_t*>(u.device_data()), u.words_per_instance(), count, bits, 1, s));
      BIGTUNE_CUDA_CHECK(bench::fill_random(static_cast<uint64_t*>(v.device_data()), v.words_per_instance(), count, bits / 2, 2, s));
      BIGTUNE_CUDA_CHECK(bench::fill_random(static_cast<uint64_t*>(c.device_data()), c.words_per_instance(), count, 2 * bits, 3, s));
      double div_rate = 0, mul_rate = 0, ma_rate = 0, poly_rate = 0;
      std::string mul_plan;
      // Every divmod variant (IPB 1), the best one reported; each also on stderr.
      std::string div_plan;
      for (const kernels::Variant& var : kernels::registry()) {
        if (var.op != kernels::Op::DivMod) continue;
        if (!kernels::why_invalid(var, bits, count, 1, ctx.impl().limits).empty()) continue;
        const Plan pl{var.name, 1, "explicit", 0};
        const double rate = count / (1e-3 * median_ms([&] { ctx.divmod(q, r, u, v, &f, &pl); }, s, reps));
        fmt::print(stderr, "  divmod {} bits {}: {:.3g} inst/s\n", bits, var.name, rate);
        if (rate > div_rate) div_rate = rate, div_plan = var.name;
      }
      // Best full product over the registry's variants (Q, IPB from the default rule).
      for (const kernels::Variant& var : kernels::registry()) {
        if (var.op != kernels::Op::Mul || var.limb_bits != 64) continue;
        for (uint32_t ipb : {1u, 2u}) {
          if (!kernels::why_invalid(var, bits, count, ipb, ctx.impl().limits).empty()) continue;
          const Plan pl{var.name, ipb, "explicit", 0};
          const double rate = count / (1e-3 * median_ms([&] { ctx.mul(p, u, u, &pl); }, s, reps));
          if (rate > mul_rate) mul_rate = rate, mul_plan = var.name + "/" + std::to_string(ipb);
        }
      }
      try {
        Batch rr(ctx, 2 * bits + 1, count);
        ma_rate = count / (1e-3 * median_ms([&] { ctx.mul_add(rr, u, u, c); }, s, reps));
      } catch (const Error& e) {
        fmt::print(stderr, "mul_add {}: {}\n", bits, e.what());
      }
      try {
        Batch rr(ctx, 4 * bits + 2, count);
        poly_rate = count / (1e-3 * median_ms([&] { ctx.poly(rr, u, u); }, s, reps));
      } catch (const Error& e) {
        fmt::print(stderr, "poly {}: {}\n", bits, e.what());
      }
      const double g = no_gmp ? 0 : gmp_div_rate(bits);
      fmt::print("{:>8} {:>8} | {:>10.3g} {:>26} {:>10.3g} {:>24} {:>7.2f} {:>10.3g} {:>7.1f} | {:>10.3g} {:>10.3g}\n",
                 bits, count, div_rate, div_plan, mul_rate, mul_plan, div_rate > 0 ? mul_rate / div_rate : 0.0, g,
                 g > 0 ? div_rate / g : 0.0, ma_rate, poly_rate);
      std::fflush(stdout);
    }
  } catch (const Error& e) {
    fmt::print(stderr, "bigtune-bench-div: {}\n", e.what());
    return 1;
  }
  return 0;
}
