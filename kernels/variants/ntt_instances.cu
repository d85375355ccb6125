// NTT multiplication and squaring variants (kernels/block/ntt.cuh) and their
// shape rules: Goldilocks field, in-shared-memory transforms of at most 2^13
// or 2^14 elements (72 or 144 KB with the padding), blocks of at most 256, 512
// or 1024 threads. (2^12-element variants were never faster on the H100,
// 2026-11-22: bench/notes/ntt.md, "Variants".)
// Names: "<op>.ntt.u64.q1.gl.m<log M max>.t<max threads>"; the instances-per-
// block value of a plan is ignored (one instance per block at a time).
#include "kernels/block/ntt_layout.hpp"
#include "kernels/variants/ntt_launch.hpp"
#include "kernels/variants/ntt_grid.hpp"
#include "kernels/variants/ntt_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
using Field = arith::Goldilocks;

// Variant.param: log2 of the largest in-shared-memory transform in bits 0-7,
// the thread bound above.
uint32_t log_m_max(const Variant& v) { return v.param & 0xff; }
uint32_t max_threads(const Variant& v) { return v.param >> 8; }
bool is_square(const Variant& v) { return v.op == Op::Sqr; }

block::NttPlan plan_for(const Variant& v, uint64_t bits) {
  const uint32_t limbs = block::limbs_for_bits(bits, 64);
  return block::ntt_plan(limbs, limbs, log_m_max(v), max_threads(v));
}

uint32_t ntt_threads(const Variant& v, uint64_t bits) { return plan_for(v, bits).threads; }
uint64_t ntt_smem(const Variant& v, uint64_t bits, uint32_t) { return block::ntt_smem_bytes(plan_for(v, bits)); }
// 2^21-bit operands: twice the issue's one-block target; past it the D-way
// split's combine (D coefficient reads each) grows linearly in D.
uint64_t ntt_max_bits(const Variant&) { return uint64_t(1) << 21; }
uint64_t ntt_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  return block::ntt_scratch_bytes(plan_for(v, bits), is_square(v), count);
}

template <int kLogMMax, bool kSquare>
const void* kernel_ptr() {
  return reinterpret_cast<const void*>(&mul_ntt_kernel<Field, kLogMMax, kSquare>);
}

// The kernel of a variant: its transform limit and op.
const void* kernel_of(uint32_t log_m, bool sq) {
  if (log_m == 13) return sq ? kernel_ptr<13, true>() : kernel_ptr<13, false>();
  return sq ? kernel_ptr<14, true>() : kernel_ptr<14, false>();
}

cudaError_t ntt_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  using Elem = Field::Elem;
  // The twiddle tables and spectra live in the scratch (ntt_scratch): a caller
  // that did not allocate it gets an error, not a fault that kills the context.
  if (args.scratch == nullptr) return cudaErrorInvalidValue;
  const block::NttPlan p = block::ntt_plan(args.limbs, args.limbs, log_m_max(v), max_threads(v));
  const void* kernel = v.kernel;
  const uint32_t smem = uint32_t(block::ntt_smem_bytes(p));
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  const cudaError_t e = launch_ntt_twiddles(static_cast<Elem*>(args.scratch), p.log_n, stream);
  if (e != cudaSuccess) return e;
  KernelArgs copy = args;
  void* params[] = {&copy};
  return cudaLaunchKernel(kernel, dim3(ntt_grid_blocks(kernel, p.threads, smem, args.count)), dim3(p.threads), params,
                          smem, stream);
}

const ShapeRules kNttShape{ntt_threads, ntt_smem, ntt_max_bits, ntt_scratch, ntt_launch, false};

void add(std::vector<Variant>& out, Op op, uint32_t log_m, uint32_t threads) {
  out.push_back(make_variant(op, "block", "ntt", 64, 1, threads, kernel_of(log_m, op == Op::Sqr), kNttShape,
                             "gl.m" + std::to_string(log_m) + ".t" + std::to_string(threads),
                             log_m | (threads << 8)));
}
}  // namespace

cudaError_t launch_ntt_twiddles(uint64_t* table, uint32_t log_n, cudaStream_t stream) {
  if (log_n < 1 || log_n > uint32_t(Field::kMaxLog)) return cudaErrorInvalidValue;
  return launch_ntt_twiddle_kernel<Field>(table, log_n, stream);
}

void append_ntt_variants(std::vector<Variant>& out) {
  for (Op op : {Op::Mul, Op::Sqr})
    for (uint32_t log_m : {13u, 14u})
      for (uint32_t threads : {256u, 512u, 1024u}) add(out, op, log_m, threads);
}

}  // namespace bigtune::kernels::variants
