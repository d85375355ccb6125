// A host warp for CPU tests of warp-level device code: 32 host threads play
// the lanes of one warp and the intrinsics the kernels use (shuffles,
// ballots, reductions, atomicOr) are emulated with a barrier — each one is
// publish, meet, read, meet. Include it BEFORE any kernel header: it defines
// the CUDA keywords away and BIGTUNE_WARP_EMULATION (kernel headers then
// leave out their __global__ wrappers). Used by
// tests/unit/warp_emulation_test.cpp (the warp product and division kernels)
// and tests/unit/warp_mod_emulation_test.cpp (warp Montgomery).
#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#define BIGTUNE_WARP_EMULATION 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
// Shared memory: one function-static array per kernel instance, shared by
// the 32 host lanes (run_warp plays one warp per block, blocks one after
// another, so it stands for the block's shared memory).
#define __shared__ static

namespace emu {
struct Dim3 {
  unsigned x = 0, y = 0, z = 0;
};
inline thread_local Dim3 thread_idx, block_idx;

class Warp {
 public:
  void sync() {
    std::unique_lock<std::mutex> lock(mu_);
    const uint64_t gen = generation_;
    if (++arrived_ == 32) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return generation_ != gen; });
    }
  }
  uint64_t slot[32];

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int arrived_ = 0;
  uint64_t generation_ = 0;
};
inline thread_local Warp* warp = nullptr;

inline uint64_t exchange_from(uint64_t mine, int src) {
  const int lane = int(thread_idx.x & 31);
  warp->slot[lane] = mine;
  warp->sync();
  const uint64_t got = warp->slot[src];
  warp->sync();
  return got;
}

// Runs body(lane) on 32 host threads as one warp of block `block`.
template <class Body>
void run_warp(unsigned block, Body&& body) {
  Warp w;
  std::vector<std::thread> lanes;
  for (unsigned t = 0; t < 32; ++t)
    lanes.emplace_back([&, t] {
      warp = &w;
      thread_idx.x = t;
      block_idx.x = block;
      body(t);
    });
  for (auto& th : lanes) th.join();
}
}  // namespace emu

#define threadIdx (emu::thread_idx)
#define blockIdx (emu::block_idx)

struct uint2 {
  uint32_t x, y;
};
struct uint4 {
  uint32_t x, y, z, w;
};
inline uint2 make_uint2(uint32_t x, uint32_t y) { return {x, y}; }
inline uint4 make_uint4(uint32_t x, uint32_t y, uint32_t z, uint32_t w) { return {x, y, z, w}; }
template <class T>
T __ldg(const T* p) { return *p; }

inline uint32_t __shfl_sync(unsigned, uint32_t v, int src, int width = 32) {
  const int lane = int(threadIdx.x & 31), base = lane & ~(width - 1);
  return uint32_t(emu::exchange_from(v, base + (src & (width - 1))));
}
inline uint32_t __shfl_up_sync(unsigned, uint32_t v, unsigned delta, int width = 32) {
  const int lane = int(threadIdx.x & 31), base = lane & ~(width - 1);
  const int src = lane - int(delta) >= base ? lane - int(delta) : lane;
  return uint32_t(emu::exchange_from(v, src));
}
inline uint32_t __shfl_down_sync(unsigned, uint32_t v, unsigned delta, int width = 32) {
  const int lane = int(threadIdx.x & 31), base = lane & ~(width - 1);
  const int src = lane + int(delta) < base + width ? lane + int(delta) : lane;
  return uint32_t(emu::exchange_from(v, src));
}
inline uint32_t __shfl_xor_sync(unsigned, uint32_t v, int mask, int width = 32) {
  const int lane = int(threadIdx.x & 31), base = lane & ~(width - 1);
  const int src = base + ((lane - base) ^ mask) % width;
  return uint32_t(emu::exchange_from(v, src));
}
inline unsigned __ballot_sync(unsigned, bool pred) {
  const int lane = int(threadIdx.x & 31);
  emu::warp->slot[lane] = pred ? 1 : 0;
  emu::warp->sync();
  unsigned m = 0;
  for (int i = 0; i < 32; ++i) m |= unsigned(emu::warp->slot[i] & 1) << i;
  emu::warp->sync();
  return m;
}
inline int __shfl_sync(unsigned, int v, int src, int width = 32) {
  return int(__shfl_sync(0u, uint32_t(v), src, width));
}
inline bool __any_sync(unsigned, bool pred) { return __ballot_sync(0u, pred) != 0; }
inline unsigned __reduce_max_sync(unsigned, unsigned v) {
  const int lane = int(threadIdx.x & 31);
  emu::warp->slot[lane] = v;
  emu::warp->sync();
  unsigned m = 0;
  for (int i = 0; i < 32; ++i) m = std::max<unsigned>(m, unsigned(emu::warp->slot[i]));
  emu::warp->sync();
  return m;
}
inline uint32_t __funnelshift_l(uint32_t lo, uint32_t hi, uint32_t s) {
  return uint32_t(((uint64_t(hi) << 32 | lo) << (s & 31)) >> 32);
}
inline uint32_t __funnelshift_r(uint32_t lo, uint32_t hi, uint32_t s) {
  return uint32_t((uint64_t(hi) << 32 | lo) >> (s & 31));
}
inline void __syncwarp(unsigned = 0xffffffffu) { emu::warp->sync(); }
inline int __clz(uint32_t x) { return x ? __builtin_clz(x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll(uint64_t(x)) : 64; }
inline unsigned atomicOr(unsigned* p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
