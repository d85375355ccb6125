#include "tuner/rational_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

extern "C" void dgelsd_(const int* m, const int* n, const int* nrhs, double* a, const int* lda, double* b,
                        const int* ldb, double* s, const double* rcond, int* rank, double* work, const int* lwork,
                        int* iwork, int* info);

namespace bigtune::tuner {

namespace {

std::string join(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::vector<int> split_ints(const std::string& s) {
  std::vector<int> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoi(item));
  return out;
}

double monomial(const std::vector<int>& e, const std::vector<double>& xs) {
  double m = 1;
  for (size_t i = 0; i < e.size(); ++i)
    for (int k = 0; k < e[i]; ++k) m *= xs[i];
  return m;
}

std::vector<double> scaled(const std::vector<double>& x, const std::vector<double>& scale) {
  std::vector<double> s(x.size());
  for (size_t i = 0; i < x.size(); ++i) s[i] = x[i] / scale[i];
  return s;
}

// Minimum-norm least squares by SVD (dgelsd). a is rows x cols, row-major here.
bool solve_lstsq(const std::vector<std::vector<double>>& a, const std::vector<double>& b, double rcond,
                 std::vector<double>& x, int& rank) {
  const int m = int(a.size()), n = a.empty() ? 0 : int(a[0].size()), nrhs = 1;
  if (m == 0 || n == 0) return false;
  const int lda = m, ldb = std::max(m, n);
  std::vector<double> A(size_t(m) * n), B(ldb, 0.0), S(std::min(m, n));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) A[size_t(j) * m + i] = a[i][j];
  for (int i = 0; i < m; ++i) B[i] = b[i];
  int info = 0, lwork = -1;
  double query = 0;
  const int minmn = std::min(m, n);
  std::vector<int> iwork(size_t(3) * minmn * 40 + 11 * minmn + 64);
  dgelsd_(&m, &n, &nrhs, A.data(), &lda, B.data(), &ldb, S.data(), &rcond, &rank, &query, &lwork, iwork.data(),
          &info);
  if (info != 0) return false;
  lwork = std::max(1, int(query));
  std::vector<double> work(lwork);
  dgelsd_(&m, &n, &nrhs, A.data(), &lda, B.data(), &ldb, S.data(), &rcond, &rank, work.data(), &lwork,
          iwork.data(), &info);
  if (info != 0) return false;
  x.assign(B.begin(), B.begin() + n);
  for (double v : x)
    if (!std::isfinite(v)) return false;
  return true;
}

double rel_err(double pred, double y) {
  if (!std::isfinite(pred)) return 1e3;
  return (pred - y) / std::abs(y);
}

// Denominator and value positive on a log-spaced grid over the data range
// extended `factor` times past the largest value of each variable.
bool positive_on_box(const RationalFunction& f, const std::vector<std::vector<double>>& x, double factor) {
  const size_t k = f.scale.size();
  std::vector<std::vector<double>> axis(k);
  for (size_t i = 0; i < k; ++i) {
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (const auto& r : x) lo = std::min(lo, r[i]), hi = std::max(hi, r[i]);
    hi *= factor;
    if (lo <= 0) lo = hi > 0 ? hi * 1e-3 : 1;
    const int n = (hi > lo) ? 10 : 1;
    for (int j = 0; j < n; ++j) axis[i].push_back(n == 1 ? lo : lo * std::pow(hi / lo, double(j) / (n - 1)));
  }
  std::vector<size_t> idx(k, 0);
  std::vector<double> p(k);
  while (true) {
    for (size_t i = 0; i < k; ++i) p[i] = axis[i][idx[i]];
    if (!(f.denominator(p) > 0) || !(f.eval(p) > 0)) return false;
    size_t i = 0;
    while (i < k && ++idx[i] == axis[i].size()) idx[i++] = 0;
    if (i == k) break;
  }
  return true;
}

bool positive_at(const RationalFunction& f, const std::vector<std::vector<double>>& a,
                 const std::vector<std::vector<double>>& b) {
  for (const auto* set : {&a, &b})
    for (const auto& p : *set)
      if (!(f.denominator(p) > 0) || !(f.eval(p) > 0)) return false;
  return true;
}

}  // namespace

std::string Degrees::to_string() const {
  return "num=" + join(num) + " den=" + join(den) + (separate01 ? " sep01" : "");
}

Degrees Degrees::parse(const std::string& text) {
  const auto a = text.find("num="), b = text.find(" den=");
  if (a != 0 || b == std::string::npos) throw std::invalid_argument("bad degrees '" + text + "'");
  Degrees d;
  d.num = split_ints(text.substr(4, b - 4));
  std::string den = text.substr(b + 5);
  if (const auto s = den.find(" sep01"); s != std::string::npos) d.separate01 = true, den = den.substr(0, s);
  d.den = split_ints(den);
  if (d.num.size() != d.den.size()) throw std::invalid_argument("bad degrees '" + text + "'");
  return d;
}

