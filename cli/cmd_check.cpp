// `bigtune check`: the quick end-to-end job — for every op at a few sizes, run
// bigtune's chosen plan on random operands, compare each result with GMP, and
// time it (median of 5 after a warm-up). Exit status 1 on any mismatch.
#include <fmt/core.h>
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "cli/commands.hpp"
#include "kernels/registry.hpp"
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

// GMP integers of one role (a, b, ...) for every instance; freed on scope exit.
struct MpzColumn {
  std::vector<mpz_t> v;
  explicit MpzColumn(uint64_t n) : v(n) {
    for (auto& x : v) mpz_init(x);
  }
  ~MpzColumn() {
    for (auto& x : v) mpz_clear(x);
  }
  MpzColumn(const MpzColumn&) = delete;
  MpzColumn& operator=(const MpzColumn&) = delete;
};


CheckRow check_one(Context& ctx, Op op, uint64_t bits, uint64_t count, gmp_randstate_t rng) {
  const runtime::OpLayout layout = runtime::op_layout(op, bits);
  const uint64_t shift = bits / 3 + 5;
  MpzColumn a(count), b(count), c(count), m(count), r(count), r2(count);
  for (uint64_t i = 0; i < count; ++i) {
    random_operand(a.v[i], rng, bits, i);
    if (layout.b_bits) random_operand(b.v[i], rng, layout.b_bits, i + 1);
    if (layout.c_bits) random_operand(c.v[i], rng, layout.c_bits, i + 2);
    if (layout.m_bits) {  // a nonzero modulus, its top bit set, operands below it
      random_operand(m.v[i], rng, layout.m_bits, i + 3);
      mpz_setbit(m.v[i], layout.m_bits - 1);
      mpz_mod(a.v[i], a.v[i], m.v[i]);
      if (op == Op::MulMod) mpz_mod(b.v[i], b.v[i], m.v[i]);
    }
  }
  auto upload = [&](MpzColumn& col, uint64_t col_bits) {
    auto batch = std::make_unique<Batch>(ctx, col_bits, count);
    batch->from_mpz(col.v.data(), count);
    return batch;
  };
  auto da = upload(a, bits);
  std::unique_ptr<Batch> db, dc, dm, dr, dr2;
  if (layout.b_bits) db = upload(b, layout.b_bits);
  if (layout.c_bits) dc = upload(c, layout.c_bits);
  if (layout.m_bits) dm = upload(m, layout.m_bits);
  if (layout.r_bits) dr = std::make_unique<Batch>(ctx, layout.r_bits, count);
  if (layout.r2_bits) dr2 = std::make_unique<Batch>(ctx, layout.r2_bits, count);
  Flags flags(ctx, count);
  runtime::OpBatches x;
  x.r = dr.get(), x.r2 = dr2.get(), x.a = da.get(), x.b = db.get(), x.c = dc.get(), x.m = dm.get();
  x.flags = layout.flags ? &flags : nullptr;
  x.shift = shift;
  const Plan plan = ctx.plan(op, bits, count);
  auto run = [&] { runtime::run_op(ctx, op, x); };

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
  if (dr) dr->to_mpz(r.v.data(), count);
  if (dr2) dr2->to_mpz(r2.v.data(), count);
  const std::vector<int32_t> f = flags.download();
  uint64_t bad = 0;
  mpz_t want, want2;
  mpz_inits(want, want2, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    runtime::RefOperands in;
    in.a = a.v[i], in.b = b.v[i], in.c = c.v[i], in.m = m.v[i], in.shift = shift;
    int want_flag = 0;
    runtime::gmp_reference(op, bits, layout.r_bits, in, want, want2, &want_flag);
    const bool ok = (!runtime::op_has_value(op) || mpz_cmp(want, r.v[i]) == 0) &&
                    (!runtime::op_has_second_value(op) || mpz_cmp(want2, r2.v[i]) == 0) &&
                    (!runtime::op_has_flag(op) || want_flag == f[i]);
    bad += !ok;
  }
  mpz_clears(want, want2, nullptr);
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
    for (kernels::Op kop : kernels::kAllOps) {
      const Op op = static_cast<Op>(static_cast<int>(kop));
      for (uint64_t bits : sizes) {
        // powm costs ~bits^3 on the host side of the check: fewer instances.
        const uint64_t count = op == Op::PowM ? std::clamp<uint64_t>((uint64_t(1) << 30) / (bits * bits), 8, 2000)
                                              : std::clamp<uint64_t>((uint64_t(1) << 24) / bits, 32, 20000);
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
