// Store: every kind of row goes in and comes back unchanged; lookups follow
// the documented buckets and preference order; default paths follow XDG.
#include <gtest/gtest.h>

#include <cstdlib>

#include "bigtune/error.hpp"
#include "db/buckets.hpp"
#include "db/migrations.hpp"
#include "db/paths.hpp"
#include "db/store.hpp"
#include "test_util.hpp"

namespace bigtune::db {
namespace {

DeviceRecord test_device(const std::string& uuid, const std::string& name) {
  DeviceRecord d;
  d.uuid = uuid;
  d.name = name;
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.smem_per_block_optin = 232448;
  d.probes = {{"copy_gbps", 2000.25}, {"imul_tops", 17.5}};
  d.first_seen = "2026-01-01T00:00:00.000Z";
  return d;
}

DecisionRecord test_decision(const std::string& uuid, const std::string& op, uint64_t bits,
                             uint64_t count, const std::string& variant,
                             const std::string& at = "2026-01-02T00:00:00.000Z") {
  DecisionRecord d;
  d.device_uuid = uuid;
  d.op = op;
  d.bits = bits_bucket(bits);
  d.count = count_bucket(count);
  d.variant = variant;
  d.ipb = 2;
  d.predicted_us = 12.5;
  d.source = "tuner";
  d.decided_at = at;
  return d;
}

TEST(Buckets, QuarterOctavesForBitsAndOctavesForCounts) {
  EXPECT_EQ(bits_bucket(1).lo, 1u);
  EXPECT_EQ(bits_bucket(7).hi, 8u);
  EXPECT_EQ(bits_bucket(8).lo, 8u);
  EXPECT_EQ(bits_bucket(8).hi, 9u);
  EXPECT_EQ(bits_bucket(9).lo, 9u);
  EXPECT_EQ(bits_bucket(9).hi, 11u);
  EXPECT_EQ(bits_bucket(100000).lo, 98305u);  // (98304, 114688]
  EXPECT_EQ(bits_bucket(100000).hi, 114689u);
  EXPECT_EQ(bits_bucket(114688).lo, 98305u);
  EXPECT_EQ(bits_bucket(114689).lo, 114689u);
  // A power of two closes its bucket, so a plan valid up to exactly 2^k serves it.
  for (uint64_t bits = 16; bits <= (uint64_t{1} << 40); bits *= 2) {
    ASSERT_EQ(bits_bucket(bits).hi, bits + 1) << bits;
    ASSERT_EQ(bits_bucket(bits + 1).lo, bits + 1) << bits;
  }
  EXPECT_EQ(count_bucket(1).lo, 1u);
  EXPECT_EQ(count_bucket(1).hi, 2u);
  EXPECT_EQ(count_bucket(1000).lo, 512u);
  EXPECT_EQ(count_bucket(1024).lo, 1024u);
  // Every size lies in its bucket, and neighbouring buckets touch.
  for (uint64_t bits = 1; bits < 5000; ++bits) {
    const Bucket b = bits_bucket(bits);
    ASSERT_TRUE(b.contains(bits)) << bits;
    ASSERT_EQ(bits_bucket(b.hi).lo, b.hi) << bits;
    ASSERT_LE((b.hi - b.lo) * 4, std::max<uint64_t>(b.lo, 4)) << bits;
  }
  EXPECT_THROW(bits_bucket(0), Error);
  EXPECT_THROW(count_bucket(kMaxSize + 1), Error);
}

TEST(Paths, FlagThenEnvironmentThenXdgThenHome) {
  const char* saved[3] = {std::getenv("BIGTUNE_DB"), std::getenv("XDG_DATA_HOME"), std::getenv("HOME")};
  const std::string keep[3] = {saved[0] ? saved[0] : "", saved[1] ? saved[1] : "", saved[2] ? saved[2] : ""};
  setenv("HOME", "/home/u", 1);
  unsetenv("BIGTUNE_DB");
  unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(default_db_path(), "/home/u/.local/share/bigtune/tuning.db");
  setenv("XDG_DATA_HOME", "relative/ignored", 1);
  EXPECT_EQ(default_db_path(), "/home/u/.local/share/bigtune/tuning.db");
  setenv("XDG_DATA_HOME", "/data", 1);
  EXPECT_EQ(default_db_path(), "/data/bigtune/tuning.db");
  setenv("BIGTUNE_DB", "/x/t.db", 1);
  EXPECT_EQ(default_db_path(), "/x/t.db");
  EXPECT_EQ(resolve_db_path("/flag.db"), "/flag.db");
  EXPECT_EQ(resolve_db_path(""), "/x/t.db");
  const char* names[3] = {"BIGTUNE_DB", "XDG_DATA_HOME", "HOME"};
  for (int i = 0; i < 3; ++i) {
    if (saved[i]) setenv(names[i], keep[i].c_str(), 1); else unsetenv(names[i]);
  }
}

TEST(Store, CreatesMissingFileAndFolders) {
  test::TempDir dir;
  const std::string path = dir.file("a/b/tuning.db");
  {
    Store store(path);
    EXPECT_EQ(store.info().schema_version, kSchemaVersion);
    EXPECT_EQ(store.info().journal_mode, "wal");
  }
  EXPECT_TRUE(std::filesystem::exists(path));
  test::RawDb raw(path);
  EXPECT_EQ(raw.scalar("PRAGMA user_version"), std::to_string(kSchemaVersion));
  EXPECT_EQ(raw.scalar("PRAGMA application_id"), std::to_string(kApplicationId));
}

TEST(Store, RowsRoundTrip) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  const DeviceRecord device = test_device("GPU-1", "Test GPU");
  store.put_device(device);
  VariantRecord variant{"mul.classical.u64.q4", "b1", "mul", "block", "classical", 64, 4};
  store.put_variant(variant);
  SampleRecord ok;
  ok.device_uuid = "GPU-1";
  ok.variant_name = variant.name;
  ok.build_id = "b1";
  ok.bits = 4096;
  ok.count = 1000;
  ok.ipb = 2;
  ok.reps = 20;
  ok.time_us_median = 1.0 / 3.0;
  ok.time_us_min = 0.25;
  ok.time_us_max = 0.5;
  ok.counters = {{"smsp__inst_executed.sum", 1e9 + 7}};
  ok.measured_at = "2026-01-01T00:00:01.000Z";
  SampleRecord failed = ok;
  failed.status = SampleStatus::Timeout;
  failed.reason = "watchdog: 10 s";
  failed.time_us_median.reset();
  failed.time_us_min.reset();
  failed.time_us_max.reset();
  failed.counters.clear();
  store.add_samples({ok, failed});
  ModelRecord model{"GPU-1", variant.name, "b1", "time_us", "2,1", {1.5, -0.1, 1e-300}, 0.01, 12,
                    "2026-01-01T00:00:02.000Z"};
  store.put_model(model);
  store.put_decisions({test_decision("GPU-1", "mul", 100000, 64, variant.name)});
  HistoryRecord h{"GPU-1", "", "mul", 100000, 64, variant.name, 2, "decision", 12.5, 13.0, 7,
                  "2026-01-03T00:00:00.000Z", "2026-01-03T00:00:05.000Z"};
  store.add_history({h});

