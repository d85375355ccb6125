// Block-wide carry propagation as a scan (seed 000 §2, operator `carry_op`).
//
// Each thread summarises its chunk by a carry status: bit 0 "generate" (the
// chunk carries out with a carry-in of 0) and bit 1 "propagate" (it carries out
// with a carry-in of 1 only: every limb all-ones for addition, all-zeros for
// subtraction). Combining an earlier status e with a later status l gives
// (l.g | l.p & e.g, l.p & e.p); the identity is (g=0, p=1).
//
// Several instances per block (IPB) need a *segmented* scan. The seed lifts
// the operator with a segment flag (carry_op_sgm); here the first chunk of an
// instance simply reports p = 0, which already stops any carry from the
// previous instance, and ignores the prefix it receives.
//
// Built from cub::WarpScan (shuffles) for the intra-warp part and one warp scan
// of the per-warp totals, so the number of threads is a run-time value (any
// multiple of 32 up to 1024): bit-size stays a run-time parameter and no
// template instance is needed per block size.
#pragma once
#include <cstdint>
#include <cub/warp/warp_scan.cuh>

namespace bigtune::kernels::block {

constexpr uint32_t kCarryGenerate = 1;
constexpr uint32_t kCarryPropagate = 2;
constexpr uint32_t kCarryIdentity = kCarryPropagate;

struct CarryOp {
  __device__ __forceinline__ uint32_t operator()(uint32_t earlier, uint32_t later) const {
    const uint32_t g = (later | ((later >> 1) & earlier)) & kCarryGenerate;
    const uint32_t p = later & earlier & kCarryPropagate;
    return g | p;
  }
};

// Requires blockDim.x to be a multiple of 32; every thread of the block calls
// scan(). It contains two __syncthreads(); callers reusing TempStorage for
// something else must __syncthreads() after scan() returns.
class BlockCarryScan {
  using WarpScan = cub::WarpScan<uint32_t>;

 public:
  struct TempStorage {
    typename WarpScan::TempStorage warp_scan[32];
    uint32_t warp_totals[32];
  };

  __device__ explicit BlockCarryScan(TempStorage& storage) : storage_(storage) {}

  // Returns the exclusive prefix of `status` over the block (the carry status of
  // everything before this thread); `inclusive` receives the inclusive prefix.
  __device__ uint32_t scan(uint32_t status, uint32_t& inclusive) {
    const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const uint32_t warps = blockDim.x >> 5;
    CarryOp op;
    uint32_t incl;
    WarpScan(storage_.warp_scan[warp]).InclusiveScan(status, incl, op);
    if (lane == 31) storage_.warp_totals[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      uint32_t total = lane < warps ? storage_.warp_totals[lane] : kCarryIdentity;
      uint32_t total_incl;
      WarpScan(storage_.warp_scan[0]).InclusiveScan(total, total_incl, op);
      storage_.warp_totals[lane] = total_incl;
    }
    __syncthreads();
    const uint32_t warp_prefix = warp == 0 ? kCarryIdentity : storage_.warp_totals[warp - 1];
    incl = op(warp_prefix, incl);
    uint32_t excl = __shfl_up_sync(0xffffffffu, incl, 1);
    if (lane == 0) excl = warp_prefix;
    inclusive = incl;
    return excl;
  }

 private:
  TempStorage& storage_;
};

}  // namespace bigtune::kernels::block
