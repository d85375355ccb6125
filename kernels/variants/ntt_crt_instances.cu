// NTT multiplication and squaring over three 31-bit primes with CRT
// (kernels/arith/crt3_field.cuh: 32-bit digits, Montgomery arithmetic on the
// 32-bit IMAD path), the same block routine as the Goldilocks variants
// (kernels/block/ntt.cuh, ntt_instances.cu) with the field swapped.
// Names: "<op>.ntt.u64.q1.crt3[p].m<log M max>.t<max threads>" ("crt3p": packed
// 12-byte elements, "crt3": 16-byte elements, crt3_field.cuh) (the operands are
// read as 64-bit limbs, as for every block variant; the transform's digits are
// 32 bits). In-shared-memory transforms of at most 2^12 elements (74 KB of
// 16-byte elements plus the carry words: two blocks per SM, as the 64
// registers allow) or 2^13 (147 KB, one block per SM); 2^14 would not fit the
// H100's 227 KB per block. A 2^12 transform needs 512 threads (M/8), so m12
// has t256 and t512, m13 t512 and t1024.
#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_layout.hpp"
#include "kernels/variants/ntt_cached_launch.hpp"
#include "kernels/variants/ntt_grid.hpp"
#include "kernels/variants/ntt_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
using Field = arith::Crt3;  // the digit width and kMaxLog, same for both element layouts
static_assert(sizeof(arith::Crt3::Elem) == 16 && sizeof(arith::Crt3Packed::Elem) == 12,
              "three 32-bit residues, with and without a pad word (crt3_field.cuh)");

// Variant.param: log2 of the largest in-shared-memory transform in bits 0-7,
// the thread bound in bits 8-19, bit 20 set for the packed 12-byte element.
uint32_t log_m_max(const Variant& v) { return v.param & 0xff; }
uint32_t max_threads(const Variant& v) { return (v.param >> 8) & 0xfff; }
bool packed(const Variant& v) { return (v.param >> 20) & 1; }
uint32_t elem_bytes(const Variant& v) {
  return packed(v) ? uint32_t(sizeof(arith::Crt3Packed::Elem)) : uint32_t(sizeof(arith::Crt3::Elem));
}
bool is_square(const Variant& v) { return v.op == Op::Sqr; }

block::NttPlan plan_for(const Variant& v, uint64_t bits) {
  const uint32_t limbs = block::limbs_for_bits(bits, 64);
  return block::ntt_plan(limbs, limbs, log_m_max(v), max_threads(v), Field::kDigitBits);
}

uint32_t crt_threads(const Variant& v, uint64_t bits) { return plan_for(v, bits).threads; }
uint64_t crt_smem(const Variant& v, uint64_t bits, uint32_t) {
  return block::ntt_smem_bytes(plan_for(v, bits), elem_bytes(v));
}
// 2^21-bit operands as for Goldilocks (ntt_instances.cu): 2^16 digits, N = 2^17
// (D = 16 with m13); coefficients below 2^16·2^64 = 2^80 < P (crt3_field.cuh).
uint64_t crt_max_bits(const Variant&) { return uint64_t(1) << 21; }
uint64_t crt_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  return block::ntt_scratch_bytes(plan_for(v, bits), is_square(v), count, elem_bytes(v));
}

template <class F>
const void* kernel_of(uint32_t log_m, bool sq) {
  if (log_m == 12)
    return sq ? reinterpret_cast<const void*>(&mul_ntt_kernel<F, 12, true>)
              : reinterpret_cast<const void*>(&mul_ntt_kernel<F, 12, false>);
  return sq ? reinterpret_cast<const void*>(&mul_ntt_kernel<F, 13, true>)
            : reinterpret_cast<const void*>(&mul_ntt_kernel<F, 13, false>);
}

cudaError_t crt_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the tables live there (crt_scratch)
  const block::NttPlan p =
      block::ntt_plan(args.limbs, args.limbs, log_m_max(v), max_threads(v), Field::kDigitBits);
  if (p.log_n < 1 || p.log_n > uint32_t(Field::kMaxLog)) return cudaErrorInvalidValue;
  const uint32_t smem = uint32_t(block::ntt_smem_bytes(p, elem_bytes(v)));
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  const cudaError_t e =
      packed(v) ? launch_ntt_twiddle_kernel<arith::Crt3Packed>(static_cast<arith::Crt3Packed::Elem*>(args.scratch),
                                                               p.log_n, stream)
                : launch_ntt_twiddle_kernel<arith::Crt3>(static_cast<arith::Crt3::Elem*>(args.scratch), p.log_n, stream);
  if (e != cudaSuccess) return e;
  KernelArgs copy = args;
  void* params[] = {&copy};
  return cudaLaunchKernel(v.kernel, dim3(ntt_grid_blocks(v.kernel, p.threads, smem, args.count)), dim3(p.threads),
                          params, smem, stream);
}

