// Shape arithmetic of the thread-per-instance family, shared by the device
// code and the registry (seed 002 §3.2: one product per thread).
//
// A block runs IPB instances on IPB threads (blockDim rounded up to a warp).
// Each instance owns a shared-memory *region* of region_limbs(n) limbs: its
// operands a at [0, n) and b at [n, 2n) on the way in, its result (up to 2n
// limbs) on the way out. The region length is odd, so that thread t reading
// limb j of its own region (address t*R + j) hits bank (t*R + j) mod 32: 32
// distinct banks for 32-bit limbs, and 16 distinct 8-byte bank pairs per
// half-warp for 64-bit limbs. In effect this is a transposed staging (seed
// 002 §2.3, Fig. 2.3: coalesced vs stride access): global accesses stay
// coalesced (consecutive threads, consecutive words) and every per-thread
// shared access is conflict-free, with no limb-major copy in between.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define BIGTUNE_THREAD_HD __host__ __device__
#else
#define BIGTUNE_THREAD_HD
#endif

namespace bigtune::kernels::thread {

// Limbs of one instance's region for operands of n limbs: 2n + 1 (odd).
BIGTUNE_THREAD_HD constexpr uint32_t region_limbs(uint32_t n) { return 2 * n + 1; }

// Dynamic shared memory of a block of `ipb` instances.
BIGTUNE_THREAD_HD constexpr uint64_t region_smem_bytes(uint32_t n, uint32_t ipb, uint32_t limb_bytes) {
  return uint64_t(region_limbs(n)) * ipb * limb_bytes;
}

}  // namespace bigtune::kernels::thread
