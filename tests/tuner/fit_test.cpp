// The fitter (tuner/rational_fit.hpp) on synthetic data with a known answer.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tuner/rational_fit.hpp"

namespace bigtune::tuner {
namespace {

struct Data {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
};

template <class F>
Data sample_2d(F f, double noise, unsigned seed, int nx = 9, int ny = 5) {
  Data d;
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, noise);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      const double a = 1 + 9.0 * i / (nx - 1) + 0.13 * j, b = 1 + 3.0 * j / (ny - 1);
      d.x.push_back({a, b});
      d.y.push_back(f(a, b) * (1 + n(rng)));
    }
  return d;
}

TEST(RationalFit, RecoversRationalFunctionFromNoisyData) {
  auto f = [](double a, double b) { return (3 + 2 * a + 0.5 * a * a * b) / (1 + 0.25 * a); };
  const Data d = sample_2d(f, 0.003, 1);
  FitOptions o;
  o.max_num = {2, 1};
  o.max_den = {1, 1};
  const FitResult r = fit_rational(d.x, d.y, o);
  EXPECT_EQ(r.f.degrees.num, (std::vector<int>{2, 1}));
  EXPECT_EQ(r.f.degrees.den, (std::vector<int>{1, 0}));
  EXPECT_LT(r.cv_error, 0.01);
  // Held out, including 3x past the sampled range of the first variable.
  for (double a : {2.5, 7.7, 15.0, 30.0})
    for (double b : {1.5, 3.9}) EXPECT_NEAR(r.f.eval({a, b}) / f(a, b), 1.0, 0.02) << a << "," << b;
}

TEST(RationalFit, PicksPolynomialDegreesAndDropsAnOutlier) {
  Data d;
  for (int i = 1; i <= 30; ++i) {
    const double x = 64.0 * i + 7 * (i % 3);
    d.x.push_back({x});
    d.y.push_back(5 + x + 0.01 * x * x);
  }
  d.y[11] *= 3;  // one wild measurement
  FitOptions o;
  o.max_num = {3};
  o.max_den = {1};
  const FitResult r = fit_rational(d.x, d.y, o);
  EXPECT_EQ(r.f.degrees.num, (std::vector<int>{2}));
  EXPECT_EQ(r.f.degrees.den, (std::vector<int>{0}));
  EXPECT_EQ(r.outliers, 1);
  const double x = 64.0 * 64;  // twice the largest sample
  EXPECT_NEAR(r.f.eval({x}) / (5 + x + 0.01 * x * x), 1.0, 1e-6);
}

TEST(RationalFit, CopesWithCollinearVariables) {
  // The second variable is twice the first: the monomials are collinear and
  // the least-squares system is rank deficient.
  Data d;
  for (int i = 1; i <= 20; ++i) {
    const double x = i * 1.5;
    d.x.push_back({x, 2 * x});
    d.y.push_back(1 + 3 * x);
  }
  FitOptions o;
  o.max_num = {1, 1};
  o.max_den = {0, 0};
  const FitResult r = fit_rational(d.x, d.y, o);
  EXPECT_LT(r.train_error, 1e-9);
  EXPECT_NEAR(r.f.eval({40.0, 80.0}), 121.0, 1e-6);

  // Forced to the full tensor shape, the system has 4 columns and rank 3
  // (x, y, xy are not independent on this data: y = 2x, xy = 2x^2 is not, so
  // only the pair x, y is dependent).
  RationalFunction full;
  int rank = 0;
  Degrees deg{{1, 1}, {0, 0}};
  ASSERT_TRUE(fit_fixed(d.x, d.y, deg, {30.0, 60.0}, 1e-12, full, &rank));
  EXPECT_EQ(rank, 3);
  EXPECT_NEAR(full.eval({40.0, 80.0}), 121.0, 1e-6);
}

TEST(RationalFit, RejectsDenominatorPolesInTheExtrapolationRange) {
  // 1 / (2 - x/40) fits samples on [1, 30] but has a pole at 80: any chosen
  // model must stay positive up to the extrapolation box; with no denominator
  // allowed to change sign there, the fitter picks a pole-free shape.
  Data d;
  for (int i = 1; i <= 30; ++i) {
    d.x.push_back({double(i)});
    d.y.push_back(1.0 / (2 - i / 40.0));
  }
  FitOptions o;
  o.max_num = {2};
  o.max_den = {1};
  o.extrapolate = 4;  // up to 120
  const FitResult r = fit_rational(d.x, d.y, o);
  for (double x = 1; x <= 120; x += 1) EXPECT_GT(r.f.denominator({x}), 0) << x;
}

TEST(RationalFit, DegreesRoundTripAndFlatten) {
  Degrees d{{2, 1, 0}, {1, 0, 1}};
  EXPECT_EQ(Degrees::parse(d.to_string()).num, d.num);
  EXPECT_EQ(Degrees::parse(d.to_string()).den, d.den);
  RationalFunction f;
  f.degrees = d;
  f.scale = {10, 2, 4};
  f.num.assign(monomials(d.num).size(), 0.5);
  f.den.assign(monomials(d.den).size() - 1, 0.25);
  const RationalFunction g = RationalFunction::unflatten(d, f.flatten());
  EXPECT_DOUBLE_EQ(g.eval({3, 1, 2}), f.eval({3, 1, 2}));
  EXPECT_THROW(RationalFunction::unflatten(Degrees{{1}, {0}}, f.flatten()), std::invalid_argument);
  EXPECT_THROW(Degrees::parse("num=1"), std::invalid_argument);
}

TEST(RationalFit, RefusesBadInput) {
  FitOptions o;
  o.max_num = {1};
  o.max_den = {0};
  EXPECT_THROW(fit_rational({{1}, {2}}, {1, 2}, o), std::invalid_argument);
  EXPECT_THROW(fit_rational({{1}, {2}, {3}}, {1, 0, 2}, o), std::invalid_argument);
}

}  // namespace
}  // namespace bigtune::tuner
