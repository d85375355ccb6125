// NTT multiplication and squaring over three 31-bit primes with CRT
// (kernels/arith/crt3_field.cuh: 32-bit digits, Montgomery arithmetic on the
// 32-bit IMAD path), the same block routine as the Goldilocks variants
// (kernels/block/ntt.cuh, ntt_instances.cu) with the field swapped.
// Names: "<op>.ntt.u64.q1.crt3.m<log M max>.t<max threads>" (the operands are
// read as 64-bit limbs, as for every block variant; the transform's digits are
// 32 bits). In-shared-memory transforms of at most 2^12 elements (55 KB, three
// blocks per SM) or 2^13 (110 KB, one block per SM); 2^14 (221 KB plus the
// carry words) would not fit the H100's 227 KB per block. A 2^12 transform
// needs 512 threads (M/8), so m12 has t256 and t512, m13 t512 and t1024.
#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_layout.hpp"
#include "kernels/variants/ntt_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
using Field = arith::Crt3;
using Elem = Field::Elem;
constexpr uint32_t kElemBytes = sizeof(Elem);
static_assert(kElemBytes == 12, "three 32-bit residues, no padding");

uint32_t log_m_max(const Variant& v) { return v.param & 0xff; }
uint32_t max_threads(const Variant& v) { return v.param >> 8; }
bool is_square(const Variant& v) { return v.op == Op::Sqr; }

block::NttPlan plan_for(const Variant& v, uint64_t bits) {
  const uint32_t limbs = block::limbs_for_bits(bits, 64);
  return block::ntt_plan(limbs, limbs, log_m_max(v), max_threads(v), Field::kDigitBits);
}

uint32_t crt_threads(const Variant& v, uint64_t bits) { return plan_for(v, bits).threads; }
uint64_t crt_smem(const Variant& v, uint64_t bits, uint32_t) {
  return block::ntt_smem_bytes(plan_for(v, bits), kElemBytes);
}
// 2^21-bit operands as for Goldilocks (ntt_instances.cu): 2^16 digits, N = 2^17
// (D = 16 with m13); coefficients below 2^16·2^64 = 2^80 < P (crt3_field.cuh).
uint64_t crt_max_bits(const Variant&) { return uint64_t(1) << 21; }
uint64_t crt_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  return block::ntt_scratch_bytes(plan_for(v, bits), is_square(v), count, kElemBytes);
}

const void* kernel_of(uint32_t log_m, bool sq) {
  if (log_m == 12)
    return sq ? reinterpret_cast<const void*>(&mul_ntt_kernel<Field, 12, true>)
              : reinterpret_cast<const void*>(&mul_ntt_kernel<Field, 12, false>);
  return sq ? reinterpret_cast<const void*>(&mul_ntt_kernel<Field, 13, true>)
            : reinterpret_cast<const void*>(&mul_ntt_kernel<Field, 13, false>);
}

cudaError_t crt_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the tables live there (crt_scratch)
  const block::NttPlan p =
      block::ntt_plan(args.limbs, args.limbs, log_m_max(v), max_threads(v), Field::kDigitBits);
  if (p.log_n < 1 || p.log_n > uint32_t(Field::kMaxLog)) return cudaErrorInvalidValue;
  const uint32_t smem = uint32_t(block::ntt_smem_bytes(p, kElemBytes));
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  // Twiddles ω^k, ω^-k for k < N/2 (ntt_kernels.cuh), per launch as for
  // Goldilocks: at most 2^16 entries of three exponentiations each.
  Elem* table = static_cast<Elem*>(args.scratch);
  const uint64_t half = uint64_t(1) << (p.log_n - 1);
  const uint32_t tw_blocks = uint32_t(half < 256 * 1024 ? (half + 255) / 256 : 1024);
  ntt_twiddle_kernel<Field><<<tw_blocks, 256, 0, stream>>>(table, p.log_n);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return e;
  KernelArgs copy = args;
  void* params[] = {&copy};
  return cudaLaunchKernel(v.kernel, dim3(block::ntt_slots(args.count)), dim3(p.threads), params, smem, stream);
}

const ShapeRules kCrtShape{crt_threads, crt_smem, crt_max_bits, crt_scratch, crt_launch, false};

void add(std::vector<Variant>& out, Op op, uint32_t log_m, uint32_t threads) {
  out.push_back(make_variant(op, "block", "ntt", 64, 1, threads, kernel_of(log_m, op == Op::Sqr), kCrtShape,
                             "crt3.m" + std::to_string(log_m) + ".t" + std::to_string(threads),
                             log_m | (threads << 8)));
}
}  // namespace

void append_ntt_crt_variants(std::vector<Variant>& out) {
  for (Op op : {Op::Mul, Op::Sqr}) {
    add(out, op, 12, 256);
    add(out, op, 12, 512);
    add(out, op, 13, 512);
    add(out, op, 13, 1024);
  }
}

}  // namespace bigtune::kernels::variants
