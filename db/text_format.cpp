// Writing and reading the tab-separated export format (see text_format.hpp).
#include "db/text_format.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <ostream>
#include <vector>

#include "bigtune/error.hpp"

namespace bigtune::db {
namespace {

constexpr const char* kMagic = "bigtune-tuning";
constexpr const char* kNull = "\\N";

// ---- writing ----

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out;
}

std::string real(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.17g", v);
  return buffer;
}

std::string opt(const std::optional<double>& v) { return v ? real(*v) : kNull; }
std::string opt(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : kNull; }

std::string metric_map(const std::map<std::string, double>& values) {
  std::string out;
  for (const auto& [name, value] : values) {
    for (char c : name) {
      if (c == ' ' || c == '=' || static_cast<unsigned char>(c) < 0x20) {
        throw Error(ErrorCode::InvalidArgument, "metric name '" + name + "' cannot be exported",
                    "metric names must not contain spaces, '=' or control characters");
      }
    }
    if (!out.empty()) out += ' ';
    out += name + "=" + real(value);
  }
  return out;
}

std::string reals(const std::vector<double>& values) {
  std::string out;
  for (double v : values) out += (out.empty() ? "" : " ") + real(v);
  return out;
}

void line(std::ostream& out, std::initializer_list<std::string> fields) {
  bool first = true;
  for (const std::string& f : fields) {
    if (!first) out << '\t';
    out << f;
    first = false;
  }
  out << '\n';
}

// ---- reading ----

class Fields {
 public:
  Fields(std::vector<std::string> fields, std::string where)
      : fields_(std::move(fields)), where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::InvalidArgument, where_ + ": " + what,
                "check the file against docs/database.md, \"Export format\"");
  }
  void expect(size_t n) const {
    if (fields_.size() != n + 1) {
      fail("a " + fields_[0] + " line has " + std::to_string(fields_.size() - 1) +
           " fields, expected " + std::to_string(n));
    }
  }
  bool is_null(size_t i) const { return fields_[i] == kNull; }
  std::string text(size_t i) const {
    if (is_null(i)) return {};
    std::string out;
    const std::string& raw = fields_[i];
    for (size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] != '\\') { out += raw[k]; continue; }
      if (++k == raw.size()) fail("field " + std::to_string(i) + " ends in a lone backslash");
      switch (raw[k]) {
        case '\\': out += '\\'; break;
        case 't': out += '\t'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        default: fail(std::string("unknown escape \\") + raw[k]);
      }
    }
    return out;
  }
  int64_t integer(size_t i) const {
    const std::string& raw = fields_[i];
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(raw.c_str(), &end, 10);
    if (raw.empty() || *end != '\0' || errno != 0) fail("field " + std::to_string(i) + " '" + raw + "' is not an integer");
    return v;
  }
  uint64_t size(size_t i) const {
    const int64_t v = integer(i);
    if (v < 0) fail("field " + std::to_string(i) + " must not be negative");
    return static_cast<uint64_t>(v);
  }
  double number(size_t i) const { return parse_real(fields_[i], i); }
  std::optional<double> opt_real(size_t i) const {
    if (is_null(i)) return std::nullopt;
    return number(i);
  }
  std::optional<int64_t> opt_integer(size_t i) const {
    if (is_null(i)) return std::nullopt;
    return integer(i);
  }
  std::vector<double> reals(size_t i) const {
    std::vector<double> out;
    for (const std::string& word : split(fields_[i], ' ')) out.push_back(parse_real(word, i));
    return out;
  }
  std::map<std::string, double> metric_map(size_t i) const {
    std::map<std::string, double> out;
    for (const std::string& item : split(fields_[i], ' ')) {
      const size_t eq = item.find('=');
      if (eq == std::string::npos) fail("'" + item + "' in field " + std::to_string(i) + " is not name=value");
      out[item.substr(0, eq)] = parse_real(item.substr(eq + 1), i);
    }
    return out;
  }

  static std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    if (text.empty()) return out;
    while (true) {
      const size_t at = text.find(sep, start);
      out.push_back(text.substr(start, at - start));
      if (at == std::string::npos) return out;
      start = at + 1;
    }
  }

 private:
  double parse_real(const std::string& raw, size_t i) const {
    char* end = nullptr;
    const double v = std::strtod(raw.c_str(), &end);
    if (raw.empty() || *end != '\0') fail("field " + std::to_string(i) + " '" + raw + "' is not a number");
    return v;
  }

  std::vector<std::string> fields_;
  std::string where_;
};

}  // namespace

