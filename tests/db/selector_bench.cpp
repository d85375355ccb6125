// Selector cost per call (a benchmark, not a test; issue 7's targets:
// <= 0.5 us on a cache hit, <= 20 us on a miss). Prints the median of
// several rounds for: a hit on one thread, hits from N threads at once, and a
// miss answered by a stored decision. Usage: bigtune_selector_bench [threads]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include "db/buckets.hpp"
#include "db/store.hpp"
#include "runtime/selector.hpp"

using namespace bigtune;
using Clock = std::chrono::steady_clock;

namespace {

std::optional<Plan> default_plan(const std::string&, uint64_t, uint64_t,
                                 const runtime::DeviceIdentity&) {
  return Plan{"mul.classical.u64.q4", 1, "", 0};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 8;
  const std::string path = (std::filesystem::temp_directory_path() / "bigtune-bench.db").string();
  std::filesystem::remove(path);
  auto store = std::make_shared<db::Store>(path);
  const runtime::DeviceIdentity card{"NVIDIA H100 80GB HBM3", "GPU-bench", 9, 0, 132};
  db::DeviceRecord d;
  d.uuid = card.uuid;
  d.name = card.name;
  store->put_device(d);
  std::vector<db::DecisionRecord> decisions;
  for (uint64_t bits = 64; bits < (uint64_t{1} << 24); bits = db::bits_bucket(bits).hi) {
    db::DecisionRecord r;
    r.device_uuid = card.uuid;
    r.op = "mul";
    r.bits = db::bits_bucket(bits);
    r.count = db::count_bucket(1024);
    r.variant = "mul.classical.u64.q4";
    r.source = "tuner";
    decisions.push_back(r);
  }
  store->put_decisions(decisions);
  runtime::SelectorOptions options;
  options.use_profiles = false;
  runtime::Selector selector(store, default_plan, options);

  constexpr int kCalls = 1'000'000;
  std::vector<double> rounds;
  selector.plan("mul", 100000, 1024, card);
  for (int r = 0; r < 5; ++r) {
    const auto t0 = Clock::now();
    for (int i = 0; i < kCalls; ++i) selector.plan("mul", 100000, 1024, card);
    rounds.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kCalls);
  }
  std::printf("hit, 1 thread:        %8.1f ns/call (median of 5 x %d)\n", median(rounds), kCalls);

  rounds.clear();
  for (int r = 0; r < 5; ++r) {
    std::vector<std::thread> pool;
    const auto t0 = Clock::now();
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        const uint64_t bits = 100000 + 64 * static_cast<uint64_t>(t);
        for (int i = 0; i < kCalls; ++i) selector.plan("mul", bits, 1024, card);
      });
    }
    for (auto& th : pool) th.join();
    rounds.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kCalls);
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("hit, %d threads:       %8.1f ns/call of CPU time (wall x min(threads, %u cores) / "
              "all calls)\n", threads, median(rounds) * std::min<unsigned>(threads, cores) / threads,
              cores);

  rounds.clear();
  for (int r = 0; r < 5; ++r) {
    selector.invalidate();  // (flushes the counted calls first, outside the timing)
    constexpr int kMisses = 2000;
    const auto t0 = Clock::now();
    for (int i = 0; i < kMisses; ++i) selector.plan("mul", 70000 + 37 * i, 1024, card);
    rounds.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / kMisses);
  }
  std::printf("miss -> decision:     %8.2f us/call (median of 5 x 2000)\n", median(rounds));

  rounds.clear();
  for (int r = 0; r < 5; ++r) {
    selector.invalidate();
    constexpr int kMisses = 2000;
    const auto t0 = Clock::now();
    // count 3 has no decision: every source is asked, down to the default.
    for (int i = 0; i < kMisses; ++i) selector.plan("mul", 70000 + 37 * i, 3, card);
    rounds.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / kMisses);
  }
  std::printf("miss -> default:      %8.2f us/call (median of 5 x 2000; all sources asked)\n",
              median(rounds));
  std::filesystem::remove(path);
  return 0;
}
