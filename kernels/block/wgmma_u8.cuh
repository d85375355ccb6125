// Hopper's warpgroup MMA on bytes: wgmma.mma_async m64n128k32 .s32.u8.u8,
// A from registers, B from shared memory through a matrix descriptor
// (K-major, no swizzle). The pieces a product by a shared constant would use
// on the tensor cores at their rate (bench/notes/tcbarrett-bound.md, "wgmma,
// worked out on paper"); the probe (tests/support/wgmma_probe.cuh) checks
// the fragment and descriptor model below against the GPU. sm_90a only
// (arch-specific instructions): compile with CUDA_ARCHITECTURES 90a.
//
// The model (PTX ISA, "Register Fragments and Shared Memory Matrix
// Layouts"; the emulation in tests/support/warp_emulation.hpp plays it):
// thread 32 w + 4 g + t of the warpgroup holds
//  - A (64 x 32 bytes) in registers: rows 16 w + g (a[0], a[2]) and 16 w + g + 8 (a[1],
//    a[3]), bytes [4 t, 4 t + 4) (a[0], a[1]) and 16 further (a[2], a[3]);
//  - D (64 x 128 s32): d[i] at row 16 w + g + 8 ((i >> 1) & 1), column
//    8 (i >> 2) + 2 t + (i & 1);
//  - B (32 x 128 bytes, K-major) in 8-row x 16-byte core matrices: element
//    (k, n) at start + (n / 8) sbo + (k / 16) lbo + 16 (n % 8) + k % 16;
//    A in shared memory (the _ss form) likewise, element (m, k) at
//    start + (m / 8) sbo + (k / 16) lbo + 16 (m % 8) + k % 16.
#pragma once
#include <cstdint>

namespace bigtune::kernels::block {

constexpr uint32_t kWgmmaN = 128;               // columns a wgmma
constexpr uint32_t kWgmmaAcc = kWgmmaN / 2;     // s32 accumulators a thread
constexpr uint32_t kWgmmaThreads = 128;         // a warpgroup

// The descriptor of a K-major operand without swizzle (PTX ISA, "Matrix
// Descriptor Format"): start address, LBO (core matrices adjacent along K)
// and SBO (adjacent along N), each in 16-byte units.
__host__ __device__ inline uint64_t wgmma_descriptor(uint32_t smem_address, uint32_t lbo, uint32_t sbo) {
  auto encode = [](uint32_t x) { return uint64_t((x & 0x3ffffu) >> 4); };
  return encode(smem_address) | encode(lbo) << 16 | encode(sbo) << 32;
}

__device__ inline uint32_t shared_address(const void* p) {
#ifdef BIGTUNE_WARP_EMULATION
  return emu::shared_address(p);
#else
  return uint32_t(__cvta_generic_to_shared(p));
#endif
}

#ifdef BIGTUNE_WARP_EMULATION
__device__ inline void wgmma_fence() {}
__device__ inline void wgmma_commit() {}
__device__ inline void wgmma_wait_all() { emu::wgmma_wait_pending(); }
__device__ inline void fence_shared_for_tensor_cores() {}
__device__ inline void wgmma_pin(int (&)[kWgmmaAcc]) {}
__device__ inline void wgmma_m64n128k32_u8(int (&d)[kWgmmaAcc], const uint32_t (&a)[4], uint64_t desc_b, int accumulate) {
  emu::wgmma_m64nNk32_u8(d, kWgmmaN, a, desc_b, accumulate != 0);
}
__device__ inline void wgmma_m64n128k32_u8_ss(int (&d)[kWgmmaAcc], uint64_t desc_a, uint64_t desc_b, int accumulate) {
  emu::wgmma_m64nNk32_u8_ss(d, kWgmmaN, desc_a, desc_b, accumulate != 0);
}
#elif defined(__CUDA_ARCH_FEAT_SM90_ALL)
// Before a wgmma reads registers written since the last one (A, D).
__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ inline void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ inline void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }
// Shared memory written by threads, before the tensor cores read it (the
// async proxy): then a __syncthreads.
__device__ inline void fence_shared_for_tensor_cores() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
// Pins the accumulators' definitions on this side of a wgmma stage: without
// it the compiler may zero them after wgmma.fence, and ptxas then serializes
// the stage's wgmmas (its C7515 warning).
__device__ inline void wgmma_pin(int (&d)[kWgmmaAcc]) {
#pragma unroll
  for (uint32_t i = 0; i < kWgmmaAcc; ++i) asm volatile("" : "+r"(d[i])::"memory");
}

// The 64 accumulators as the operands %0 .. %63 of both forms below.
#define BIGTUNE_WGMMA_D_LIST                                                                                    \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, "  \
  "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define BIGTUNE_WGMMA_D_OPERANDS(d)                                                                               \
  "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]),      \
      "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]),       \
      "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]),      \
      "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]), "+r"(d[32]),      \
      "+r"(d[33]), "+r"(d[34]), "+r"(d[35]), "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]),      \
      "+r"(d[41]), "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]), "+r"(d[48]),      \
      "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]), "+r"(d[54]), "+r"(d[55]), "+r"(d[56]),      \
      "+r"(d[57]), "+r"(d[58]), "+r"(d[59]), "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])

// d = a b (+ d where accumulate): all 128 threads of the warpgroup.
__device__ inline void wgmma_m64n128k32_u8(int (&d)[kWgmmaAcc], const uint32_t (&a)[4], uint64_t desc_b, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %68, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.u8 " BIGTUNE_WGMMA_D_LIST ", {%64, %65, %66, %67}, %69, p;\n}\n"
      : BIGTUNE_WGMMA_D_OPERANDS(d)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(accumulate), "l"(desc_b)
      : "memory");
}

// d = a b (+ d), A too from shared memory (K-major, its own descriptor).
__device__ inline void wgmma_m64n128k32_u8_ss(int (&d)[kWgmmaAcc], uint64_t desc_a, uint64_t desc_b, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.u8 " BIGTUNE_WGMMA_D_LIST ", %64, %65, p;\n}\n"
      : BIGTUNE_WGMMA_D_OPERANDS(d)
      : "l"(desc_a), "l"(desc_b), "r"(accumulate)
      : "memory");
}
#undef BIGTUNE_WGMMA_D_OPERANDS
#undef BIGTUNE_WGMMA_D_LIST
#endif

}  // namespace bigtune::kernels::block
