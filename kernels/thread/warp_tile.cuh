// Warp tiles: coalesced staging for one-thread-per-instance kernels whose
// operands are rows of kWords 64-bit words, each warp on its own (no block
// barrier), by 16-byte units.
//
// Why: a thread that reads its own row from global memory makes every 8-byte
// load of a warp touch 32 rows kWords·8 bytes apart, 8 useful bytes of each
// 32-byte sector (ncu on mulmod.dfma.u64.q16.roll4 at 1 Kbit, session 15 run
// A: "8.0 of the 32 bytes transmitted per sector", loads and stores; the
// first and last ~150 instructions held 18 % of the stall samples). A warp's
// 32 consecutive instances are one contiguous run of 32·kWords words: lanes
// copy it unit by unit (a warp instruction covers 512 contiguous bytes) into
// a row-major tile in shared memory, and each lane then reads its own row
// there; results go the other way. The copies in are cp.async (cuda_pipeline.h),
// so a warp can fetch its next tile while it computes, without registers.
//
// Bank conflicts: unit u of row r sits at r·P + (u ^ (r mod P)), P = kWords/2
// units a row. A quarter-warp's LDS.128 / STS.128 of one unit of eight
// consecutive rows then hits eight different 4-bank groups, and so does a
// quarter-warp of the copy (eight units of one row).
#pragma once
#include <cuda_pipeline.h>

#include <cstdint>

namespace bigtune::kernels::thread {

template <int kWords>
struct WarpTile {
  static_assert(kWords == 16, "the swizzle is conflict-free for 8 units (16 words) a row");
  static constexpr uint32_t kUnits = kWords / 2;        // 16-byte units a row
  static constexpr uint32_t kTileUnits = 32 * kUnits;   // a warp's tile
  static constexpr uint64_t kTileWords = 32 * kWords;

  __device__ __forceinline__ static uint32_t slot(uint32_t row, uint32_t unit) {
    return row * kUnits + (unit ^ (row % kUnits));
  }
  // Starts copying rows [0, rows) of src (16-byte aligned, rows·kWords words)
  // into tile; complete after __pipeline_commit() and __pipeline_wait_prior(),
  // then __syncwarp() before other lanes read it.
  __device__ __forceinline__ static void load_async(uint4* tile, const uint64_t* src, uint32_t rows,
                                                    uint32_t lane) {
    const uint4* s = reinterpret_cast<const uint4*>(src);
    for (uint32_t u = lane; u < rows * kUnits; u += 32)
      __pipeline_memcpy_async(&tile[slot(u / kUnits, u % kUnits)], &s[u], sizeof(uint4));
  }
  __device__ __forceinline__ static void read_row(uint64_t (&w)[kWords], const uint4* tile, uint32_t row) {
#pragma unroll
    for (uint32_t u = 0; u < kUnits; ++u) {
      const uint4 v = tile[slot(row, u)];
      w[2 * u] = (uint64_t(v.y) << 32) | v.x;
      w[2 * u + 1] = (uint64_t(v.w) << 32) | v.z;
    }
  }
  __device__ __forceinline__ static void write_row(uint4* tile, uint32_t row, const uint64_t (&w)[kWords]) {
#pragma unroll
    for (uint32_t u = 0; u < kUnits; ++u)
      tile[slot(row, u)] = make_uint4(uint32_t(w[2 * u]), uint32_t(w[2 * u] >> 32), uint32_t(w[2 * u + 1]),
                                      uint32_t(w[2 * u + 1] >> 32));
  }
  // Rows [0, rows) of tile to dst (16-byte aligned), 16-byte stores.
  __device__ __forceinline__ static void store(uint64_t* dst, const uint4* tile, uint32_t rows, uint32_t lane) {
    uint4* d = reinterpret_cast<uint4*>(dst);
    for (uint32_t u = lane; u < rows * kUnits; u += 32) d[u] = tile[slot(u / kUnits, u % kUnits)];
  }
};

}  // namespace bigtune::kernels::thread
