// A host warp for CPU tests of warp-level device code: the 32 lanes of one
// warp are played by 32 fibers (ucontext) on the calling thread, and the
// intrinsics the kernels use (shuffles, ballots, reductions, atomicOr) are
// emulated with a barrier. A barrier is a switch to the next lane in lane
// order: a lane runs again only after the 31 others have each reached their
// next barrier, which is exactly warp-barrier semantics. Fibers instead of
// OS threads because a barrier of 32 threads on a 2-core CI machine cost
// ~32 futex wake-ups and context switches (most of CI's time went there);
// a fiber switch is a user-space register swap. Each shuffle publishes into
// one of two slot buffers (alternating) and needs one barrier: a lane can
// only overwrite a buffer after every lane passed the barrier that follows
// the reads of it. Include it BEFORE any kernel header: it defines the CUDA
// keywords away and BIGTUNE_WARP_EMULATION (kernel headers then leave out
// their __global__ wrappers). Used by the *_emulation_test.cpp files.
#pragma once
#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

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
  // The buffer this lane's next exchange publishes into (see the header).
  uint64_t* publish_slots() { return slots_[parity_[thread_idx.x & 31]]; }
  // Barrier: switch to the next lane; returns when every lane has arrived.
  void sync() {
    const unsigned lane = thread_idx.x & 31;
    if (finished_ != 0) fail("a lane waits at a warp barrier after another lane returned");
    ++syncs_[lane];
    switch_to(lane, (lane + 1) & 31);
  }
  // After the barrier that follows an exchange: the buffer the lanes wrote,
  // and flip to the other one for this lane's next exchange.
  uint64_t* published_slots() {
    const unsigned lane = thread_idx.x & 31;
    uint64_t* s = slots_[parity_[lane]];
    parity_[lane] ^= 1;
    return s;
  }

  template <class Body>
  void run(unsigned block, Body& body) {
    stacks_ = static_cast<char*>(mmap(nullptr, kStack * 32, PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (stacks_ == MAP_FAILED) fail("cannot map the 32 lane stacks");
    for (unsigned t = 0; t < 32; ++t) {
      mprotect(stacks_ + t * kStack, 4096, PROT_NONE);  // guard page below each stack
      getcontext(&lanes_[t]);
      lanes_[t].uc_stack.ss_sp = stacks_ + t * kStack;
      lanes_[t].uc_stack.ss_size = kStack;
      lanes_[t].uc_link = nullptr;
      const uintptr_t self = reinterpret_cast<uintptr_t>(this), fn = reinterpret_cast<uintptr_t>(&body);
      makecontext(&lanes_[t], reinterpret_cast<void (*)()>(&Warp::lane_entry<Body>), 5,
                  unsigned(self >> 32), unsigned(self), unsigned(fn >> 32), unsigned(fn), t);
    }
    thread_idx.x = 0;
    block_idx.x = block;
    swapcontext(&main_, &lanes_[0]);
    munmap(stacks_, kStack * 32);
    for (unsigned t = 1; t < 32; ++t)
      if (syncs_[t] != syncs_[0]) fail("the lanes of a warp passed different numbers of warp barriers");
  }

 private:
  static constexpr size_t kStack = size_t(8) << 20;  // as an OS thread's default stack

  [[noreturn]] static void fail(const char* what) {
    std::fprintf(stderr, "warp emulation: %s\n", what);
    std::abort();
  }
  void switch_to(unsigned from, unsigned to) {
    thread_idx.x = to;
    swapcontext(&lanes_[from], &lanes_[to]);
  }
  // makecontext passes int arguments only: pointers travel as two halves.
  template <class Body>
  static void lane_entry(unsigned self_hi, unsigned self_lo, unsigned fn_hi, unsigned fn_lo, unsigned lane) {
    Warp* w = reinterpret_cast<Warp*>(uintptr_t(self_hi) << 32 | self_lo);
    Body* body = reinterpret_cast<Body*>(uintptr_t(fn_hi) << 32 | fn_lo);
    (*body)(lane);
    ++w->finished_;
    if (lane == 31) setcontext(&w->main_);  // every lane has returned (they run in order)
    thread_idx.x = lane + 1;
    setcontext(&w->lanes_[lane + 1]);
  }

  ucontext_t main_, lanes_[32];
  char* stacks_ = nullptr;
  unsigned finished_ = 0;
  unsigned parity_[32] = {};
  uint64_t syncs_[32] = {};
  uint64_t slots_[2][32] = {};
};
inline thread_local Warp* warp = nullptr;

// Publishes this lane's value, meets the other lanes, and returns the 32
// published values (valid until this lane's next exchange but one).
inline const uint64_t* exchange_all(uint64_t mine) {
  warp->publish_slots()[thread_idx.x & 31] = mine;
  warp->sync();
  return warp->published_slots();
}
inline uint64_t exchange_from(uint64_t mine, int src) { return exchange_all(mine)[src]; }

// Runs body(lane) for the 32 lanes of one warp of block `block`.
template <class Body>
void run_warp(unsigned block, Body&& body) {
  Warp w;
  Warp* outer = warp;
  warp = &w;
  w.run(block, body);
  warp = outer;
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
  const uint64_t* all = emu::exchange_all(pred ? 1 : 0);
  unsigned m = 0;
  for (int i = 0; i < 32; ++i) m |= unsigned(all[i] & 1) << i;
  return m;
}
inline int __shfl_sync(unsigned, int v, int src, int width = 32) {
  return int(__shfl_sync(0u, uint32_t(v), src, width));
}
inline bool __any_sync(unsigned, bool pred) { return __ballot_sync(0u, pred) != 0; }
inline unsigned __reduce_max_sync(unsigned, unsigned v) {
  const uint64_t* all = emu::exchange_all(v);
  unsigned m = 0;
  for (int i = 0; i < 32; ++i) m = std::max<unsigned>(m, unsigned(all[i]));
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
