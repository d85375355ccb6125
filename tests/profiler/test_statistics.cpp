// Summary statistics and the attribution of kernel records to repetitions.
#include <gtest/gtest.h>

#include "bigtune/error.hpp"
#include "profiler/statistics.hpp"
#include "profiler/timer.hpp"

namespace bigtune::profiler {
namespace {

TEST(Statistics, OddCountMedianAndSpread) {
  const Summary s = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.stddev, 1.5811388300841898, 1e-12);  // sqrt(10 / 4)
  EXPECT_DOUBLE_EQ(s.mad, 1);
  EXPECT_NEAR(s.relative_spread(), 1.5811388300841898 / 3, 1e-12);
}

TEST(Statistics, EvenCountMedianIsMeanOfMiddle) {
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(summarize({10, 20}).median, 15);
}

TEST(Statistics, OutlierMovesMeanNotMedian) {
  const Summary s = summarize({100, 101, 99, 100, 100, 5000});
  EXPECT_DOUBLE_EQ(s.median, 100);
  EXPECT_GT(s.mean, 900);
  EXPECT_DOUBLE_EQ(s.mad, 0.5);
}

TEST(Statistics, EmptyAndSingle) {
  const Summary e = summarize({});
  EXPECT_EQ(e.count, 0u);
  EXPECT_EQ(e.median, 0);
  EXPECT_EQ(e.relative_spread(), 0);
  const Summary one = summarize({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
}

KernelRecord record(std::uint64_t start, std::uint64_t end, std::uint64_t external_id) {
  KernelRecord k;
  k.start_ns = start;
  k.end_ns = end;
  k.external_id = external_id;
  return k;
}

TEST(Attribution, ByExternalIdSpansAllKernelsOfARepetition) {
  // Two repetitions (ids 10, 11), two kernels each, delivered out of order.
  std::vector<KernelRecord> k = {record(300, 350, 11), record(100, 150, 10), record(160, 200, 10),
                                 record(360, 420, 11)};
  const auto samples = attribute_kernels(k, 10, 2, 2);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_DOUBLE_EQ(samples[0], 100);  // 200 - 100
  EXPECT_DOUBLE_EQ(samples[1], 120);  // 420 - 300
  EXPECT_EQ(k[0].repetition, 1);
  EXPECT_EQ(k[1].repetition, 0);
}

TEST(Attribution, WithoutIdsFallsBackToStartOrder) {
  std::vector<KernelRecord> k = {record(200, 230, 0), record(0, 10, 0), record(100, 140, 0)};
  const auto samples = attribute_kernels(k, 1, 3, 0);
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_DOUBLE_EQ(samples[0], 10);
  EXPECT_DOUBLE_EQ(samples[1], 40);
  EXPECT_DOUBLE_EQ(samples[2], 30);
}

TEST(Attribution, WrongKernelCountIsAnError) {
  std::vector<KernelRecord> k = {record(0, 10, 5), record(20, 30, 6), record(40, 50, 6)};
  EXPECT_THROW(attribute_kernels(k, 5, 2, 1), Error);   // repetition 1 launched 2
  std::vector<KernelRecord> none = {record(0, 10, 0), record(20, 30, 0), record(40, 50, 0)};
  EXPECT_THROW(attribute_kernels(none, 1, 2, 0), Error);  // 3 kernels, 2 repetitions
  std::vector<KernelRecord> missing = {record(0, 10, 1)};
  EXPECT_THROW(attribute_kernels(missing, 1, 2, 0), Error);  // repetition 1 has none
}

TEST(Attribution, MixedAttributedAndForeignRecordsIsAnError) {
  std::vector<KernelRecord> k = {record(0, 10, 1), record(20, 30, 99)};
  EXPECT_THROW(attribute_kernels(k, 1, 1, 0), Error);
}

}  // namespace
}  // namespace bigtune::profiler