  const auto devices = store.devices();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "Test GPU");
  EXPECT_EQ(devices[0].probes, device.probes);
  EXPECT_EQ(devices[0].smem_per_block_optin, device.smem_per_block_optin);
  EXPECT_FALSE(devices[0].global_memory_bytes.has_value());
  const auto samples = store.samples();
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].time_us_median, ok.time_us_median);
  EXPECT_EQ(samples[0].counters, ok.counters);
  EXPECT_EQ(samples[1].status, SampleStatus::Timeout);
  EXPECT_EQ(samples[1].reason, failed.reason);
  EXPECT_FALSE(samples[1].time_us_median.has_value());
  const auto models = store.models();
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].coefficients, model.coefficients);  // exact, not approximate
  const auto history = store.recent_history(10);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].calls, 7);
  EXPECT_EQ(history[0].device_name, "Test GPU");
  EXPECT_EQ(store.check(), std::vector<std::string>{});
}

TEST(Store, RowsMustReferToKnownDevicesAndVariants) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  try {
    store.put_decisions({test_decision("GPU-missing", "mul", 100, 1, "x")});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("GPU-missing"), std::string::npos);
  }
  // The failed batch left nothing behind (one transaction).
  store.put_device(test_device("GPU-1", "G"));
  EXPECT_THROW(store.put_decisions({test_decision("GPU-1", "mul", 100, 1, "x"),
                                    test_decision("GPU-2", "mul", 100, 1, "x")}),
               Error);
  EXPECT_TRUE(store.decisions().empty());
}

