#include "profiler/isolated.hpp"

#include <cstdlib>
#include <memory>
#include <sstream>

#include "bigtune/error.hpp"
#include "profiler/counters.hpp"

namespace bigtune::profiler {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[i + 1] == 'n' ? '\n' : s[i + 1];
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Calls `f(key, value)` for each "key value" line.
template <class F>
void for_each_line(const std::string& text, F f) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t space = line.find(' ');
    f(line.substr(0, space), space == std::string::npos ? std::string() : line.substr(space + 1));
  }
}

std::string number(double x) {
  std::ostringstream out;
  out.precision(17);
  out << x;
  return out.str();
}

TimingBackend parse_backend(const std::string& name) {
  if (name == "cupti") return TimingBackend::Cupti;
  if (name == "events") return TimingBackend::Events;
  if (name == "auto") return TimingBackend::Auto;
  throw Error(ErrorCode::InvalidArgument, "unknown timing backend '" + name + "'");
}

// Worker-side state kept across requests.
struct HandlerState {
  TargetFactory factory;
  std::unique_ptr<Timer> timer;
  std::unique_ptr<CounterSession> session;
  std::vector<std::string> session_metrics;
  std::string counters_unavailable;  // sticky once refused
};

std::string handle(HandlerState& st, const std::string& text) {
  const MeasureRequest req = decode_request(text);
  const LaunchTarget target = st.factory(req.target);
  if (!target.launch) throw Error(ErrorCode::Internal, "the target factory returned no launch function");

  MeasureResult result;
  if (!st.timer) st.timer = std::make_unique<Timer>();
  TimingOptions o;
  o.warmup = req.warmup;
  o.repetitions = req.repetitions;
  o.rotations = target.rotations < 1 ? 1 : target.rotations;
  o.kernels_per_launch = target.kernels_per_launch;
  o.backend = req.backend;
  o.flush_l2 = req.flush_l2;
  const TimingResult t = st.timer->time(target.launch, o);
  result.backend = timing_backend_name(t.backend);
  result.fallback_reason = t.fallback_reason;
  result.samples_ns = t.samples_ns;

  if (req.counters) {
    const std::vector<std::string> metrics = req.metrics.empty() ? default_metrics() : req.metrics;
    if (st.session && st.session_metrics != metrics) st.session.reset();
    if (!st.session && st.counters_unavailable.empty()) {
      CounterOptions co;
      co.metrics = metrics;
      try {
        st.session = std::make_unique<CounterSession>(co);
        st.session_metrics = metrics;
      } catch (const CountersUnavailable& e) {
        st.counters_unavailable = e.what();
      }
    }
    result.counters_unavailable = st.counters_unavailable;
    if (st.session) {
      const CounterSample s =
          st.session->measure([&](cudaStream_t stream) { target.launch(stream, 0); }, target.kernels_per_launch);
      if (!s.ok) result.counters_error = s.error;
      for (std::size_t i = 0; i < s.names.size() && s.ok; ++i) result.counters.emplace_back(s.names[i], s.values[i]);
      for (const RejectedMetric& m : st.session->rejected()) result.rejected_metrics.emplace_back(m.name, m.reason);
    }
  }
  return encode_result(result);
}

}  // namespace

std::string encode_request(const MeasureRequest& r) {
  std::ostringstream out;
  out << "target " << escape(r.target) << '\n'
      << "warmup " << r.warmup << '\n'
      << "repetitions " << r.repetitions << '\n'
      << "backend " << timing_backend_name(r.backend) << '\n'
      << "flush_l2 " << (r.flush_l2 ? 1 : 0) << '\n'
      << "counters " << (r.counters ? 1 : 0) << '\n';
  for (const std::string& m : r.metrics) out << "metric " << escape(m) << '\n';
  return out.str();
}

MeasureRequest decode_request(const std::string& text) {
  MeasureRequest r;
  for_each_line(text, [&](const std::string& key, const std::string& value) {
    if (key == "target") r.target = unescape(value);
    else if (key == "warmup") r.warmup = std::atoi(value.c_str());
    else if (key == "repetitions") r.repetitions = std::atoi(value.c_str());
    else if (key == "backend") r.backend = parse_backend(value);
    else if (key == "flush_l2") r.flush_l2 = value == "1";
    else if (key == "counters") r.counters = value == "1";
    else if (key == "metric") r.metrics.push_back(unescape(value));
    else throw Error(ErrorCode::InvalidArgument, "unknown request field '" + key + "'");
  });
  return r;
}

std::string encode_result(const MeasureResult& r) {
  std::ostringstream out;
  out << "backend " << r.backend << '\n';
  if (!r.fallback_reason.empty()) out << "fallback_reason " << escape(r.fallback_reason) << '\n';
  out << "samples_ns";
  for (double s : r.samples_ns) out << ' ' << number(s);
  out << '\n';
  for (const auto& [name, value] : r.counters) out << "counter " << escape(name) << ' ' << number(value) << '\n';
  if (!r.counters_error.empty()) out << "counters_error " << escape(r.counters_error) << '\n';
  if (!r.counters_unavailable.empty()) out << "counters_unavailable " << escape(r.counters_unavailable) << '\n';
  for (const auto& [name, reason] : r.rejected_metrics)
    out << "rejected " << escape(name) << ' ' << escape(reason) << '\n';
  return out.str();
}

MeasureResult decode_result(const std::string& text) {
  MeasureResult r;
  r.outcome = Outcome::Ok;
  for_each_line(text, [&](const std::string& key, const std::string& value) {
    if (key == "backend") {
      r.backend = value;
    } else if (key == "fallback_reason") {
      r.fallback_reason = unescape(value);
    } else if (key == "samples_ns") {
      std::istringstream in(value);
      double x;
      while (in >> x) r.samples_ns.push_back(x);
    } else if (key == "counter" || key == "rejected") {
      // Metric names contain no spaces: the first word is the name.
      const std::size_t space = value.find(' ');
      const std::string name = unescape(value.substr(0, space));
      const std::string rest = space == std::string::npos ? std::string() : value.substr(space + 1);
      if (key == "counter") r.counters.emplace_back(name, std::strtod(rest.c_str(), nullptr));
      else r.rejected_metrics.emplace_back(name, unescape(rest));
    } else if (key == "counters_error") {
      r.counters_error = unescape(value);
    } else if (key == "counters_unavailable") {
      r.counters_unavailable = unescape(value);
    }
  });
  r.summary = summarize(r.samples_ns);
  return r;
}

WorkerHandler measurement_handler(TargetFactory factory) {
  auto state = std::make_shared<HandlerState>();
  state->factory = std::move(factory);
  return [state](const std::string& request) { return handle(*state, request); };
}

MeasureResult measure_isolated(Worker& worker, const MeasureRequest& request, double timeout_seconds) {
  const WorkerReply reply = worker.call(encode_request(request), timeout_seconds);
  MeasureResult r;
  if (reply.outcome == Outcome::Ok) {
    r = decode_result(reply.payload);
  } else {
    r.outcome = reply.outcome;
    r.reason = reply.reason;
  }
  r.seconds = reply.seconds;
  return r;
}

}  // namespace bigtune::profiler
