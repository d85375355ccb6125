// Rational-function fitting (seed 004 §4.3): y ≈ N(x) / D(x) over k variables,
// N and D polynomials whose degree in each variable is bounded separately.
//
// Linearisation: with D = 1 + Σ d_j m_j(x) (constant term fixed to 1), the
// model y = N/D becomes Σ n_i m_i(x) − y Σ d_j m_j(x) = y, linear in the
// coefficients. Each row is divided by |y| so the least-squares error is the
// *relative* error (times from 1 µs to 100 ms weigh alike). Variables are
// divided by their largest magnitude in the data (column scaling keeps the
// Vandermonde-like columns of order 1). The system is often rank deficient
// (collinear program parameters, exact counters that need fewer terms than
// offered), hence LAPACK's SVD solver dgelsd, which returns the minimum-norm
// solution of the numerically-determined rank.
//
// Degree selection: every degree tuple within the bounds is fitted and scored
// by k-fold cross-validation (relative RMS on held-out rows); among the tuples
// within 5 % of the best score the one with fewest coefficients
// wins. A candidate whose denominator is not positive on the data and on the
// extrapolation box (each variable up to `extrapolate` times its scale) is
// rejected: a pole there would predict nonsense on held-out sizes. Callers
// that know where the function will be used pass those points instead
// (FitOptions::check_points): the box also holds combinations that never
// occur, e.g. many limbs with a tiny fraction of a warp per instance.
// Outliers: after the choice, rows whose relative residual is more than
// `outlier_mads` MADs from the median (and above `outlier_floor`) are dropped
// once and the chosen shape is refitted.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace bigtune::tuner {

// Per-variable degree bounds of numerator and denominator.
struct Degrees {
  std::vector<int> num, den;
  // No monomial holds both variable 0 and variable 1 (they enter additively):
  // for variables that are nearly collinear on the samples, whose product
  // the data cannot tell from a square.
  bool separate01 = false;
  std::string to_string() const;  // "num=2,1 den=1,0", plus " sep01"
  static Degrees parse(const std::string& text);  // inverse of to_string; throws std::invalid_argument
};

struct RationalFunction {
  Degrees degrees;
  std::vector<double> scale;        // variable i enters as x_i / scale[i]
  std::vector<double> num, den;     // coefficients of monomials(degrees.num), monomials(degrees.den) minus constant
  double eval(const std::vector<double>& x) const;
  double denominator(const std::vector<double>& x) const;
  size_t terms() const { return num.size() + den.size(); }
  // Flat form for storage: [k, scale..., num..., den...]; degrees stored apart.
  std::vector<double> flatten() const;
  static RationalFunction unflatten(const Degrees& d, const std::vector<double>& flat);
};

// All exponent tuples e with 0 <= e_i <= bound_i, in a fixed order (constant first).
std::vector<std::vector<int>> monomials(const std::vector<int>& bounds, bool separate01 = false);

struct FitOptions {
  std::vector<int> max_num, max_den;  // per variable; sizes = number of variables
  int folds = 5;
  double rcond = 1e-12;               // dgelsd: singular values below rcond * s_max count as zero
  double outlier_mads = 6.0;
  double outlier_floor = 0.02;        // never drop rows fitted within 2 %
  double extrapolate = 64.0;          // denominator checked positive up to this many times the scale
  // Where the function will be evaluated (e.g. held-out sizes): when given,
  // the positivity check runs on the data and these points instead of the box.
  std::vector<std::vector<double>> check_points;
  bool separate01 = false;            // Degrees::separate01 for every candidate
  double simpler_within = 0.05;       // prefer fewer terms when the CV error is within 5 % of the best
};

struct FitResult {
  RationalFunction f;
  double cv_error = 0;     // relative RMS, k-fold cross-validation, chosen degrees
  double train_error = 0;  // relative RMS on the rows kept
  double max_error = 0;    // largest relative error on the rows kept
  int rank = 0;            // numerical rank of the final system
  int outliers = 0;        // rows dropped
  int rows = 0;
  int candidates = 0;      // degree tuples tried
};

// Fits with fixed degrees; rows with weight 0 are ignored. Returns false if
// the system could not be solved (too few rows). `rank` gets dgelsd's rank.
bool fit_fixed(const std::vector<std::vector<double>>& x, const std::vector<double>& y, const Degrees& d,
               const std::vector<double>& scale, double rcond, RationalFunction& out, int* rank = nullptr,
               const std::vector<char>* use = nullptr);

// Degree selection by cross-validation, outlier handling, final fit.
// x: rows of k variables; y: positive targets. Throws std::invalid_argument on
// inconsistent sizes or fewer than 3 rows.
FitResult fit_rational(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                       const FitOptions& options);

}  // namespace bigtune::tuner
