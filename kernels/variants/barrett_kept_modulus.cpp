// The table of kept Barrett constants (barrett_kept_modulus.hpp).
#include "kernels/variants/barrett_kept_modulus.hpp"

#include <mutex>
#include <vector>

namespace bigtune::kernels::variants {
namespace {

struct Region {
  unsigned long long stream_id;
  uint32_t n;
  void* base;
};

// A few sizes on a few live streams; a full table stops caching (a stream
// destroyed without barrett_forget_stream leaves its regions here).
constexpr size_t kMaxRegions = 64;

// Made on first use and never destroyed: a Context destroyed at exit (a
// static one) may still call barrett_forget_stream after other statics are gone.
std::mutex& table_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}
std::vector<Region>& table() {
  static std::vector<Region>* t = new std::vector<Region>;
  return *t;
}

uint64_t region_words(uint32_t n) { return 4 * uint64_t(n) + 3; }

BarrettKept carve(void* base, uint32_t n) {
  uint64_t* w = static_cast<uint64_t*>(base);
  BarrettKept k;
  k.m = w;
  k.mprime = w + n;
  k.mu = w + 2 * uint64_t(n);
  k.mu2 = reinterpret_cast<uint32_t*>(w + 3 * uint64_t(n));
  k.shift = reinterpret_cast<uint32_t*>(w + 4 * uint64_t(n) + 1);
  k.valid = w + 4 * uint64_t(n) + 2;
  return k;
}

bool stream_id(cudaStream_t stream, unsigned long long* id) {
  if (cudaStreamGetId(stream, id) == cudaSuccess) return true;
  (void)cudaGetLastError();  // (not the caller's error)
  return false;
}

}  // namespace

bool barrett_kept_region(cudaStream_t stream, uint32_t n, BarrettKept* out) {
  unsigned long long id = 0;
  if (!stream_id(stream, &id)) return false;
  std::lock_guard<std::mutex> lock(table_mutex());
  for (const Region& r : table()) {
    if (r.stream_id == id && r.n == n) {
      *out = carve(r.base, n);
      return true;
    }
  }
  if (table().size() >= kMaxRegions) return false;
  const size_t bytes = region_words(n) * 8;
  void* base = nullptr;
  if (cudaMalloc(&base, bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  // Zero on the region's own stream: valid = 0 until a call stores m.
  if (cudaMemsetAsync(base, 0, bytes, stream) != cudaSuccess) {
    (void)cudaGetLastError();
    cudaFree(base);
    return false;
  }
  table().push_back({id, n, base});
  *out = carve(base, n);
  return true;
}

void barrett_forget_stream(cudaStream_t stream) {
  unsigned long long id = 0;
  if (!stream_id(stream, &id)) return;
  std::lock_guard<std::mutex> lock(table_mutex());
  std::vector<Region>& t = table();
  bool waited = false;
  for (size_t i = 0; i < t.size();) {
    if (t[i].stream_id != id) {
      ++i;
      continue;
    }
    if (!waited) (void)cudaStreamSynchronize(stream), waited = true;
    cudaFree(t[i].base);
    t[i] = t.back();
    t.pop_back();
  }
  (void)cudaGetLastError();
}

}  // namespace bigtune::kernels::variants
