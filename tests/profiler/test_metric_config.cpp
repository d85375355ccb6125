// Range-profiler metric configuration without a GPU: CUPTI's host API for a
// named chip and no counter-availability image (DESIGN.md: same config image
// as on the device).
#include <gtest/gtest.h>

#include <algorithm>

#include "bigtune/error.hpp"
#include "profiler/metric_config.hpp"

namespace bigtune::profiler {
namespace {

TEST(MetricConfig, Gh100IsASupportedChip) {
  const auto chips = MetricConfig::supported_chips();
  EXPECT_NE(std::find(chips.begin(), chips.end(), "GH100"), chips.end());
}

TEST(MetricConfig, DefaultMetricsConfigureOnGh100) {
  MetricConfig config("GH100", default_metrics());
  EXPECT_TRUE(config.rejected().empty()) << config.rejected().front().name << ": "
                                         << config.rejected().front().reason;
  ASSERT_EQ(config.metrics().size(), default_metrics().size());
  for (std::size_t i = 0; i < config.metrics().size(); ++i) {
    EXPECT_EQ(config.metrics()[i].name, default_metrics()[i]);
    EXPECT_FALSE(config.metrics()[i].description.empty());
  }
  EXPECT_GT(config.config_image().size(), 0u);
  // All names scheduled together: 2 passes on GH100 (one per metric if added
  // one at a time). Allow a little room for other CUPTI versions.
  EXPECT_GE(config.passes(), 1u);
  EXPECT_LE(config.passes(), 4u);
}

TEST(MetricConfig, OneMetricIsOnePass) {
  MetricConfig config("GH100", {"smsp__inst_executed.sum"});
  EXPECT_EQ(config.passes(), 1u);
  EXPECT_EQ(config.metrics().front().type, "counter");
}

TEST(MetricConfig, BadNamesAreRejectedNotFatal) {
  // A bad suffix on a good base name, a made-up name, and a good one.
  MetricConfig config("GH100", {"smsp__inst_executed.sumx", "bigtune__no_such_metric.sum",
                                "dram__bytes_read.sum"});
  ASSERT_EQ(config.rejected().size(), 2u);
  EXPECT_EQ(config.rejected()[0].name, "smsp__inst_executed.sumx");
  EXPECT_EQ(config.rejected()[1].name, "bigtune__no_such_metric.sum");
  EXPECT_NE(config.rejected()[0].reason.find("GH100"), std::string::npos);
  ASSERT_EQ(config.metrics().size(), 1u);
  EXPECT_EQ(config.metrics()[0].name, "dram__bytes_read.sum");
  EXPECT_GT(config.config_image().size(), 0u);
}

TEST(MetricConfig, OnlyBadNamesGiveAnEmptyConfig) {
  MetricConfig config("GH100", {"nope"});
  EXPECT_TRUE(config.metrics().empty());
  EXPECT_TRUE(config.config_image().empty());
  EXPECT_EQ(config.rejected().size(), 1u);
}

TEST(MetricConfig, SameImageTwice) {
  MetricConfig a("GH100", default_metrics());
  MetricConfig b("GH100", default_metrics());
  EXPECT_EQ(a.config_image(), b.config_image());
}

TEST(MetricConfig, UnknownChipThrows) {
  try {
    MetricConfig config("XX999", default_metrics());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Profiler);
    EXPECT_NE(std::string(e.what()).find("XX999"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bigtune::profiler
