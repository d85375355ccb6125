// Explicit instances and shape rules of the block division (divmod.shinv)
// and the fused ops (mul_add.classical, poly.classical), 64-bit limbs, Q = 4
// (the tile multiplication's sequentialisation; 512 threads at most).
#include <algorithm>

#include "kernels/variants/div_fused_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {

constexpr int kQ = 4;

bool is_div(const Variant& v) { return v.op == Op::DivMod; }
bool is_poly(const Variant& v) { return v.op == Op::Poly; }

uint32_t div_fused_threads(const Variant& v, uint64_t bits) {
  return block::div_fused_threads(operand_limbs(v, bits), v.q, v.max_threads, is_div(v));
}
uint64_t tile_bytes(const Variant& v, uint64_t bits, uint32_t ipb) {
  const uint32_t block_threads = block::round_up(div_fused_threads(v, bits) * ipb, 32);
  return block::smem_bytes_padded(block::block_mul_tile_logical(block_threads * v.q, v.q), 8);
}
uint64_t div_smem(const Variant& v, uint64_t bits, uint32_t ipb) { return tile_bytes(v, bits, ipb); }
uint64_t fused_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  const uint32_t m = operand_limbs(v, bits);
  const uint64_t bufs = block::fused_in_smem(is_poly(v), m) ? block::fused_buffer_limbs(is_poly(v), m) * 8 : 0;
  return tile_bytes(v, bits, ipb) + bufs;
}
uint64_t blocks_of(uint64_t count) { return std::min<uint64_t>(count, block::kDivFusedMaxBlocks); }
uint64_t div_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  const uint32_t m = operand_limbs(v, bits);
  return blocks_of(count) * block::div_shinv_workspace_limbs(m, m) * 8;
}
uint64_t fused_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  const uint32_t m = operand_limbs(v, bits);
  if (block::fused_in_smem(is_poly(v), m)) return 0;
  return blocks_of(count) * block::fused_buffer_limbs(is_poly(v), m) * 8;
}
uint64_t div_max_bits(const Variant&) { return block::kDivMaxBits; }

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
  const uint32_t grid = uint32_t(blocks_of(g.grid));
  return cudaLaunchKernel(v.kernel, dim3(grid), dim3(g.block), params, g.smem_bytes, stream);
}

const ShapeRules kDivShape{div_fused_threads, div_smem, div_max_bits, div_scratch, grid_stride_launch, false};
const ShapeRules kFusedShape{div_fused_threads, fused_smem, nullptr, fused_scratch, grid_stride_launch, false};

}  // namespace

void append_div_fused_variants(std::vector<Variant>& out) {
  constexpr uint32_t threads = div_fused_max_threads<kQ>();
  out.push_back(make_variant(Op::DivMod, "block", "shinv", 64, kQ, threads,
                             reinterpret_cast<const void*>(&divmod_shinv_kernel<kQ>), kDivShape));
  out.push_back(make_variant(Op::MulAdd, "block", "classical", 64, kQ, threads,
                             reinterpret_cast<const void*>(&fused_kernel<kQ, false>), kFusedShape));
  out.push_back(make_variant(Op::Poly, "block", "classical", 64, kQ, threads,
                             reinterpret_cast<const void*>(&fused_kernel<kQ, true>), kFusedShape));
}

}  // namespace bigtune::kernels::variants
