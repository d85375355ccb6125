// `bigtune check`: the quick end-to-end job — for every op at a few sizes, run
// bigtune's chosen plan on random operands, compare each result with GMP, and
// time it (median of 5 after a warm-up). Exit status 1 on any mismatch.
#include <fmt/core.h>
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "cli/commands.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"

namespace bigtune::cli {

namespace {
struct CheckRow {
  Op op;
  uint64_t bits, count;
  Plan plan;
  uint64_t mismatches;
  double median_us;
};

// Random operands of `bits` bits, some with long runs of ones and zeros.
void random_operand(mpz_t v, gmp_randstate_t rng, uint64_t bits, uint64_t i) {
  if (i % 4 == 3) mpz_rrandomb(v, rng, bits);
  else mpz_urandomb(v, rng, bits);
}

CheckRow check_one(Context& ctx, Op op, uint64_t bits, uint64_t count, gmp_randstate_t rng) {
  const uint64_t rbits = op == Op::Mul ? 2 * bits : bits;
  const uint64_t shift = bits / 3 + 5;
  std::vector<mpz_t> a(count), b(count), r(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    random_operand(a[i], rng, bits, i);
    random_operand(b[i], rng, bits, i + 1);
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, rbits, count);
  Flags flags(ctx, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  const Plan plan = ctx.plan(op, bits, count);
  auto run = [&] { runtime::run_op(ctx, op, dr, da, db, &flags, shift); };

  run();
  ctx.synchronize();
  std::vector<double> times;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    ctx.synchronize();
    times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  dr.to_mpz(r.data(), count);
  const std::vector<int32_t> f = flags.download();
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < count; ++i) {
    int want_flag = 0;
    if (!runtime::matches_gmp(op, bits, shift, a[i], b[i], r[i], f[i], want, &want_flag)) ++bad;
  }
  mpz_clear(want);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  return {op, bits, count, plan, bad, times[times.size() / 2]};
}
}  // namespace

void add_check_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("check", "check every op against GMP with bigtune's plans, and time them");
  static std::vector<uint64_t> sizes{64, 1000, 4096, 32768, 100003, 262144};
  static uint64_t seed = 1;
  cmd->add_option("--bits", sizes, "operand bit-sizes to check")->capture_default_str();
  cmd->add_option("--seed", seed, "random seed")->capture_default_str();
  cmd->callback([] {
    Context ctx(global_options().device);
    fmt::print("bigtune check on {} (sm_{}{}, {} SMs), seed {}\n", ctx.device().name, ctx.device().cc_major,
               ctx.device().cc_minor, ctx.device().sm_count, seed);
    fmt::print("{:<8} {:>8} {:>7} {:<26} {:>4} {:>9} {:>11} {:>12}\n", "op", "bits", "count", "plan", "ipb",
               "check", "median us", "inst/s");
    gmp_randstate_t rng;
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, seed);
    uint64_t total_bad = 0, total = 0;
    for (Op op : {Op::Add, Op::Sub, Op::Cmp, Op::Shl, Op::Shr, Op::MulLow, Op::Mul}) {
      for (uint64_t bits : sizes) {
        const uint64_t count = std::clamp<uint64_t>((uint64_t(1) << 24) / bits, 32, 20000);
        CheckRow row;
        try {
          row = check_one(ctx, op, bits, count, rng);
        } catch (const Error& e) {
          if (e.code() != ErrorCode::Unsupported) throw;
          fmt::print("{:<8} {:>8} {:>7} {}\n", op_name(op), bits, count, "unsupported at this size on this GPU");
          continue;
        }
        total_bad += row.mismatches;
        total += count;
        fmt::print("{:<8} {:>8} {:>7} {:<26} {:>4} {:>9} {:>11.1f} {:>12.3g}\n", op_name(op), bits, count,
                   row.plan.variant, row.plan.ipb, row.mismatches ? fmt::format("{} BAD", row.mismatches) : "ok",
                   row.median_us, count / (row.median_us * 1e-6));
      }
    }
    gmp_randclear(rng);
    fmt::print("{} results checked against GMP, {} mismatches\n", total, total_bad);
    if (total_bad) throw Error(ErrorCode::Internal, "results differ from GMP", "report this with the seed above");
  });
}

}  // namespace bigtune::cli
