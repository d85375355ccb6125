#include "tuner/crossover.hpp"

#include <algorithm>
#include <cmath>

namespace bigtune::tuner {

const TimedPlan* MeasuredPoint::winner() const {
  const TimedPlan* best = nullptr;
  for (const TimedPlan& t : timed)
    if (std::isfinite(t.us) && t.us > 0 && (!best || t.us < best->us)) best = &t;
  return best;
}

std::optional<double> MeasuredPoint::time_of(const std::string& variant, uint32_t ipb) const {
  for (const TimedPlan& t : timed)
    if (t.variant == variant && t.ipb == ipb && std::isfinite(t.us) && t.us > 0) return t.us;
  return std::nullopt;
}

bool MeasuredPoint::model_right(double tolerance) const {
  const TimedPlan* w = winner();
  if (!w) return true;  // nothing measured: nothing contradicts the model
  const auto t = time_of(model_first.variant, model_first.ipb);
  return t && *t <= w->us * (1 + tolerance);
}

namespace {

// Whether `p` is timed at `at` and within tolerance of the best there.
bool serves(const TimedPlan& p, const MeasuredPoint& at, double tolerance) {
  const TimedPlan* w = at.winner();
  const auto t = at.time_of(p.variant, p.ipb);
  return w && t && *t <= w->us * (1 + tolerance);
}

std::vector<MeasuredPoint> sorted(std::vector<MeasuredPoint> p) {
  std::stable_sort(p.begin(), p.end(), [](const MeasuredPoint& a, const MeasuredPoint& b) { return a.bits < b.bits; });
  return p;
}

}  // namespace

namespace {
// "mul.classical.u64.q8" -> "classical": the algorithm part of a registry name.
std::string algorithm_of(const std::string& variant) {
  const auto a = variant.find('.');
  if (a == std::string::npos) return variant;
  const auto b = variant.find('.', a + 1);
  return variant.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
}
}  // namespace

std::vector<uint64_t> bisection_targets(const std::vector<MeasuredPoint>& in, const CrossoverOptions& o) {
  const std::vector<MeasuredPoint> points = sorted(in);
  // (priority, size): a change of algorithm first (the NTT product taking
  // over from the classical one moves the time most), then the widest
  // interval, then the larger sizes. tuner2's second H100 run spent mul's 8 points on changes of Q
  // among small kernels before the classical/NTT interval was narrowed.
  std::vector<std::pair<double, uint64_t>> found;
  const uint64_t g = std::max<uint64_t>(1, o.granularity);
  for (size_t i = 0; i + 1 < points.size(); ++i) {
    const MeasuredPoint& l = points[i];
    const MeasuredPoint& r = points[i + 1];
    const TimedPlan* a = l.winner();
    const TimedPlan* b = r.winner();
    if (!a || !b || a->same_plan(*b)) continue;
    if (double(r.bits) < double(l.bits) * o.min_ratio) continue;
    // One plan near-best at both ends serves the interval (a crossover among
    // plans within the tolerance costs at most that).
    if ((serves(*a, l, o.tolerance) && serves(*a, r, o.tolerance)) ||
        (serves(*b, l, o.tolerance) && serves(*b, r, o.tolerance)))
      continue;
    const double mid = std::sqrt(double(l.bits) * double(r.bits));
    uint64_t m = uint64_t(std::llround(mid / double(g))) * g;
    if (m <= l.bits) m = (l.bits / g + 1) * g;
    if (m >= r.bits) continue;  // no size on the grid strictly between
    const double width = std::log2(double(r.bits) / double(l.bits));
    // Ties: the larger sizes first (the longer calls).
    found.push_back({(algorithm_of(a->variant) != algorithm_of(b->variant) ? 100.0 : 0.0) + width +
                         1e-3 * std::log2(double(m)),
                     m});
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<uint64_t> out;
  for (const auto& f : found) out.push_back(f.second);
  return out;
}

std::vector<MeasuredPoint> refine_crossovers(std::vector<MeasuredPoint> points, const MeasureFn& measure,
                                             const CrossoverOptions& o, const std::function<bool()>& keep_going) {
  points = sorted(std::move(points));
  int added = 0;
  std::vector<uint64_t> failed;  // sizes that could not be measured: not retried
  // One size at a time, the most urgent first (bisection_targets' order),
  // the targets recomputed after each.
  while (added < o.max_points) {
    uint64_t bits = 0;
    for (uint64_t t : bisection_targets(points, o))
      if (std::find(failed.begin(), failed.end(), t) == failed.end()) {
        bits = t;
        break;
      }
    if (bits == 0) break;
    if (keep_going && !keep_going()) break;
    // The neighbours' winners, timed at the new size too.
    std::vector<TimedPlan> also;
    for (size_t i = 0; i + 1 < points.size(); ++i)
      if (points[i].bits < bits && bits < points[i + 1].bits) {
        if (const TimedPlan* w = points[i].winner()) also.push_back(*w);
        if (const TimedPlan* w = points[i + 1].winner()) also.push_back(*w);
      }
    std::optional<MeasuredPoint> p = measure(bits, also);
    if (!p || !p->winner()) {
      failed.push_back(bits);
      continue;
    }
    p->bits = bits;
    p->bisected = true;
    points.push_back(std::move(*p));
    points = sorted(std::move(points));
    ++added;
  }
  return points;
}

const MeasuredPoint* governing_point(const std::vector<MeasuredPoint>& points, uint64_t lo, uint64_t hi,
                                     double max_octaves) {
  if (lo == 0) return nullptr;
  const double centre = 0.5 * (std::log2(double(lo)) + std::log2(double(std::max(hi, lo + 1))));
  const MeasuredPoint* best = nullptr;
  double dist = 0;
  for (const MeasuredPoint& p : points) {
    if (!p.winner() || p.bits == 0) continue;
    const double d = std::fabs(std::log2(double(p.bits)) - centre);
    if (!best || d < dist) best = &p, dist = d;
  }
  return best && dist <= max_octaves ? best : nullptr;
}

namespace {
// The fastest plan timed at p that `valid` accepts and whose time there
// `transfers` to the bucket (every plan without them).
const TimedPlan* fastest_valid(const MeasuredPoint& p, const PlanValidFn& valid, const PlanTransfersFn& transfers) {
  const TimedPlan* best = nullptr;
  for (const TimedPlan& t : p.timed)
    if ((!valid || valid(t)) && (!transfers || transfers(t, p)) && (!best || t.us < best->us)) best = &t;
  return best;
}
}  // namespace

const TimedPlan* measured_override(const std::vector<MeasuredPoint>& points, uint64_t lo, uint64_t hi,
                                   double tolerance, double max_octaves, const TimedPlan* decided,
                                   const PlanValidFn& valid, const PlanTransfersFn& transfers) {
  if (lo == 0) return nullptr;
  // The measured points within reach, nearest first.
  const double centre = 0.5 * (std::log2(double(lo)) + std::log2(double(std::max(hi, lo + 1))));
  std::vector<std::pair<double, const MeasuredPoint*>> near;
  for (const MeasuredPoint& p : points)
    if (p.bits != 0 && p.winner()) {
      const double d = std::fabs(std::log2(double(p.bits)) - centre);
      if (d <= max_octaves) near.push_back({d, &p});
    }
  std::sort(near.begin(), near.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  const MeasuredPoint* p = nullptr;
  const TimedPlan* w = nullptr;
  double ratio = 0;
  for (size_t i = 0; i < near.size(); ++i) {
    const TimedPlan* b = fastest_valid(*near[i].second, valid, transfers);
    if (!b) continue;
    const double r = b->us / near[i].second->winner()->us;
    if (!w || r * (1 + tolerance) < ratio) p = near[i].second, w = b, ratio = r;
  }
  if (!w) return nullptr;
  // The bucket's own plan timed there and beaten: the measurement decides,
  // whatever the model's first choice at the point (tuner2's second H100
  // run: the model chose the shared-memory shinv division for the bucket of
  // 48,000 bits, its plain variant at the 46,336-bit point, where the plain
  // one won; the bucket kept the shared-memory one, 1.24x the best).
  if (decided && (!transfers || transfers(*decided, *p))) {
    if (const auto t = p->time_of(decided->variant, decided->ipb)) return *t > w->us * (1 + tolerance) ? w : nullptr;
  }
  // The model's first choice at the point, where it can serve the bucket
  // and was within the tolerance of the valid winner: keep the model's plan,
  // but only where that is the bucket's own algorithm (the model may pick
  // another IPB for another batch count; the measurement is at one count).
  // A bucket plan of another variant, never timed here, is no more than the
  // model's guess at another size: the measured winner decides (session 4's
  // H100 run: the 92,672-bit point's NTT and Karatsuba tied, the bucket of
  // 100,000 bits kept the model's untimed 8192-point NTT, 1.83x the best).
  const TimedPlan& m = p->model_first;
  if (decided && decided->variant != m.variant) return w;
  const auto model_us = p->time_of(m.variant, m.ipb);
  if (model_us && (!valid || valid(m)) && *model_us <= w->us * (1 + tolerance)) return nullptr;
  return w;
}

}  // namespace bigtune::tuner