std::vector<std::vector<int>> monomials(const std::vector<int>& bounds, bool separate01) {
  std::vector<std::vector<int>> out;
  std::vector<int> e(bounds.size(), 0);
  while (true) {
    if (!(separate01 && e.size() > 1 && e[0] > 0 && e[1] > 0)) out.push_back(e);
    size_t i = 0;
    while (i < e.size() && ++e[i] > bounds[i]) e[i++] = 0;
    if (i == e.size()) break;
  }
  return out;
}

double RationalFunction::denominator(const std::vector<double>& x) const {
  const std::vector<double> s = scaled(x, scale);
  const auto dm = monomials(degrees.den, degrees.separate01);
  double d = 1;
  for (size_t j = 1; j < dm.size(); ++j) d += den[j - 1] * monomial(dm[j], s);
  return d;
}

double RationalFunction::eval(const std::vector<double>& x) const {
  const std::vector<double> s = scaled(x, scale);
  const auto nm = monomials(degrees.num, degrees.separate01);
  double n = 0;
  for (size_t i = 0; i < nm.size(); ++i) n += num[i] * monomial(nm[i], s);
  return n / denominator(x);
}

std::vector<double> RationalFunction::flatten() const {
  std::vector<double> out{double(scale.size())};
  out.insert(out.end(), scale.begin(), scale.end());
  out.insert(out.end(), num.begin(), num.end());
  out.insert(out.end(), den.begin(), den.end());
  return out;
}

RationalFunction RationalFunction::unflatten(const Degrees& d, const std::vector<double>& flat) {
  RationalFunction f;
  f.degrees = d;
  const size_t k = flat.empty() ? 0 : size_t(flat[0]);
  const size_t nn = monomials(d.num, d.separate01).size(), nd = monomials(d.den, d.separate01).size() - 1;
  if (k != d.num.size() || flat.size() != 1 + k + nn + nd)
    throw std::invalid_argument("stored rational function does not match its degrees " + d.to_string());
  f.scale.assign(flat.begin() + 1, flat.begin() + 1 + k);
  f.num.assign(flat.begin() + 1 + k, flat.begin() + 1 + k + nn);
  f.den.assign(flat.begin() + 1 + k + nn, flat.end());
  return f;
}

bool fit_fixed(const std::vector<std::vector<double>>& x, const std::vector<double>& y, const Degrees& d,
               const std::vector<double>& scale, double rcond, RationalFunction& out, int* rank,
               const std::vector<char>* use) {
  const auto nm = monomials(d.num, d.separate01), dm = monomials(d.den, d.separate01);
  std::vector<std::vector<double>> rows;
  std::vector<double> rhs;
  for (size_t r = 0; r < x.size(); ++r) {
    if (use && !(*use)[r]) continue;
    const std::vector<double> s = scaled(x[r], scale);
    const double w = 1.0 / std::abs(y[r]);  // relative error
    std::vector<double> row;
    for (const auto& e : nm) row.push_back(w * monomial(e, s));
    for (size_t j = 1; j < dm.size(); ++j) row.push_back(-w * y[r] * monomial(dm[j], s));
    rows.push_back(std::move(row));
    rhs.push_back(w * y[r]);
  }
  if (rows.size() < 2) return false;
  std::vector<double> c;
  int rk = 0;
  if (!solve_lstsq(rows, rhs, rcond, c, rk)) return false;
  out.degrees = d;
  out.scale = scale;
  out.num.assign(c.begin(), c.begin() + nm.size());
  out.den.assign(c.begin() + nm.size(), c.end());
  if (rank) *rank = rk;
  return true;
}

