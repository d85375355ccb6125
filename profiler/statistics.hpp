// Summary statistics of repeated measurements (durations in ns, or anything).
// The median is the figure to use; min/max/stddev/MAD say how much to trust it.
#pragma once
#include <cstddef>
#include <vector>

namespace bigtune::profiler {

struct Summary {
  std::size_t count = 0;
  double median = 0, min = 0, max = 0, mean = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 for fewer than two samples
  double mad = 0;     // median absolute deviation from the median (robust spread)
  // stddev / median, 0 when the median is 0: "the spread" in one number.
  double relative_spread() const { return median != 0 ? stddev / median : 0; }
};

// Summarizes `samples` (any order; the vector is taken by value and sorted).
// An empty input gives a Summary with count 0 and every field 0.
Summary summarize(std::vector<double> samples);

// Median of `values` (taken by value); 0 for an empty input. For an even count,
// the mean of the two middle values.
double median(std::vector<double> values);

}  // namespace bigtune::profiler