void write_text(std::ostream& out, const Dump& dump) {
  line(out, {kMagic, std::to_string(kTextFormatVersion)});
  for (const DeviceRecord& d : dump.devices) {
    line(out, {"device", escape(d.uuid), escape(d.name), std::to_string(d.cc_major),
               std::to_string(d.cc_minor), std::to_string(d.sm_count),
               opt(d.max_threads_per_block), opt(d.smem_per_block_optin), opt(d.regs_per_block),
               opt(d.global_memory_bytes), escape(d.first_seen), metric_map(d.probes)});
  }
  for (const VariantRecord& v : dump.variants) {
    line(out, {"variant", escape(v.name), escape(v.build_id), escape(v.op), escape(v.family),
               escape(v.algorithm), std::to_string(v.limb_bits), std::to_string(v.q)});
  }
  for (const SampleRecord& s : dump.samples) {
    line(out, {"sample", escape(s.device_uuid), escape(s.variant_name), escape(s.build_id),
               std::to_string(s.bits), std::to_string(s.count), std::to_string(s.ipb),
               sample_status_name(s.status), s.reason.empty() ? kNull : escape(s.reason),
               std::to_string(s.reps), opt(s.time_us_median), opt(s.time_us_min),
               opt(s.time_us_max), escape(s.measured_at), metric_map(s.counters)});
  }
  for (const ModelRecord& m : dump.models) {
    line(out, {"model", escape(m.device_uuid), escape(m.variant_name), escape(m.build_id),
               escape(m.metric), escape(m.degrees), reals(m.coefficients), opt(m.fit_error),
               std::to_string(m.sample_count), escape(m.fitted_at)});
  }
  for (const DecisionRecord& d : dump.decisions) {
    line(out, {"decision", escape(d.device_uuid), escape(d.op), std::to_string(d.bits.lo),
               std::to_string(d.bits.hi), std::to_string(d.count.lo), std::to_string(d.count.hi),
               escape(d.variant), std::to_string(d.ipb), opt(d.predicted_us),
               opt(d.measured_us), escape(d.source), escape(d.decided_at)});
  }
  for (const HistoryRecord& h : dump.history) {
    line(out, {"history", escape(h.device_uuid), escape(h.op), std::to_string(h.bits),
               std::to_string(h.count), escape(h.variant), std::to_string(h.ipb),
               escape(h.source), opt(h.predicted_us), opt(h.measured_us),
               std::to_string(h.calls), escape(h.first_at), escape(h.last_at)});
  }
}