FitResult fit_rational(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                       const FitOptions& o) {
  const size_t k = o.max_num.size();
  if (o.max_den.size() != k || x.size() != y.size()) throw std::invalid_argument("fit_rational: inconsistent sizes");
  if (x.size() < 3) throw std::invalid_argument("fit_rational: needs at least 3 rows");
  for (size_t r = 0; r < x.size(); ++r) {
    if (x[r].size() != k) throw std::invalid_argument("fit_rational: row with the wrong number of variables");
    if (!(y[r] != 0) || !std::isfinite(y[r])) throw std::invalid_argument("fit_rational: targets must be finite, non-zero");
  }
  std::vector<double> scale(k, 1.0);
  for (size_t i = 0; i < k; ++i) {
    double m = 0;
    for (const auto& r : x) m = std::max(m, std::abs(r[i]));
    scale[i] = m > 0 ? m : 1.0;
  }
  const size_t n = x.size();
  const int folds = int(std::min<size_t>(std::max(2, o.folds), n));
  std::vector<int> fold(n);
  {
    std::vector<size_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::mt19937 rng(12345);  // fixed: the same data gives the same model
    std::shuffle(perm.begin(), perm.end(), rng);
    for (size_t i = 0; i < n; ++i) fold[perm[i]] = int(i % folds);
  }

  // Every degree tuple within the bounds.
  std::vector<int> bounds;
  for (size_t i = 0; i < k; ++i) bounds.push_back(o.max_num[i]);
  for (size_t i = 0; i < k; ++i) bounds.push_back(o.max_den[i]);
  const auto tuples = monomials(bounds);

  struct Scored {
    Degrees d;
    double cv;
    size_t terms;
    bool positive;
  };
  std::vector<Scored> scored;
  for (const auto& t : tuples) {
    Degrees d;
    d.num.assign(t.begin(), t.begin() + k);
    d.den.assign(t.begin() + k, t.end());
    d.separate01 = o.separate01;
    const size_t terms = monomials(d.num, d.separate01).size() + monomials(d.den, d.separate01).size() - 1;
    if (terms + 1 > n) continue;  // leave rows to validate on
    double sse = 0;
    bool ok = true;
    for (int f = 0; f < folds && ok; ++f) {
      std::vector<char> use(n);
      for (size_t r = 0; r < n; ++r) use[r] = fold[r] != f;
      RationalFunction rf;
      if (!fit_fixed(x, y, d, scale, o.rcond, rf, nullptr, &use)) {
        ok = false;
        break;
      }
      for (size_t r = 0; r < n; ++r)
        if (!use[r]) {
          const double den = rf.denominator(x[r]);
          const double e = den > 0 ? rel_err(rf.eval(x[r]), y[r]) : 1e3;
          sse += e * e;
        }
    }
    if (!ok) continue;
    RationalFunction full;
    if (!fit_fixed(x, y, d, scale, o.rcond, full)) continue;
    const bool positive =
        o.check_points.empty() ? positive_on_box(full, x, o.extrapolate) : positive_at(full, x, o.check_points);
    scored.push_back({d, std::sqrt(sse / n), terms, positive});
  }
  if (scored.empty()) throw std::invalid_argument("fit_rational: no degree tuple could be fitted");
  const bool any_positive = std::any_of(scored.begin(), scored.end(), [](const Scored& s) { return s.positive; });
  double best = std::numeric_limits<double>::max();
  for (const auto& s : scored)
    if (s.positive || !any_positive) best = std::min(best, s.cv);
  const Scored* pick = nullptr;
  for (const auto& s : scored) {
    if (!(s.positive || !any_positive) || s.cv > best * (1 + o.simpler_within) + 1e-12) continue;
    if (!pick || s.terms < pick->terms || (s.terms == pick->terms && s.cv < pick->cv)) pick = &s;
  }

  FitResult res;
  res.candidates = int(scored.size());
  res.cv_error = pick->cv;
  std::vector<char> use(n, 1);
  fit_fixed(x, y, pick->d, scale, o.rcond, res.f, &res.rank);
  // Outliers: relative residuals far from the median, by the MAD.
  std::vector<double> e(n);
  for (size_t r = 0; r < n; ++r) e[r] = rel_err(res.f.eval(x[r]), y[r]);
  std::vector<double> sorted = e;
  std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.end());
  const double med = sorted[n / 2];
  std::vector<double> dev(n);
  for (size_t r = 0; r < n; ++r) dev[r] = std::abs(e[r] - med);
  std::vector<double> dsorted = dev;
  std::nth_element(dsorted.begin(), dsorted.begin() + n / 2, dsorted.end());
  const double mad = dsorted[n / 2];
  for (size_t r = 0; r < n; ++r)
    if (dev[r] > o.outlier_mads * std::max(mad, 1e-9) && std::abs(e[r]) > o.outlier_floor) {
      use[r] = 0;
      ++res.outliers;
    }
  if (res.outliers > 0 && n - res.outliers > res.f.terms()) {
    RationalFunction refit;
    int rk = 0;
    if (fit_fixed(x, y, pick->d, scale, o.rcond, refit, &rk, &use)) res.f = refit, res.rank = rk;
  } else {
    std::fill(use.begin(), use.end(), 1);
    res.outliers = 0;
  }
  double sse = 0;
  for (size_t r = 0; r < n; ++r)
    if (use[r]) {
      const double er = rel_err(res.f.eval(x[r]), y[r]);
      sse += er * er;
      res.max_error = std::max(res.max_error, std::abs(er));
      ++res.rows;
    }
  res.train_error = std::sqrt(sse / std::max(1, res.rows));
  return res;
}

}  // namespace bigtune::tuner
