// The query, db and history commands, driven through a CLI11 app as main.cpp
// will drive them, on a temporary database.
#include <gtest/gtest.h>

#include <fstream>

#include "bigtune/error.hpp"
#include "cli/cmd_query.hpp"
#include "cli/commands.hpp"
#include "db/buckets.hpp"
#include "db/store.hpp"
#include "test_util.hpp"

namespace bigtune::cli {

// main.cpp defines this in the real command; the tests own their copy.
GlobalOptions& global_options() {
  static GlobalOptions options;
  return options;
}

namespace {

// Runs `bigtune <args>` with --db `db`; returns what it printed on stdout.
std::string run(const std::string& db, std::vector<std::string> args) {
  global_options() = GlobalOptions{};
  global_options().db_path = db;
  CLI::App app("bigtune (test)");
  app.add_flag("--json", global_options().json);
  add_query_command(app);
  add_db_command(app);
  add_history_command(app);
  std::vector<const char*> argv{"bigtune"};
  for (const auto& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStdout();
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (...) {
    testing::internal::GetCapturedStdout();
    throw;
  }
  return testing::internal::GetCapturedStdout();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void setenv_profiles() { setenv("BIGTUNE_PROFILES", BIGTUNE_TEST_FIXTURES "/profiles", 1); }

TEST(Cli, QueryANamedModelFromItsProfile) {
  setenv_profiles();
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  const std::string out =
      run(db, {"query", "--op", "mul", "--bits", "100000", "--device", "Bigtune Test GPU"});
  EXPECT_TRUE(contains(out, "mul.profile.test.a with 3 instances per block")) << out;
  EXPECT_TRUE(contains(out, "predicted: 42.000 us")) << out;
  EXPECT_TRUE(contains(out, "source:    profile")) << out;
  const std::string json = run(db, {"--json", "query", "--op", "mul", "--bits", "100000",
                                    "--device", "Bigtune Test GPU"});
  EXPECT_TRUE(contains(json, "\"variant\": \"mul.profile.test.a\", \"ipb\": 3")) << json;
  // Nothing known for this size, no default hook: says so instead of failing.
  const std::string none =
      run(db, {"query", "--op", "mul", "--bits", "5", "--device", "Bigtune Test GPU"});
  EXPECT_TRUE(contains(none, "built-in default")) << none;
  // A query records nothing.
  EXPECT_EQ(db::Store(db).history_rows(), 0);
}

TEST(Cli, QueryUsesTheDefaultHookAndNeedsADevice) {
  setenv_profiles();
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  query_hooks().default_plan = [](const std::string&, uint64_t, uint64_t,
                                  const runtime::DeviceIdentity&) {
    return std::optional<Plan>(Plan{"mul.builtin", 1, "", 0});
  };
  const std::string out = run(db, {"query", "--op", "mul", "--bits", "5", "--device", "X"});
  query_hooks() = QueryHooks{};
  EXPECT_TRUE(contains(out, "mul.builtin")) << out;
  EXPECT_TRUE(contains(out, "source:    default")) << out;
  EXPECT_TRUE(contains(out, "predicted: unknown")) << out;
  try {
    run(db, {"query", "--op", "mul", "--bits", "5"});
    FAIL() << "no error without a device";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(contains(e.what(), "--device")) << e.what();
  }
  EXPECT_THROW(run(db, {"query", "--op", "mul", "--bits", "0", "--device", "X"}), CLI::ParseError);
}

// mulmod / sqrmod: the answer is the plan for one modulus shared by the
// batch, and the query also names what a modulus per instance runs.
TEST(Cli, QueryNamesThePlanForModuliPerInstance) {
  setenv_profiles();
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  query_hooks().per_instance_modulus = [](const std::string& op, uint64_t) {
    return op == "mulmod" ? std::optional<Plan>(Plan{"mulmod.rem.test", 1, "moduli per instance", 0}) : std::nullopt;
  };
  const std::string out = run(db, {"query", "--op", "mulmod", "--bits", "4096", "--device", "X"});
  const std::string json = run(db, {"--json", "query", "--op", "mulmod", "--bits", "4096", "--device", "X"});
  const std::string mul = run(db, {"query", "--op", "mul", "--bits", "4096", "--device", "X"});
  query_hooks() = QueryHooks{};
  EXPECT_TRUE(contains(out, "one modulus for the batch")) << out;
  EXPECT_TRUE(contains(out, "moduli per instance: mulmod.rem.test with 1 instance per block")) << out;
  EXPECT_TRUE(contains(json, "\"per_instance_modulus\": {\"variant\": \"mulmod.rem.test\", \"ipb\": 1}")) << json;
  EXPECT_FALSE(contains(mul, "moduli per instance")) << mul;
}

// powm: the answer is the plan for moduli per instance (the selector's), and
// the query also names what one modulus for the batch runs where the
// runtime's rule takes it.
TEST(Cli, QueryNamesThePowmPlanForOneModulus) {
  setenv_profiles();
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  query_hooks().shared_modulus = [](const std::string& op, uint64_t bits, uint64_t count,
                                    const runtime::DeviceIdentity& device) {
    const bool rule = op == "powm" && bits == 16384 && count >= 100 && device.name == "X";
    return rule ? std::optional<Plan>(Plan{"powm.shared.test", 1, "shared modulus", 0}) : std::nullopt;
  };
  const std::string out = run(db, {"query", "--op", "powm", "--bits", "16384", "--count", "100", "--device", "X"});
  const std::string json =
      run(db, {"--json", "query", "--op", "powm", "--bits", "16384", "--count", "100", "--device", "X"});
  const std::string few = run(db, {"query", "--op", "powm", "--bits", "16384", "--count", "99", "--device", "X"});
  query_hooks() = QueryHooks{};
  EXPECT_TRUE(contains(out, "a modulus per instance")) << out;
  EXPECT_TRUE(contains(out, "one modulus for the batch: powm.shared.test with 1 instance per block")) << out;
  EXPECT_TRUE(contains(json, "\"shared_modulus\": {\"variant\": \"powm.shared.test\", \"ipb\": 1}")) << json;
  EXPECT_FALSE(contains(few, "one modulus for the batch")) << few;
}

TEST(Cli, ExportImportAndInfo) {
  test::TempDir dir;
  const std::string a = dir.file("a.db");
  {
    db::Store store(a);
    db::DeviceRecord d;
    d.uuid = "GPU-9";
    d.name = "Export GPU";
    d.cc_major = 9;
    d.sm_count = 132;
    store.put_device(d);
    db::DecisionRecord dec;
    dec.device_uuid = "GPU-9";
    dec.op = "add";
    dec.bits = db::bits_bucket(4096);
    dec.count = db::count_bucket(64);
    dec.variant = "add.scan.u32.q4";
    dec.ipb = 2;
    dec.source = "tuner";
    store.put_decisions({dec});
  }
  const std::string file = dir.file("out.tsv");
  run(a, {"db", "export", "-o", file});
  EXPECT_THROW(run(a, {"db", "export", "-o", file}), Error);  // no silent overwrite
  const std::string b = dir.file("b.db");
  const std::string imported = run(b, {"db", "import", file});
  EXPECT_TRUE(contains(imported, "imported 1 devices")) << imported;
  const std::string info = run(b, {"db", "info"});
  EXPECT_TRUE(contains(info, "Export GPU [GPU-9] sm_90, 132 SMs, 1 decisions")) << info;
  EXPECT_TRUE(contains(run(b, {"db", "check"}), "ok: ")) << "check";
  const std::string json = run(b, {"--json", "db", "info"});
  EXPECT_TRUE(contains(json, "\"decision\":1")) << json;
  EXPECT_TRUE(contains(json, "\"name\":\"Export GPU\",\"cc\":\"9.0\",\"sm_count\":132,\"decisions\":1")) << json;
  const std::string q = run(b, {"query", "--op", "add", "--bits", "4000", "--count", "100"});
  EXPECT_TRUE(contains(q, "add.scan.u32.q4")) << q;  // the only model in the file
  EXPECT_TRUE(contains(q, "source:    decision")) << q;
  // A profile made from it loads as one.
  const std::string profile = dir.file("export-gpu.tsv");
  run(b, {"db", "export", "--profile", "Export GPU", "-o", profile});
  std::ifstream in(profile);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "bigtune-tuning\t2");
  EXPECT_TRUE(contains(run(b, {"db", "vacuum"}), "vacuumed")) << "vacuum";
}

TEST(Cli, CheckFailsOnADamagedFile) {
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  {
    db::Store store(db);
    db::DeviceRecord d;
    d.uuid = "GPU-1";
    d.name = "G";
    store.put_device(d);
  }
  {
    // Break a foreign key behind bigtune's back.
    test::RawDb raw(db);
    raw.exec("INSERT INTO decision (device_id, op, bits_lo, bits_hi, count_lo, count_hi, variant,"
             " ipb, source, decided_at) VALUES (42, 'mul', 9, 11, 1, 2, 'v', 1, 'x', 'now')");
  }
  try {
    run(db, {"db", "check"});
    FAIL() << "check passed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Database);
  }
}

TEST(Cli, HistoryShowsMeasuredAgainstPredicted) {
  test::TempDir dir;
  const std::string db = dir.file("t.db");
  EXPECT_TRUE(contains(run(db, {"history"}), "no history"));
  {
    db::Store store(db);
    db::DeviceRecord d;
    d.uuid = "GPU-1";
    d.name = "History GPU";
    store.put_device(d);
    store.add_history({db::HistoryRecord{"GPU-1", "", "mul", 100000, 1000, "mul.classical.u64.q4",
                                         2, "decision", 10.0, 12.5, 3, "", ""}});
  }
  const std::string out = run(db, {"history", "--limit", "5"});
  EXPECT_TRUE(contains(out, "mul.classical.u64.q4")) << out;
  EXPECT_TRUE(contains(out, "1.25")) << out;  // measured / predicted
  EXPECT_TRUE(contains(out, "History GPU")) << out;
  EXPECT_TRUE(contains(run(db, {"history", "--op", "add"}), "no history"));
  const std::string json = run(db, {"--json", "history"});
  EXPECT_TRUE(contains(json, "\"variant\":\"mul.classical.u64.q4\",\"ipb\":2")) << json;
  EXPECT_TRUE(contains(json, "\"predicted_us\":10,\"measured_us\":12.5}]")) << json;
}

}  // namespace
}  // namespace bigtune::cli
