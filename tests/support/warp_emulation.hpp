// A host warp (or block of warps) for CPU tests of warp- and block-level
// device code: the 32 lanes of a warp are played by 32 fibers (ucontext) on
// the calling thread, and the intrinsics the kernels use (shuffles, ballots,
// reductions, atomicOr, the u8 mma.sync) are emulated with a barrier. A
// barrier is a switch to the next lane in lane order: a lane runs again only
// after the 31 others have each reached their next barrier, which is exactly
// warp-barrier semantics; a block of several warps adds __syncthreads
// (class Block). Fibers instead of OS threads because a barrier of 32
// threads on a 2-core CI machine cost ~32 futex wake-ups and context
// switches (most of CI's time went there); a fiber switch is a user-space
// register swap. Each shuffle publishes into one of two slot buffers
// (alternating) and needs one barrier: a lane can only overwrite a buffer
// after every lane passed the barrier that follows the reads of it. Include
// it BEFORE any kernel header: it defines the CUDA keywords away and
// BIGTUNE_WARP_EMULATION (kernel headers then leave out their __global__
// wrappers, and take their dynamic shared memory from emu::dynamic_shared).
// Used by the *_emulation_test.cpp files.
#pragma once
#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
inline thread_local Dim3 thread_idx, block_idx, block_dim, grid_dim;

// One block of `warps` warps: its 32 * warps threads are fibers. A warp
// barrier (a shuffle, a ballot, __syncwarp) switches to the next lane of
// the same warp; __syncthreads switches to the next thread of the block
// (thread 32 w + 31 to 32 (w + 1)), and the last one back to thread 0. So a
// warp runs its lanes in turn until all of them wait at __syncthreads, then
// hands over to the next warp, and thread 0 runs again only once every
// thread has arrived: block-barrier semantics, with the warps' own barriers
// in between. A returning thread hands over to the next one; the last
// returns to the caller.
class Block {
 public:
  explicit Block(unsigned warps)
      : n_(32 * warps), lanes_(n_), parity_(n_, 0), syncs_(n_, 0), block_syncs_(n_, 0), finished_(warps, 0) {
    for (auto& s : slots_) s.assign(n_, 0);
  }
  // The buffer this lane's next exchange publishes into (see the header).
  uint64_t* publish_slots() { return slots_[parity_[thread_idx.x]].data() + warp_base(); }
  // Warp barrier: switch to the next lane; returns when every lane of the
  // warp has arrived.
  void sync() {
    const unsigned t = thread_idx.x;
    if (finished_[t / 32] != 0) fail("a lane waits at a warp barrier after another lane returned");
    ++syncs_[t];
    switch_to(t, warp_base() | ((t + 1) & 31));
  }
  // __syncthreads: returns when every thread of the block has arrived.
  void sync_block() {
    const unsigned t = thread_idx.x;
    for (unsigned f : finished_)
      if (f != 0) fail("a thread waits at __syncthreads after another thread returned");
    ++block_syncs_[t];
    switch_to(t, (t + 1) % n_);
  }
  // After the barrier that follows an exchange: the buffer the lanes wrote,
  // and flip to the other one for this lane's next exchange.
  uint64_t* published_slots() {
    const unsigned t = thread_idx.x;
    uint64_t* s = slots_[parity_[t]].data() + warp_base();
    parity_[t] ^= 1;
    return s;
  }

