// Migrations: every past schema version (tests/db/fixtures/schema_v<N>.sql)
// opens, is migrated to the current one in place, keeps all its rows, and
// ends with exactly the schema a new file gets.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "db/migrations.hpp"
#include "db/store.hpp"
#include "test_util.hpp"

namespace bigtune::db {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Each table's columns (name, type, not-null, default, pk) and the index names:
// what must agree between a migrated and a new file.
std::map<std::string, std::string> schema_shape(const std::string& path) {
  test::RawDb raw(path);
  std::map<std::string, std::string> shape;
  sqlite3_stmt* tables = nullptr;
  sqlite3_prepare_v2(raw.get(),
                     "SELECT type, name, tbl_name FROM sqlite_schema ORDER BY type, name", -1,
                     &tables, nullptr);
  while (sqlite3_step(tables) == SQLITE_ROW) {
    const std::string type = reinterpret_cast<const char*>(sqlite3_column_text(tables, 0));
    const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(tables, 1));
    if (type != "table") {
      shape[type + " " + name] = reinterpret_cast<const char*>(sqlite3_column_text(tables, 2));
      continue;
    }
    sqlite3_stmt* cols = nullptr;
    sqlite3_prepare_v2(raw.get(), ("PRAGMA table_info(" + name + ")").c_str(), -1, &cols, nullptr);
    std::string columns;
    while (sqlite3_step(cols) == SQLITE_ROW) {
      for (int i = 1; i < 6; ++i) {
        const auto* t = sqlite3_column_text(cols, i);
        columns += t ? reinterpret_cast<const char*>(t) : "NULL";
        columns += i < 5 ? "," : ";";
      }
    }
    sqlite3_finalize(cols);
    shape["table " + name] = columns;
  }
  sqlite3_finalize(tables);
  return shape;
}

class MigrateFrom : public ::testing::TestWithParam<int> {};

TEST_P(MigrateFrom, FixtureReachesCurrentSchemaWithItsRows) {
  const int version = GetParam();
  test::TempDir dir;
  const std::string path = dir.file("old.db");
  {
    test::RawDb raw(path);
    raw.exec(slurp(test::fixture_path("schema_v" + std::to_string(version) + ".sql")));
    ASSERT_EQ(raw.scalar("PRAGMA user_version"), std::to_string(version));
  }
  {
    Store store(path);
    const StoreInfo info = store.info();
    EXPECT_EQ(info.found_version, version);
    EXPECT_EQ(info.schema_version, kSchemaVersion);
    EXPECT_EQ(store.check(), std::vector<std::string>{});
    // The fixture's rows are all still there (every fixture holds one of each).
    const auto devices = store.devices();
    ASSERT_EQ(devices.size(), 1u);
    EXPECT_EQ(devices[0].probes.at("copy_gbps"), 1000.5);
    const auto samples = store.samples();
    ASSERT_EQ(samples.size(), 1u);
    EXPECT_EQ(samples[0].status, SampleStatus::Ok);  // v1 kept successful samples only
    EXPECT_EQ(samples[0].time_us_median, 12.5);
    EXPECT_EQ(samples[0].counters.at("smsp__inst_executed.sum"), 123456.0);
    const auto models = store.models();
    ASSERT_EQ(models.size(), 1u);
    EXPECT_EQ(models[0].coefficients, (std::vector<double>{1.5, -2.25, 0.125}));
    const auto decisions = store.decisions();
    ASSERT_EQ(decisions.size(), 1u);
    EXPECT_EQ(decisions[0].variant, "mul.classical.u64.q4");
    // And the migrated file takes rows of the new schema.
    SampleRecord failed = samples[0];
    failed.status = SampleStatus::Fault;
    failed.reason = "illegal address";
    failed.measured_at = "";
    store.add_samples({failed});
    store.add_history({HistoryRecord{devices[0].uuid, "", "mul", 100000, 1024,
                                     "mul.classical.u64.q4", 1, "decision", 250.0, {}, 1, "", ""}});
  }
  const std::string fresh = dir.file("fresh.db");
  { Store store(fresh); }
  EXPECT_EQ(schema_shape(path), schema_shape(fresh));
  // Opening again is a no-op for the version.
  Store again(path);
  EXPECT_EQ(again.info().found_version, kSchemaVersion);
}

// One entry per past version; a new schema version adds its predecessor here.
INSTANTIATE_TEST_SUITE_P(PastVersions, MigrateFrom, ::testing::Values(1, 2));

TEST(Migrations, V3ClosesBitBucketsAtTheTop) {
  // v2 stored buckets [2^k, 1.25 2^k); v3 stores (2^k, 1.25 2^k]: the
  // fixture's decision for [32768, 40960) now covers 32769 .. 40960, and its
  // history row of exactly 32768 bits belongs to (28672, 32768].
  test::TempDir dir;
  const std::string path = dir.file("v2.db");
  {
    test::RawDb raw(path);
    raw.exec(slurp(test::fixture_path("schema_v2.sql")));
  }
  Store store(path);
  const auto decisions = store.decisions();
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].bits.lo, 32769u);
  EXPECT_EQ(decisions[0].bits.hi, 40961u);
  EXPECT_EQ(decisions[0].bits.lo, bits_bucket(40960).lo);
  EXPECT_EQ(decisions[0].count.lo, 4096u);
  EXPECT_EQ(decisions[0].measured_us, 310.5);
  const auto history = store.recent_history(10);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].bits, 32768u);
  EXPECT_EQ(history[0].calls, 3);
  EXPECT_EQ(store.check(), std::vector<std::string>{});
  {
    test::RawDb raw(path);
    EXPECT_EQ(raw.scalar("SELECT bits_lo FROM history"), std::to_string(bits_bucket(32768).lo));
  }
}

TEST(Migrations, EveryPastVersionHasAFixture) {
  for (int v = 1; v < kSchemaVersion; ++v) {
    std::ifstream in(test::fixture_path("schema_v" + std::to_string(v) + ".sql"));
    EXPECT_TRUE(in.good()) << "missing tests/db/fixtures/schema_v" << v << ".sql";
  }
}

TEST(Migrations, EmptyFileIsANewDatabase) {
  test::TempDir dir;
  const std::string path = dir.file("empty.db");
  test::write_bytes(path, "");
  Store store(path);
  EXPECT_EQ(store.info().found_version, 0);
  EXPECT_EQ(store.info().schema_version, kSchemaVersion);
}

}  // namespace
}  // namespace bigtune::db