Dump read_text(std::istream& in, const std::string& origin) {
  Dump dump;
  std::string text;
  size_t number = 0;
  bool seen_header = false;
  int64_t version = 0;
  while (std::getline(in, text)) {
    ++number;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text[0] == '#') continue;
    Fields f(Fields::split(text, '\t'), origin + ":" + std::to_string(number));
    if (!seen_header) {
      if (text.rfind(kMagic, 0) != 0) f.fail("not a bigtune export (the first line must be 'bigtune-tuning<TAB>' and a version)");
      f.expect(1);
      version = f.integer(1);
      if (version > kTextFormatVersion) {
        throw Error(ErrorCode::InvalidArgument,
                    origin + " is export format v" + std::to_string(version) +
                        "; this bigtune reads up to v" + std::to_string(kTextFormatVersion),
                    "upgrade bigtune, or export again with the older one");
      }
      if (version < 1) f.fail("format version must be at least 1");
      seen_header = true;
      continue;
    }
    const std::string kind = f.text(0);
    if (kind == "device") {
      f.expect(11);
      dump.devices.push_back({f.text(1), f.text(2), static_cast<int>(f.integer(3)),
                              static_cast<int>(f.integer(4)), static_cast<int>(f.integer(5)),
                              f.opt_integer(6), f.opt_integer(7), f.opt_integer(8),
                              f.opt_integer(9), {}, f.text(10)});
      dump.devices.back().probes = f.metric_map(11);
    } else if (kind == "variant") {
      f.expect(7);
      dump.variants.push_back({f.text(1), f.text(2), f.text(3), f.text(4), f.text(5),
                               static_cast<int>(f.integer(6)), static_cast<int>(f.integer(7))});
    } else if (kind == "sample") {
      f.expect(14);
      SampleRecord s;
      s.device_uuid = f.text(1);
      s.variant_name = f.text(2);
      s.build_id = f.text(3);
      s.bits = f.size(4);
      s.count = f.size(5);
      s.ipb = static_cast<uint32_t>(f.size(6));
      const auto status = parse_sample_status(f.text(7));
      if (!status) f.fail("unknown sample status '" + f.text(7) + "'");
      s.status = *status;
      s.reason = f.text(8);
      s.reps = static_cast<int>(f.integer(9));
      s.time_us_median = f.opt_real(10);
      s.time_us_min = f.opt_real(11);
      s.time_us_max = f.opt_real(12);
      s.measured_at = f.text(13);
      s.counters = f.metric_map(14);
      dump.samples.push_back(std::move(s));
    } else if (kind == "model") {
      f.expect(9);
      dump.models.push_back({f.text(1), f.text(2), f.text(3), f.text(4), f.text(5),
                             f.reals(6), f.opt_real(7), static_cast<int>(f.integer(8)),
                             f.text(9)});
    } else if (kind == "decision") {
      f.expect(12);
      DecisionRecord d;
      d.device_uuid = f.text(1);
      d.op = f.text(2);
      d.bits = {f.size(3), f.size(4)};
      // v1 files bucketed bits as [2^k, 1.25 2^k); v2 as (2^k, 1.25 2^k]
      // (db/buckets.hpp). The same one-bit move as the schema v3 migration.
      if (version < 2 && d.bits.lo >= 8) d.bits = {d.bits.lo + 1, d.bits.hi + 1};
      d.count = {f.size(5), f.size(6)};
      d.variant = f.text(7);
      d.ipb = static_cast<uint32_t>(f.size(8));
      d.predicted_us = f.opt_real(9);
      d.measured_us = f.opt_real(10);
      d.source = f.text(11);
      d.decided_at = f.text(12);
      dump.decisions.push_back(std::move(d));
    } else if (kind == "history") {
      f.expect(12);
      HistoryRecord h;
      h.device_uuid = f.text(1);
      h.op = f.text(2);
      h.bits = f.size(3);
      h.count = f.size(4);
      h.variant = f.text(5);
      h.ipb = static_cast<uint32_t>(f.size(6));
      h.source = f.text(7);
      h.predicted_us = f.opt_real(8);
      h.measured_us = f.opt_real(9);
      h.calls = f.integer(10);
      h.first_at = f.text(11);
      h.last_at = f.text(12);
      dump.history.push_back(std::move(h));
    } else {
      f.fail("unknown record kind '" + kind + "'");
    }
  }
  if (!seen_header) {
    throw Error(ErrorCode::InvalidArgument, origin + " is empty, not a bigtune export",
                "export one with `bigtune db export`");
  }
  return dump;
}

}  // namespace bigtune::db