const ShapeRules kCrtShape{crt_threads, crt_smem, crt_max_bits, crt_scratch, crt_launch, false};

void add(std::vector<Variant>& out, Op op, uint32_t log_m, uint32_t threads, bool pack) {
  const bool sq = op == Op::Sqr;
  out.push_back(make_variant(op, "block", "ntt", 64, 1, threads,
                             pack ? kernel_of<arith::Crt3Packed>(log_m, sq) : kernel_of<arith::Crt3>(log_m, sq),
                             kCrtShape,
                             std::string(pack ? "crt3p.m" : "crt3.m") + std::to_string(log_m) + ".t" +
                                 std::to_string(threads),
                             log_m | (threads << 8) | (uint32_t(pack) << 20)));
}
// The products by a cached spectrum (ntt_cached_launch.hpp), 16-byte
// elements only: two kernels per transform limit.
const void* spectrum_kernel_of(uint32_t log_m) {
  return log_m == 12 ? reinterpret_cast<const void*>(&ntt_spectrum_kernel<arith::Crt3, 12>)
                     : reinterpret_cast<const void*>(&ntt_spectrum_kernel<arith::Crt3, 13>);
}
const void* cached_kernel_of(uint32_t log_m) {
  return log_m == 12 ? reinterpret_cast<const void*>(&mul_ntt_cached_kernel<arith::Crt3, 12>)
                     : reinterpret_cast<const void*>(&mul_ntt_cached_kernel<arith::Crt3, 13>);
}
// Sets the kernel's shared memory limit (as crt_launch) and launches it on
// one wave of blocks over `count` instances.
cudaError_t launch_cached(const NttCachedCall& c, const void* kernel, uint64_t count, void** params) {
  const block::NttPlan p = plan_for(*c.v, c.bits);
  const uint32_t smem = uint32_t(block::ntt_smem_bytes(p, sizeof(arith::Crt3::Elem)));
  if (smem > 48 * 1024) {
    const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  return cudaLaunchKernel(kernel, dim3(ntt_grid_blocks(kernel, p.threads, smem, count)), dim3(p.threads), params,
                          smem, c.stream);
}
}  // namespace

bool ntt_cached_supported(const Variant& v, uint64_t bits) {
  if (v.shape != &kCrtShape || v.op != Op::Mul || packed(v) || bits == 0 || bits > crt_max_bits(v)) return false;
  const block::NttPlan p = plan_for(v, bits);
  return p.log_d == 0 && p.log_m >= 3;  // ntt_cached.cuh: unsplit, the fused middle pass
}
uint64_t ntt_spectrum_bytes(const Variant& v, uint64_t bits) {
  return uint64_t(plan_for(v, bits).m()) * sizeof(arith::Crt3::Elem);
}
uint64_t ntt_cached_table_bytes(const Variant& v, uint64_t bits) {
  return block::ntt_table_elems(plan_for(v, bits)) * sizeof(arith::Crt3::Elem);
}
cudaError_t launch_ntt_cached_tables(const NttCachedCall& c) {
  return launch_ntt_twiddle_kernel<arith::Crt3>(static_cast<arith::Crt3::Elem*>(c.tables), plan_for(*c.v, c.bits).log_n,
                                                c.stream);
}
cudaError_t launch_ntt_spectra(const NttCachedCall& c, const uint64_t* b, uint64_t count, void* b_hat) {
  if (count == 0) return cudaSuccess;
  uint32_t limbs = c.limbs;
  auto* hat = static_cast<arith::Crt3::Elem*>(b_hat);
  const auto* table = static_cast<const arith::Crt3::Elem*>(c.tables);
  void* params[] = {&b, &limbs, &count, &hat, &table};
  return launch_cached(c, spectrum_kernel_of(log_m_max(*c.v)), count, params);
}
cudaError_t launch_ntt_cached_mul(const NttCachedCall& c, uint64_t* r, uint32_t out_limbs, uint64_t out_bits,
                                  const uint64_t* a, uint64_t count, const void* b_hat, bool b_shared) {
  if (count == 0) return cudaSuccess;
  KernelArgs args{};
  args.r = r;
  args.a = a;
  args.count = count;
  args.bits = out_bits;
  args.limbs = c.limbs;
  args.out_limbs = out_limbs;
  args.scratch = c.tables;
  const auto* hat = static_cast<const arith::Crt3::Elem*>(b_hat);
  uint32_t shared = b_shared ? 1 : 0;
  void* params[] = {&args, &hat, &shared};
  return launch_cached(c, cached_kernel_of(log_m_max(*c.v)), count, params);
}

void append_ntt_crt_variants(std::vector<Variant>& out) {
  for (Op op : {Op::Mul, Op::Sqr})
    for (bool pack : {false, true}) {
      add(out, op, 12, 256, pack);
      add(out, op, 12, 512, pack);
      add(out, op, 13, 512, pack);
      add(out, op, 13, 1024, pack);
    }
}

}  // namespace bigtune::kernels::variants
