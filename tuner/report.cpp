#include "tuner/report.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

namespace bigtune::tuner {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string num(double v, int prec = 3) {
  if (!std::isfinite(v)) return "–";
  std::ostringstream o;
  o.precision(prec);
  o << v;
  return o.str();
}

const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                         "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39"};

struct Series {
  std::string name, color;
  bool dashed = false;
  std::vector<std::pair<double, double>> pts;  // (x, y), y > 0
};

// A line plot, x linear (log2 bits), y logarithmic.
std::string svg_plot(const std::vector<Series>& series, const std::string& title, const std::string& xlabel,
                     const std::string& ylabel, bool log_y = true) {
  const double W = 760, H = 380, L = 70, R = 230, T = 30, B = 50;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const Series& s : series)
    for (auto [x, y] : s.pts) {
      if (!(y > 0) || !std::isfinite(y)) continue;
      const double yy = log_y ? std::log10(y) : y;
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, yy), y1 = std::max(y1, yy);
    }
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
    << ' ' << H << "\" role=\"img\"><title>" << esc(title) << "</title>";
  o << "<rect x=\"0\" y=\"0\" width=\"" << W << "\" height=\"" << H << "\" fill=\"white\"/>";
  o << "<text x=\"" << L << "\" y=\"18\" font-size=\"14\" font-family=\"sans-serif\">" << esc(title) << "</text>";
  if (!std::isfinite(x0)) {
    o << "<text x=\"" << L << "\" y=\"" << H / 2 << "\" font-family=\"sans-serif\">no data</text></svg>";
    return o.str();
  }
  if (x1 == x0) x1 = x0 + 1;
  if (y1 == y0) y1 = y0 + 1;
  const double pad = 0.05 * (y1 - y0);
  y0 -= pad, y1 += pad;
  auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
  auto py = [&](double y) { return T + (1 - ((log_y ? std::log10(y) : y) - y0) / (y1 - y0)) * (H - T - B); };
  o << "<g font-family=\"sans-serif\" font-size=\"11\">";
  o << "<line x1=\"" << L << "\" y1=\"" << H - B << "\" x2=\"" << W - R << "\" y2=\"" << H - B << "\" stroke=\"black\"/>";
  o << "<line x1=\"" << L << "\" y1=\"" << T << "\" x2=\"" << L << "\" y2=\"" << H - B << "\" stroke=\"black\"/>";
  for (double x = std::ceil(x0); x <= x1 + 1e-9; x += 1)
    o << "<text x=\"" << px(x) << "\" y=\"" << H - B + 15 << "\" text-anchor=\"middle\">" << num(x) << "</text>";
  if (log_y && std::floor(y1) - std::ceil(y0) < 1) {
    // Less than a decade: five labelled levels, evenly spaced in log.
    for (int i = 0; i <= 4; ++i) {
      const double v = std::pow(10, y0 + (y1 - y0) * i / 4);
      o << "<line x1=\"" << L << "\" y1=\"" << py(v) << "\" x2=\"" << W - R << "\" y2=\"" << py(v)
        << "\" stroke=\"#ddd\"/><text x=\"" << L - 5 << "\" y=\"" << py(v) + 4 << "\" text-anchor=\"end\">"
        << num(v) << "</text>";
    }
  } else if (log_y) {
    for (double e = std::ceil(y0); e <= y1; e += 1)
      o << "<line x1=\"" << L << "\" y1=\"" << py(std::pow(10, e)) << "\" x2=\"" << W - R << "\" y2=\""
        << py(std::pow(10, e)) << "\" stroke=\"#ddd\"/><text x=\"" << L - 5 << "\" y=\"" << py(std::pow(10, e)) + 4
        << "\" text-anchor=\"end\">" << num(std::pow(10, e)) << "</text>";
  } else {
    for (int i = 0; i <= 4; ++i) {
      const double v = y0 + (y1 - y0) * i / 4;
      o << "<text x=\"" << L - 5 << "\" y=\"" << py(v) + 4 << "\" text-anchor=\"end\">" << num(v) << "</text>";
    }
  }
  o << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 12 << "\" text-anchor=\"middle\">" << esc(xlabel)
    << "</text>";
  o << "<text transform=\"translate(15," << (T + H - B) / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
    << esc(ylabel) << "</text>";
  int li = 0;
  for (const Series& s : series) {
    std::ostringstream path;
    bool first = true;
    for (auto [x, y] : s.pts) {
      if (!(y > 0) || !std::isfinite(y)) continue;
      path << (first ? "M" : " L") << px(x) << ' ' << py(y);
      first = false;
    }
    if (first) continue;
    o << "<path class=\"series\" d=\"" << path.str() << "\" fill=\"none\" stroke=\"" << s.color
      << "\" stroke-width=\"1.6\"" << (s.dashed ? " stroke-dasharray=\"5 3\"" : "") << "/>";
    if (!s.dashed)
      for (auto [x, y] : s.pts)
        if (y > 0 && std::isfinite(y))
          o << "<circle cx=\"" << px(x) << "\" cy=\"" << py(y) << "\" r=\"2.5\" fill=\"" << s.color << "\"/>";
    const double ly = T + 12 + 14 * li++;
    o << "<line x1=\"" << W - R + 10 << "\" y1=\"" << ly - 4 << "\" x2=\"" << W - R + 30 << "\" y2=\"" << ly - 4
      << "\" stroke=\"" << s.color << "\"" << (s.dashed ? " stroke-dasharray=\"5 3\"" : "") << "/><text x=\""
      << W - R + 35 << "\" y=\"" << ly << "\">" << esc(s.name) << "</text>";
  }
  o << "</g></svg>";
  return o.str();
}