TEST(Store, DecisionsMustUseTheStandardBuckets) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  store.put_device(test_device("GPU-1", "G"));
  DecisionRecord d = test_decision("GPU-1", "mul", 100000, 64, "v");
  d.bits = {98305, 114690};  // one past the bucket's end
  EXPECT_THROW(store.put_decisions({d}), Error);
  d = test_decision("GPU-1", "mul", 100000, 64, "v");
  d.count = {64, 100};
  EXPECT_THROW(store.put_decisions({d}), Error);
  d.count = {0, 1};
  EXPECT_THROW(store.put_decisions({d}), Error);
  EXPECT_TRUE(store.decisions().empty());
  EXPECT_NO_THROW(store.put_decisions({test_decision("GPU-1", "mul", 7, 1, "v")}));
}

TEST(Store, DeviceUpdateKeepsProbesLimitsAndFirstSeen) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  store.put_device(test_device("GPU-1", "G"));
  DeviceRecord bare;
  bare.uuid = "GPU-1";
  bare.name = "G";
  bare.cc_major = 9;
  bare.sm_count = 132;
  bare.first_seen = "2026-06-01T00:00:00.000Z";
  store.put_device(bare);
  const auto devices = store.devices();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].probes.size(), 2u);
  EXPECT_EQ(devices[0].smem_per_block_optin, 232448);
  EXPECT_EQ(devices[0].first_seen, "2026-01-01T00:00:00.000Z");
}

TEST(Store, FindDecisionPrefersThisDeviceThenNewestOfTheModel) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  store.put_device(test_device("GPU-1", "H"));
  store.put_device(test_device("GPU-2", "H"));
  store.put_device(test_device("GPU-3", "Other"));
  store.put_decisions({test_decision("GPU-2", "mul", 100000, 64, "old", "2026-01-01T00:00:00.000Z"),
                       test_decision("GPU-3", "mul", 100000, 64, "other-model", "2026-09-01T00:00:00.000Z")});
  auto found = store.find_decision("mul", 99000, 100, "GPU-1", "H");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->variant, "old");  // same model, other card
  store.put_decisions({test_decision("GPU-1", "mul", 100000, 64, "mine", "2025-01-01T00:00:00.000Z")});
  found = store.find_decision("mul", 99000, 100, "GPU-1", "H");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->variant, "mine");  // this card wins even when older
  EXPECT_FALSE(store.find_decision("mul", 200000, 100, "GPU-1", "H"));  // other bits bucket
  EXPECT_FALSE(store.find_decision("mul", 99000, 128, "GPU-1", "H"));   // other count bucket
  EXPECT_FALSE(store.find_decision("add", 99000, 100, "GPU-1", "H"));   // other op
  EXPECT_TRUE(store.has_decisions_for_model("H"));
  EXPECT_FALSE(store.has_decisions_for_model("Nothing"));
}

TEST(Store, BestHistoryIsTheFastestMeasuredPlanInTheBucket) {
  test::TempDir dir;
  Store store(dir.file("t.db"));
  store.put_device(test_device("GPU-1", "H"));
  auto row = [](const std::string& variant, std::optional<double> measured) {
    return HistoryRecord{"GPU-1", "", "mul", 100000, 64, variant, 1, "default", 5.0, measured, 1,
                         "", ""};
  };
  store.add_history({row("unmeasured", std::nullopt), row("slow", 30.0), row("fast", 10.0),
                     row("medium", 20.0)});
  auto best = store.best_history("mul", 100001, 65, "GPU-1", "H");
  ASSERT_TRUE(best);
  EXPECT_EQ(best->variant, "fast");
  EXPECT_FALSE(store.best_history("mul", 50000, 64, "GPU-1", "H"));
  EXPECT_EQ(store.history_rows(), 4);
}

}  // namespace
}  // namespace bigtune::db
