// bigtune_launch_params: the C hook that launches instrumented by the
// bigtune-launch pass call (include/bigtune/launch_hook.h has the contract).
// It looks up the launch policy of the kernel's family, lets it choose the
// parameters, checks them, and records the call in a bounded history.
// CUDA-free: it only handles numbers, so it builds with any C++17 compiler.
// Cost per call: one lock for the policy lookup, one for the history record;
// the runtime's selector is expected to make the policy itself cheap (cache).
#include "bigtune/launch_hook.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace bigtune {
namespace runtime {
namespace {

constexpr size_t kHistoryCapacity = 4096;  // the header promises this many
constexpr uint64_t kMaxThreadsPerBlock = 1024;  // every CUDA architecture so far

struct PolicyTable {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const LaunchPolicy>, std::less<>> by_family;
};

struct History {
  std::mutex mutex;
  std::vector<bigtune_launch_record_t> ring;  // grows to kHistoryCapacity
  uint64_t count = 0;                         // calls recorded since clear
};

PolicyTable& policies() {
  static PolicyTable table;
  return table;
}

History& history() {
  static History h;
  return h;
}

std::shared_ptr<const LaunchPolicy> find_policy(std::string_view family) {
  PolicyTable& table = policies();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.by_family.find(family);
  if (it == table.by_family.end()) it = table.by_family.find(std::string_view("*"));
  return it == table.by_family.end() ? nullptr : it->second;
}

bool valid(const bigtune_launch_params_t& p, const bigtune_launch_params_t& original) {
  if (p.n_variants != original.n_variants || p.variant >= p.n_variants) return false;
  if (!p.grid_x || !p.grid_y || !p.grid_z || !p.block_x || !p.block_y || !p.block_z)
    return false;
  uint64_t threads = uint64_t(p.block_x) * p.block_y * p.block_z;
  return threads <= kMaxThreadsPerBlock;
}

void copy_name(char (&out)[64], const char* in) {
  std::strncpy(out, in ? in : "", sizeof out - 1);
  out[sizeof out - 1] = '\0';
}

void record(const char* kernel, const char* family, const uint64_t* sizes, uint32_t n_sizes,
            int status, const bigtune_launch_params_t& requested,
            const bigtune_launch_params_t& chosen) {
  bigtune_launch_record_t r{};
  copy_name(r.kernel, kernel);
  copy_name(r.family, family);
  r.n_sizes = n_sizes;
  for (uint32_t i = 0; i < n_sizes && i < 4 && sizes; ++i) r.sizes[i] = sizes[i];
  r.status = status;
  r.requested = requested;
  r.chosen = chosen;
  History& h = history();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (h.ring.size() < kHistoryCapacity)
    h.ring.push_back(r);
  else
    h.ring[h.count % kHistoryCapacity] = r;
  ++h.count;
}

}  // namespace

void set_launch_policy(std::string_view family, LaunchPolicy policy) {
  PolicyTable& table = policies();
  std::lock_guard<std::mutex> lock(table.mutex);
  if (policy)
    table.by_family[std::string(family)] = std::make_shared<const LaunchPolicy>(std::move(policy));
  else if (auto it = table.by_family.find(family); it != table.by_family.end())
    table.by_family.erase(it);
}

}  // namespace runtime
}  // namespace bigtune

extern "C" int bigtune_launch_params(const char* kernel, const char* family,
                                     const uint64_t* sizes, uint32_t n_sizes,
                                     bigtune_launch_params_t* inout) {
  using namespace bigtune::runtime;
  if (!inout) return BIGTUNE_LAUNCH_INVALID;
  const bigtune_launch_params_t original = *inout;
  int status = BIGTUNE_LAUNCH_KEPT;
  if (!kernel || !family || (n_sizes && !sizes)) {
    status = BIGTUNE_LAUNCH_INVALID;
  } else if (auto policy = find_policy(family)) {
    bigtune_launch_params_t chosen = original;
    try {
      LaunchRequest request{kernel, family, sizes, n_sizes};
      if ((*policy)(request, chosen)) {
        if (valid(chosen, original)) {
          *inout = chosen;
          status = BIGTUNE_LAUNCH_OK;
        } else {
          status = BIGTUNE_LAUNCH_INVALID;
        }
      }
    } catch (...) {
      status = BIGTUNE_LAUNCH_POLICY_FAILED;
    }
  }
  try {
    record(kernel, family, sizes, n_sizes, status, original, *inout);
  } catch (...) {
    // Out of memory while growing the history: the launch matters more.
  }
  return status;
}

extern "C" uint64_t bigtune_launch_history_count(void) {
  auto& h = bigtune::runtime::history();
  std::lock_guard<std::mutex> lock(h.mutex);
  return h.count;
}

extern "C" int bigtune_launch_history_get(uint64_t index, bigtune_launch_record_t* out) {
  auto& h = bigtune::runtime::history();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (!out || index >= h.ring.size()) return -1;
  // Once the ring is full, the oldest kept record sits where the next goes.
  uint64_t oldest = h.ring.size() < bigtune::runtime::kHistoryCapacity
                        ? 0
                        : h.count % bigtune::runtime::kHistoryCapacity;
  *out = h.ring[(oldest + index) % h.ring.size()];
  return 0;
}

extern "C" void bigtune_launch_history_clear(void) {
  auto& h = bigtune::runtime::history();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.ring.clear();
  h.count = 0;
}
