#include "profiler/isolated.hpp"

#include <cstdlib>
#include <memory>
#include <optional>
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

Outcome parse_outcome(const std::string& name) {
  if (name == "ok") return Outcome::Ok;
  if (name == "timeout") return Outcome::Timeout;
  if (name == "invalid") return Outcome::Invalid;
  return Outcome::Fault;
}

bool refused(const Error& e) { return e.code() == ErrorCode::InvalidArgument || e.code() == ErrorCode::Unsupported; }

// Worker-side state kept across requests.
struct HandlerState {
  TargetFactory factory;
  std::unique_ptr<Timer> timer;
  std::unique_ptr<CounterSession> session;
  std::vector<std::string> session_metrics;
  std::string counters_unavailable;  // sticky once refused
};

void read_counters(HandlerState& st, const MeasureRequest& req, const std::vector<std::optional<LaunchTarget>>& targets,
                   std::vector<MeasureResult>& results) {
  const std::vector<std::string> metrics = req.metrics.empty() ? default_metrics() : req.metrics;
  if (st.session && st.session_metrics != metrics) st.session.reset();
  if (!st.session && st.counters_unavailable.empty()) {
    CounterOptions co;
    co.metrics = metrics;
    co.max_ranges = 256;
    try {
      st.session = std::make_unique<CounterSession>(co);
      st.session_metrics = metrics;
    } catch (const Error& e) {
      // Refused (CountersUnavailable) or CUPTI failed to set up: either way
      // durations are still good; say why there are no counters, once for all.
      if (e.code() != ErrorCode::Profiler) throw;
      st.counters_unavailable = e.what();
    }
  }
  std::vector<std::size_t> measured;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    MeasureResult& r = results[i];
    if (r.outcome != Outcome::Ok) continue;
    r.counters_unavailable = st.counters_unavailable;
    if (!st.session) continue;
    for (const RejectedMetric& m : st.session->rejected()) r.rejected_metrics.emplace_back(m.name, m.reason);
    const LaunchTarget& t = *targets[i];
    st.session->add([&t](cudaStream_t stream) { t.launch(stream, 0); }, t.kernels_per_launch);
    measured.push_back(i);
  }
  if (measured.empty()) return;
  const std::vector<CounterSample> samples = st.session->collect();
  for (std::size_t k = 0; k < measured.size() && k < samples.size(); ++k) {
    MeasureResult& r = results[measured[k]];
    const CounterSample& s = samples[k];
    if (!s.ok) {
      r.counters_error = s.error;
      continue;
    }
    for (std::size_t m = 0; m < s.names.size(); ++m) r.counters.emplace_back(s.names[m], s.values[m]);
  }
}

std::string handle(HandlerState& st, const std::string& text) {
  const MeasureRequest req = decode_request(text);
  std::vector<std::optional<LaunchTarget>> targets(req.targets.size());
  std::vector<MeasureResult> results(req.targets.size());
  for (std::size_t i = 0; i < req.targets.size(); ++i) {
    results[i].target = req.targets[i];
    results[i].outcome = Outcome::Ok;
    try {
      targets[i] = st.factory(req.targets[i]);
      if (!targets[i]->launch) throw Error(ErrorCode::Internal, "the target factory returned no launch function");
    } catch (const Error& e) {
      if (!refused(e)) throw;
      results[i].outcome = Outcome::Invalid;
      results[i].reason = e.what();
    }
  }

  for (std::size_t i = 0; i < targets.size(); ++i) {
    MeasureResult& r = results[i];
    if (r.outcome != Outcome::Ok) continue;
    const LaunchTarget& t = *targets[i];
    if (!st.timer) st.timer = std::make_unique<Timer>();  // CUDA only once a target is valid
    TimingOptions o;
    o.warmup = req.warmup;
    o.repetitions = req.repetitions;
    o.rotations = t.rotations < 1 ? 1 : t.rotations;
    o.kernels_per_launch = t.kernels_per_launch;
    o.backend = req.backend;
    o.flush_l2 = req.flush_l2;
    try {
      const TimingResult timing = st.timer->time(t.launch, o);
      r.backend = timing_backend_name(timing.backend);
      r.fallback_reason = timing.fallback_reason;
      r.samples_ns = timing.samples_ns;
      r.summary = timing.summary;
    } catch (const Error& e) {
      if (!refused(e)) throw;  // a fault: the context is gone, the parent sorts the batch out
      r.outcome = Outcome::Invalid;  // the device refused the launch; the context is fine
      r.reason = e.what();
    }
  }
  if (req.counters) read_counters(st, req, targets, results);
  return encode_results(results);
}

}  // namespace