double log2d(uint64_t b) { return std::log2(double(b)); }

}  // namespace

std::vector<ValidationRow> read_validation_tsv(std::istream& in) {
  std::vector<ValidationRow> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line.rfind("op\t", 0) == 0) continue;
    std::stringstream s(line);
    std::vector<std::string> f;
    std::string x;
    while (std::getline(s, x, '\t')) f.push_back(x);
    if (f.size() != 8) throw std::invalid_argument("validation TSV line " + std::to_string(n) + ": expected 8 fields");
    ValidationRow r;
    try {
      r.op = f[0];
      r.bits = std::stoull(f[1]);
      r.count = std::stoull(f[2]);
      r.variant = f[3];
      r.ipb = uint32_t(std::stoul(f[4]));
      r.measured_us = std::strtod(f[5].c_str(), nullptr);
      r.predicted_us = std::strtod(f[6].c_str(), nullptr);
      r.role = f[7];
    } catch (const std::exception&) {
      throw std::invalid_argument("validation TSV line " + std::to_string(n) + ": bad number");
    }
    out.push_back(r);
  }
  return out;
}

std::string render_report(const ReportInput& in) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << esc(in.title)
    << "</title><style>body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;"
       "margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px;text-align:right}"
       "th{background:#eee}td.l{text-align:left}.bad{background:#fdd}.x{background:#ffd}</style></head><body>\n";
  o << "<h1>" << esc(in.title) << "</h1><p>Device: " << esc(in.device) << ". Generated " << esc(in.generated)
    << ". Models are fitted on sizes &le; 2<sup>14</sup> bits only; every size below is held out.</p>\n";

  std::set<std::string> ops;
  for (const auto& r : in.validation) ops.insert(r.op);
  for (const std::string& op : ops) {
    o << "<h2 id=\"op-" << esc(op) << "\">" << esc(op) << "</h2>\n";
    // Per variant: best over IPB, measured and predicted, per size.
    std::map<std::string, std::map<uint64_t, std::pair<double, double>>> per;
    std::map<uint64_t, std::map<std::string, const ValidationRow*>> roles;
    for (const auto& r : in.validation) {
      if (r.op != op) continue;
      if (r.role == "candidate") {
        auto& e = per[r.variant].try_emplace(r.bits, INFINITY, INFINITY).first->second;
        if (std::isfinite(r.measured_us)) e.first = std::min(e.first, r.measured_us);
        if (std::isfinite(r.predicted_us)) e.second = std::min(e.second, r.predicted_us);
      } else {
        roles[r.bits][r.role] = &r;
      }
    }
    std::vector<Series> series;
    int ci = 0;
    for (const auto& [v, pts] : per) {
      const std::string color = kColors[ci++ % (sizeof(kColors) / sizeof(*kColors))];
      Series m{v + " measured", color, false, {}}, p{v + " predicted", color, true, {}};
      for (const auto& [bits, mp] : pts) {
        m.pts.push_back({log2d(bits), mp.first});
        p.pts.push_back({log2d(bits), mp.second});
      }
      series.push_back(m);
      series.push_back(p);
    }
    o << svg_plot(series, op + ": measured (solid) and predicted (dashed) time, best IPB per variant",
                  "log2(bits)", "time per call (us)")
      << "\n";
    // Ratios per size.
    Series chosen{"chosen / oracle", "#d62728", false, {}}, occ{"occupancy-API, default variant / oracle", "#1f77b4", false, {}},
        def{"default / oracle", "#2ca02c", false, {}}, occ_all{"occupancy-API, all plans / oracle", "#9467bd", false, {}};
    for (const auto& [bits, rs] : roles) {
      const auto o_ = rs.find("oracle");
      if (o_ == rs.end()) continue;
      const double best = o_->second->measured_us;
      auto add = [&](Series& s, const char* role) {
        const auto it = rs.find(role);
        if (it != rs.end()) s.pts.push_back({log2d(bits), it->second->measured_us / best});
      };
      add(chosen, "chosen");
      add(occ, "occupancy_api");
      add(def, "default");
      add(occ_all, "occupancy_all");
    }
    o << svg_plot({chosen, occ_all, occ, def}, op + ": time over the exhaustive best (1 = optimal)", "log2(bits)",
                  "ratio to oracle", false)
      << "\n";
    o << "<table><tr><th>bits</th><th>count</th><th>oracle plan</th><th>oracle us</th><th>chosen plan</th>"
         "<th>predicted us</th><th>chosen / oracle</th><th>occupancy-API (all plans) / oracle</th>"
         "<th>occupancy-API (default variant) / oracle</th><th>default / oracle</th></tr>\n";
    for (const auto& [bits, rs] : roles) {
      const auto ob = rs.find("oracle"), ch = rs.find("chosen");
      if (ob == rs.end() || ch == rs.end()) continue;
      const double best = ob->second->measured_us, r = ch->second->measured_us / best;
      auto ratio = [&](const char* role) {
        const auto it = rs.find(role);
        return it == rs.end() ? std::string("–") : num(it->second->measured_us / best);
      };
      o << "<tr" << (r > 1.25 ? " class=\"bad\"" : "") << "><td>" << bits << "</td><td>" << ob->second->count
        << "</td><td class=\"l\">" << esc(ob->second->variant) << " / " << ob->second->ipb << "</td><td>"
        << num(best, 4) << "</td><td class=\"l\">" << esc(ch->second->variant) << " / " << ch->second->ipb
        << "</td><td>" << num(ch->second->predicted_us, 4) << "</td><td>" << num(r) << "</td><td>"
        << ratio("occupancy_all") << "</td><td>" << ratio("occupancy_api") << "</td><td>" << ratio("default") << "</td></tr>\n";
    }
    o << "</table>\n";
    // Stored decisions at one batch count: the chosen plan per size and the crossovers.
    std::vector<const db::DecisionRecord*> ds;
    for (const auto& d : in.decisions)
      if (d.op == op && d.count.contains(in.decision_count)) ds.push_back(&d);
    std::sort(ds.begin(), ds.end(), [](auto* a, auto* b) { return a->bits.lo < b->bits.lo; });
    if (!ds.empty()) {
      o << "<h3>Stored decisions, batch of " << in.decision_count
        << " (crossovers, where the variant changes, highlighted)</h3><table><tr><th>bits from</th><th>to</th>"
           "<th>variant</th><th>ipb</th><th>predicted us</th></tr>\n";
      std::string prev;
      for (const auto* d : ds) {
        const bool cross = !prev.empty() && prev != d->variant;
        prev = d->variant;
        o << "<tr" << (cross ? " class=\"x\"" : "") << "><td>" << d->bits.lo << "</td><td>" << d->bits.hi - 1
          << "</td><td class=\"l\">" << esc(d->variant) << "</td><td>" << d->ipb << "</td><td>"
          << num(d->predicted_us.value_or(NAN), 4) << "</td></tr>\n";
      }
      o << "</table>\n";
    }
  }
  // Fit errors.
  o << "<h2 id=\"fits\">Fitted models</h2><p>Per variant: the rational functions of (limbs, warps per instance, IPB) "
       "fitted to per-instance counters (degrees chosen by cross-validation; CV = relative RMS on held-out folds), "
       "and the wave model's error on the measured times of the training samples.</p>"
       "<table><tr><th>variant</th><th>instructions</th><th>CV</th><th>global bytes</th><th>CV</th><th>shared "
       "wavefronts</th><th>CV</th><th>time RMS</th><th>time max</th><th>samples</th><th>regs</th></tr>\n";
  for (const auto& [name, m] : in.models) {
    o << "<tr><td class=\"l\">" << esc(name) << "</td>";
    for (const auto& [k, kw] : {std::pair{kMetricInst, kMetricInstWarp}, std::pair{kMetricBytes, kMetricBytes},
                                std::pair{kMetricShared, kMetricSharedWarp}}) {
      auto it = m.metrics.find(k);
      if (it == m.metrics.end()) it = m.metrics.find(kw);
      if (it == m.metrics.end())
        o << "<td>–</td><td>–</td>";
      else
        o << "<td class=\"l\">" << esc(it->first) << ": " << esc(it->second.f.degrees.to_string()) << "</td><td>" << num(it->second.cv_error, 2)
          << "</td>";
    }
    o << "<td" << (m.time_error > 0.15 ? " class=\"bad\"" : "") << ">" << num(100 * m.time_error, 3) << " %</td><td>"
      << num(100 * m.time_max_error, 3) << " %</td><td>" << m.time_samples << "</td><td>" << m.regs << "</td></tr>\n";
  }
  o << "</table>\n</body></html>\n";
  return o.str();
}

}  // namespace bigtune::tuner
