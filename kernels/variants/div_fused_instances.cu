// Explicit instances and shape rules of the block division (divmod.shinv,
// workspace in global scratch or, ".smem", in shared memory) and the fused ops
// (mul_add.tiled, poly.tiled: seed 000 §3 classical products in tiles,
// block_ops.cuh), 64-bit limbs, Q = 4 (512 threads at most).
#include <algorithm>

#include "kernels/variants/div_fused_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {

constexpr int kQ = 4;

bool is_div(const Variant& v) { return v.op == Op::DivMod; }
bool is_poly(const Variant& v) { return v.op == Op::Poly; }

// Twice these threads per instance (variants "t2", same kernels) lost at
// every size from 2^14 to 2^18 on the H100 (0.46-1.0x, bench/results/
// 2026-11-22-h100-div.md, run 3), so the threads are what the largest tile needs.
uint32_t div_fused_threads(const Variant& v, uint64_t bits) {
  return block::div_fused_threads(operand_limbs(v, bits), v.q, v.max_threads, is_div(v));
}
uint64_t tile_bytes(const Variant& v, uint64_t bits, uint32_t ipb) {
  const uint32_t block_threads = block::round_up(div_fused_threads(v, bits) * ipb, 32);
  return block::smem_bytes_padded(block::block_mul_tile_logical(block_threads * v.q, v.q), 8);
}
bool div_ws_in_smem(const Variant& v) { return v.param == 1; }  // variant "smem"
uint64_t div_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  const uint64_t ws = div_ws_in_smem(v) ? block::div_smem_workspace_bytes(operand_limbs(v, bits)) : 0;
  return tile_bytes(v, bits, ipb) + ws;
}
uint64_t fused_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  const uint32_t m = operand_limbs(v, bits);
  const uint64_t bufs = block::fused_in_smem(is_poly(v), m) ? block::fused_buffer_limbs(is_poly(v), m) * 8 : 0;
  return tile_bytes(v, bits, ipb) + bufs;
}
// Global scratch one block needs (0: none) for m-limb operands.
uint64_t block_scratch_bytes(const Variant& v, uint32_t m) {
  if (v.op == Op::DivMod) return div_ws_in_smem(v) ? 0 : block::div_shinv_workspace_limbs(m, m) * 8;
  return block::fused_in_smem(is_poly(v), m) ? 0 : block::fused_buffer_limbs(is_poly(v), m) * 8;
}
// Blocks of a launch: enough to fill an H100 (132 SMs x up to 32 blocks), the
// scratch kept under kScratchBudget.
uint64_t blocks_of(const Variant& v, uint32_t m, uint64_t count) {
  const uint64_t per = block_scratch_bytes(v, m);
  const uint64_t by_scratch = per ? std::max<uint64_t>(132, block::kScratchBudget / per) : block::kDivFusedMaxBlocks;
  return std::min<uint64_t>({count, uint64_t(block::kDivFusedMaxBlocks), by_scratch});
}
uint64_t div_fused_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  const uint32_t m = operand_limbs(v, bits);
  return blocks_of(v, m, count) * block_scratch_bytes(v, m);
}
uint64_t div_max_bits(const Variant& v) {
  if (!div_ws_in_smem(v)) return block::kDivMaxBits;
  uint64_t words = 1;  // the smem variant: the largest size whose workspace fits the budget
  while (block::div_smem_workspace_bytes(uint32_t(words + 1)) <= block::kDivSmemBudget) ++words;
  return words * 64;
}

// One launch of at most kDivFusedMaxBlocks blocks; the kernels loop over the
// batch, matching the per-block scratch above.
cudaError_t grid_stride_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (g.smem_bytes > 48 * 1024) {
    const cudaError_t e =
        cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(g.smem_bytes));
    if (e != cudaSuccess) return e;
  }
  KernelArgs copy = args;
  void* params[] = {&copy};
  const uint32_t grid = uint32_t(blocks_of(v, args.limbs, g.grid));
  return cudaLaunchKernel(v.kernel, dim3(grid), dim3(g.block), params, g.smem_bytes, stream);
}

const ShapeRules kDivShape{div_fused_threads, div_smem, div_max_bits, div_fused_scratch, grid_stride_launch, false};
const ShapeRules kFusedShape{div_fused_threads, fused_smem, nullptr, div_fused_scratch, grid_stride_launch, false};

}  // namespace

void append_div_fused_variants(std::vector<Variant>& out) {
  constexpr uint32_t threads = div_fused_max_threads<kQ>();
  out.push_back(make_variant(Op::DivMod, "block", "shinv", 64, kQ, threads,
                             reinterpret_cast<const void*>(&divmod_shinv_kernel<kQ, false>), kDivShape));
  out.push_back(make_variant(Op::DivMod, "block", "shinv", 64, kQ, threads,
                             reinterpret_cast<const void*>(&divmod_shinv_kernel<kQ, true>), kDivShape, "smem", 1));
  // A Q = 8 division (tiles of 8T limbs on 256 threads) was measured on the
  // H100 (bench/results/2026-11-22-h100-div.md): ptxas spills ~1 KB per
  // thread and it lost to q4 at every size (0.5-0.85x), so it is not built.
  out.push_back(make_variant(Op::MulAdd, "block", "tiled", 64, kQ, threads,
                             reinterpret_cast<const void*>(&fused_kernel<kQ, false>), kFusedShape));
  out.push_back(make_variant(Op::Poly, "block", "tiled", 64, kQ, threads,
                             reinterpret_cast<const void*>(&fused_kernel<kQ, true>), kFusedShape));
}

}  // namespace bigtune::kernels::variants