std::string encode_request(const MeasureRequest& r) {
  std::ostringstream out;
  for (const std::string& t : r.targets) out << "target " << escape(t) << '\n';
  out << "warmup " << r.warmup << '\n'
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
    if (key == "target") r.targets.push_back(unescape(value));
    else if (key == "warmup") r.warmup = std::atoi(value.c_str());
    else if (key == "repetitions") r.repetitions = std::atoi(value.c_str());
    else if (key == "backend") r.backend = parse_timing_backend(value);
    else if (key == "flush_l2") r.flush_l2 = value == "1";
    else if (key == "counters") r.counters = value == "1";
    else if (key == "metric") r.metrics.push_back(unescape(value));
    else throw Error(ErrorCode::InvalidArgument, "unknown request field '" + key + "'");
  });
  return r;
}

// Each result starts with its "target" line.
std::string encode_results(const std::vector<MeasureResult>& results) {
  std::ostringstream out;
  for (const MeasureResult& r : results) {
    out << "target " << escape(r.target) << '\n' << "outcome " << outcome_name(r.outcome) << '\n';
    if (!r.reason.empty()) out << "reason " << escape(r.reason) << '\n';
    if (!r.backend.empty()) out << "backend " << r.backend << '\n';
    if (!r.fallback_reason.empty()) out << "fallback_reason " << escape(r.fallback_reason) << '\n';
    out << "samples_ns";
    for (double s : r.samples_ns) out << ' ' << number(s);
    out << '\n';
    for (const auto& [name, value] : r.counters) out << "counter " << escape(name) << ' ' << number(value) << '\n';
    if (!r.counters_error.empty()) out << "counters_error " << escape(r.counters_error) << '\n';
    if (!r.counters_unavailable.empty()) out << "counters_unavailable " << escape(r.counters_unavailable) << '\n';
    for (const auto& [name, reason] : r.rejected_metrics)
      out << "rejected " << escape(name) << ' ' << escape(reason) << '\n';
  }
  return out.str();
}

std::vector<MeasureResult> decode_results(const std::string& text) {
  std::vector<MeasureResult> results;
  for_each_line(text, [&](const std::string& key, const std::string& value) {
    if (key == "target") {
      results.emplace_back();
      results.back().target = unescape(value);
      return;
    }
    if (results.empty()) throw Error(ErrorCode::Internal, "worker reply without a target line");
    MeasureResult& r = results.back();
    if (key == "outcome") {
      r.outcome = parse_outcome(value);
    } else if (key == "reason") {
      r.reason = unescape(value);
    } else if (key == "backend") {
      r.backend = value;
    } else if (key == "fallback_reason") {
      r.fallback_reason = unescape(value);
    } else if (key == "samples_ns") {
      std::istringstream in(value);
      double x;
      while (in >> x) r.samples_ns.push_back(x);
      r.summary = summarize(r.samples_ns);
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
  return results;
}

WorkerHandler measurement_handler(TargetFactory factory) {
  auto state = std::make_shared<HandlerState>();
  state->factory = std::move(factory);
  return [state](const std::string& request) { return handle(*state, request); };
}

std::vector<MeasureResult> measure_isolated(Worker& worker, const MeasureRequest& request, double timeout_seconds) {
  const std::size_t n = request.targets.size();
  if (n == 0) return {};
  const WorkerReply reply = worker.call(encode_request(request), timeout_seconds * static_cast<double>(n + 1));
  std::vector<MeasureResult> results;
  if (reply.outcome == Outcome::Ok) {
    results = decode_results(reply.payload);
    if (results.size() != n)
      throw Error(ErrorCode::Internal, "the worker answered " + std::to_string(results.size()) + " results for " +
                                           std::to_string(n) + " targets");
  } else if (n > 1 && reply.outcome != Outcome::Invalid) {
    // The batch died (fault or hang): measure each target alone to learn which.
    for (const std::string& target : request.targets) {
      MeasureRequest one = request;
      one.targets = {target};
      results.push_back(measure_isolated(worker, one, timeout_seconds).front());
    }
    return results;
  } else {
    results.assign(n, MeasureResult{});
    for (std::size_t i = 0; i < n; ++i) {
      results[i].target = request.targets[i];
      results[i].outcome = reply.outcome;
      results[i].reason = reply.reason;
    }
  }
  for (MeasureResult& r : results) r.seconds = reply.seconds;
  return results;
}

}  // namespace bigtune::profiler