  template <class Body>
  void run(unsigned block, unsigned grid, Body& body) {
    stacks_ = static_cast<char*>(mmap(nullptr, kStack * n_, PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (stacks_ == MAP_FAILED) fail("cannot map the threads' stacks");
    for (unsigned t = 0; t < n_; ++t) {
      mprotect(stacks_ + t * kStack, 4096, PROT_NONE);  // guard page below each stack
      getcontext(&lanes_[t]);
      lanes_[t].uc_stack.ss_sp = stacks_ + t * kStack;
      lanes_[t].uc_stack.ss_size = kStack;
      lanes_[t].uc_link = nullptr;
      const uintptr_t self = reinterpret_cast<uintptr_t>(this), fn = reinterpret_cast<uintptr_t>(&body);
      makecontext(&lanes_[t], reinterpret_cast<void (*)()>(&Block::lane_entry<Body>), 5,
                  unsigned(self >> 32), unsigned(self), unsigned(fn >> 32), unsigned(fn), t);
    }
    thread_idx.x = 0;
    block_idx.x = block;
    block_dim.x = n_;
    grid_dim.x = grid;
    swapcontext(&main_, &lanes_[0]);
    munmap(stacks_, kStack * n_);
    for (unsigned t = 1; t < n_; ++t) {
      if (syncs_[t] != syncs_[t & ~31u]) fail("the lanes of a warp passed different numbers of warp barriers");
      if (block_syncs_[t] != block_syncs_[0]) fail("the threads of a block passed different numbers of __syncthreads");
    }
  }

 private:
  static constexpr size_t kStack = size_t(8) << 20;  // as an OS thread's default stack

  [[noreturn]] static void fail(const char* what) {
    std::fprintf(stderr, "warp emulation: %s\n", what);
    std::abort();
  }
  static unsigned warp_base() { return thread_idx.x & ~31u; }
  void switch_to(unsigned from, unsigned to) {
    thread_idx.x = to;
    swapcontext(&lanes_[from], &lanes_[to]);
  }
  // makecontext passes int arguments only: pointers travel as two halves.
  template <class Body>
  static void lane_entry(unsigned self_hi, unsigned self_lo, unsigned fn_hi, unsigned fn_lo, unsigned t) {
    Block* b = reinterpret_cast<Block*>(uintptr_t(self_hi) << 32 | self_lo);
    Body* body = reinterpret_cast<Body*>(uintptr_t(fn_hi) << 32 | fn_lo);
    (*body)(t & 31);
    ++b->finished_[t / 32];
    if (t + 1 == b->n_) setcontext(&b->main_);  // every thread has returned (they run in order)
    thread_idx.x = t + 1;
    setcontext(&b->lanes_[t + 1]);
  }

  unsigned n_;
  ucontext_t main_;
  std::vector<ucontext_t> lanes_;
  char* stacks_ = nullptr;
  std::vector<unsigned> parity_;
  std::vector<uint64_t> syncs_, block_syncs_;
  std::vector<unsigned> finished_;
  std::vector<uint64_t> slots_[2];
};
inline thread_local Block* block = nullptr;

// Publishes this lane's value, meets the other lanes of its warp, and
// returns the warp's 32 published values (valid until this lane's next
// exchange but one).
inline const uint64_t* exchange_all(uint64_t mine) {
  block->publish_slots()[thread_idx.x & 31] = mine;
  block->sync();
  return block->published_slots();
}
inline uint64_t exchange_from(uint64_t mine, int src) { return exchange_all(mine)[src]; }

// Runs body(lane) for every thread of block `block` of a grid of `grid`
// blocks of `warps` warps; threadIdx.x is the thread's index in the block.
template <class Body>
void run_block(unsigned block_index, unsigned grid, unsigned warps, Body&& body) {
  Block b(warps);
  Block* outer = block;
  block = &b;
  b.run(block_index, grid, body);
  block = outer;
}
// Runs body(lane) for the 32 lanes of one warp of block `block`.
template <class Body>
void run_warp(unsigned block_index, Body&& body) {
  run_block(block_index, block_index + 1, 1, body);
}

// The block's dynamic shared memory (extern __shared__ in a kernel): one
// buffer a host thread, reused by the blocks that run one after another.
inline std::vector<unsigned char>& dynamic_shared_buffer() {
  static thread_local std::vector<unsigned char> smem;
  return smem;
}
inline unsigned char* dynamic_shared(size_t bytes) {
  std::vector<unsigned char>& smem = dynamic_shared_buffer();
  if (smem.size() < bytes) smem.assign(bytes, 0);
  return smem.data();
}
// A pointer into the dynamic shared memory as the GPU's shared window
// addresses it (__cvta_generic_to_shared): its offset in the buffer.
inline uint32_t shared_address(const void* p) {
  return uint32_t(static_cast<const unsigned char*>(p) - dynamic_shared_buffer().data());
}
}  // namespace emu

#define threadIdx (emu::thread_idx)
#define blockIdx (emu::block_idx)
#define blockDim (emu::block_dim)
#define gridDim (emu::grid_dim)

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
inline uint64_t __shfl_sync(unsigned, uint64_t v, int src, int width = 32) {
  const uint32_t lo = __shfl_sync(0u, uint32_t(v), src, width), hi = __shfl_sync(0u, uint32_t(v >> 32), src, width);
  return uint64_t(hi) << 32 | lo;
}
inline uint64_t __shfl_down_sync(unsigned, uint64_t v, unsigned delta, int width = 32) {
  const uint32_t lo = __shfl_down_sync(0u, uint32_t(v), delta, width),
                 hi = __shfl_down_sync(0u, uint32_t(v >> 32), delta, width);
  return uint64_t(hi) << 32 | lo;
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
inline void __syncwarp(unsigned = 0xffffffffu) { emu::block->sync(); }
inline void __syncthreads() { emu::block->sync_block(); }
using std::max;  // CUDA's device min / max
using std::min;
inline int __clz(uint32_t x) { return x ? __builtin_clz(x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll(uint64_t(x)) : 64; }
inline unsigned atomicOr(unsigned* p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
// prmt: byte i of the result is byte (s >> 4 i) & 7 of the pair (hi:lo).
inline uint32_t __byte_perm(uint32_t lo, uint32_t hi, uint32_t s) {
  const uint64_t pair = uint64_t(hi) << 32 | lo;
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= uint32_t(pair >> (8 * ((s >> (4 * i)) & 7)) & 0xffu) << (8 * i);
  return r;
}

namespace emu {
// mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32, d = a b + c for the
// warp: a 16 x 32 matrix of bytes times a 32 x 8 one, 32-bit sums (wrapping,
// as without .satfinite). The fragments as the PTX ISA gives them for 8-bit
// integers: lane 4 g + t holds A's bytes [4 t, 4 t + 4) of rows g (a[0]) and
// g + 8 (a[1]), and the same 16 bytes further (a[2], a[3]); B's column g,
// rows [4 t, 4 t + 4) (b0) and 16 further (b1); D's rows g (c[0], c[1]) and
// g + 8 (c[2], c[3]) at columns 2 t and 2 t + 1.
inline void mma_m16n8k32_u8(int (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  uint64_t a01[32], a23[32], b[32];
  const uint64_t* all = exchange_all(a[0] | uint64_t(a[1]) << 32);
  std::copy(all, all + 32, a01);
  all = exchange_all(a[2] | uint64_t(a[3]) << 32);
  std::copy(all, all + 32, a23);
  all = exchange_all(b0 | uint64_t(b1) << 32);
  std::copy(all, all + 32, b);
  auto byte_of = [](uint64_t pair, bool high, unsigned k) { return uint32_t(pair >> (high ? 32 : 0) >> (8 * (k % 4))) & 0xffu; };
  auto a_at = [&](unsigned row, unsigned k) {
    const unsigned from = 4 * (row % 8) + (k % 16) / 4;
    return byte_of(k < 16 ? a01[from] : a23[from], row >= 8, k);
  };
  auto b_at = [&](unsigned k, unsigned col) { return byte_of(b[4 * col + (k % 16) / 4], k >= 16, k); };
  const unsigned lane = thread_idx.x & 31, g = lane / 4, t = lane % 4;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned row = g + (i >= 2 ? 8 : 0), col = 2 * t + (i & 1);
    uint32_t sum = uint32_t(c[i]);
    for (unsigned k = 0; k < 32; ++k) sum += a_at(row, k) * b_at(k, col);
    c[i] = int(sum);
  }
}
}  // namespace emu

namespace emu {
// wgmma.mma_async .m64nNk32 .s32.u8.u8 with A in registers and B through a
// K-major descriptor without swizzle, d = a b (+ d), for the 128 threads of
// a warpgroup (the block's threads 128 q .. 128 q + 127), played
// synchronously: the model kernels/block/wgmma_u8.cuh states (A's and D's
// fragments as mma.sync's, a warp a 16-row slice; B's element (k, n) at
// start + (n / 8) sbo + (k / 16) lbo + 16 (n % 8) + k % 16). Every thread
// of the block must call it (two block barriers).
inline void wgmma_m64nNk32_u8(int* d, unsigned n, const uint32_t (&a)[4], uint64_t desc, bool accumulate) {
  static thread_local std::vector<uint32_t> regs;
  const unsigned t = thread_idx.x, q = t / 128;
  if (regs.size() < 4 * size_t(block_dim.x)) regs.assign(4 * size_t(block_dim.x), 0);
  for (unsigned i = 0; i < 4; ++i) regs[4 * t + i] = a[i];
  block->sync_block();
  const unsigned char* smem = dynamic_shared_buffer().data();
  const uint32_t start = uint32_t(desc & 0x3fffu) << 4, lbo = uint32_t(desc >> 16 & 0x3fffu) << 4,
                 sbo = uint32_t(desc >> 32 & 0x3fffu) << 4;
  auto a_at = [&](unsigned row, unsigned k) {
    const unsigned from = 128 * q + 32 * (row / 16) + 4 * (row % 8) + (k % 16) / 4;
    const unsigned reg = (row % 16 >= 8 ? 1 : 0) + (k >= 16 ? 2 : 0);
    return regs[4 * from + reg] >> (8 * (k % 4)) & 0xffu;
  };
  auto b_at = [&](unsigned k, unsigned col) {
    return uint32_t(smem[start + (col / 8) * sbo + (k / 16) * lbo + 16 * (col % 8) + k % 16]);
  };
  const unsigned w = (t % 128) / 32, g = (t % 32) / 4, tq = t % 4;
  for (unsigned i = 0; i < n / 2; ++i) {
    const unsigned row = 16 * w + g + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * tq + (i & 1);
    uint32_t sum = accumulate ? uint32_t(d[i]) : 0;
    for (unsigned k = 0; k < 32; ++k) sum += a_at(row, k) * b_at(k, col);
    d[i] = int(sum);
  }
  block->sync_block();  // the registers' slots are free again
}
// With wgmma_deferred set, each lane's wgmmas with both operands in shared
// memory read them at its wait (wgmma_wait_pending) instead of at the issue:
// the hardware reads them at any time between the two, and a kernel that
// writes shared memory a wgmma in flight reads passes only where both
// extremes give the same result. Off unless a test sets it.
inline bool wgmma_deferred = false;
struct PendingWgmma {
  int* d;
  unsigned n;
  uint64_t desc_a, desc_b;
  bool accumulate;
};
inline std::vector<std::vector<PendingWgmma>>& pending_wgmmas() {
  static thread_local std::vector<std::vector<PendingWgmma>> pending;
  if (pending.size() < block_dim.x) pending.resize(block_dim.x);
  return pending;
}
inline void wgmma_ss_now(int* d, unsigned n, uint64_t desc_a, uint64_t desc_b, bool accumulate);
inline void wgmma_wait_pending() {
  std::vector<PendingWgmma>& mine = pending_wgmmas()[thread_idx.x];
  for (const PendingWgmma& w : mine) wgmma_ss_now(w.d, w.n, w.desc_a, w.desc_b, w.accumulate);
  mine.clear();
}
// The same with A from shared memory through its own K-major descriptor:
// element (m, k) at start + (m / 8) sbo + (k / 16) lbo + 16 (m % 8) + k % 16.
// No barrier: the operands are in shared memory, written before the call.
inline void wgmma_m64nNk32_u8_ss(int* d, unsigned n, uint64_t desc_a, uint64_t desc_b, bool accumulate) {
  if (wgmma_deferred) {
    pending_wgmmas()[thread_idx.x].push_back({d, n, desc_a, desc_b, accumulate});
    return;
  }
  wgmma_ss_now(d, n, desc_a, desc_b, accumulate);
}
inline void wgmma_ss_now(int* d, unsigned n, uint64_t desc_a, uint64_t desc_b, bool accumulate) {
  const unsigned char* smem = dynamic_shared_buffer().data();
  auto field = [](uint64_t desc, int at) { return uint32_t(desc >> at & 0x3fffu) << 4; };
  const uint32_t sa = field(desc_a, 0), la = field(desc_a, 16), ta = field(desc_a, 32);
  const uint32_t sb = field(desc_b, 0), lb = field(desc_b, 16), tb = field(desc_b, 32);
  const unsigned t = thread_idx.x, w = (t % 128) / 32, g = (t % 32) / 4, tq = t % 4;
  for (unsigned i = 0; i < n / 2; ++i) {
    const unsigned row = 16 * w + g + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * tq + (i & 1);
    uint32_t sum = accumulate ? uint32_t(d[i]) : 0;
    for (unsigned k = 0; k < 32; ++k)
      sum += uint32_t(smem[sa + (row / 8) * ta + (k / 16) * la + 16 * (row % 8) + k % 16]) *
             uint32_t(smem[sb + (col / 8) * tb + (k / 16) * lb + 16 * (col % 8) + k % 16]);
    d[i] = int(sum);
  }
}
}  // namespace emu
