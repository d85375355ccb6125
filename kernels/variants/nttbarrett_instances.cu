// powm.nttbarrett.u64.q1.w<w>: the fused NTT Barrett powm (issue 9, task
// nttpowm; kernel and algorithm: kernels/modular/nttbarrett_powm.cuh, bound:
// bench/notes/nttpowm-bound.md). One launch does the whole exponentiation,
// one block per instance (persistent blocks over the batch), after the
// per-call preparation the composed Barrett powm also does
// (barrett_instances.cu): s, m' = m << s, mu = floor((2^(2N) - 1) / m') by
// the registered division at 2N bits, and the CRT twiddle table.
// Any modulus (even, 1, 2^k +- 1), any exponent length, x >= m reduced
// first; 1 - 2^16 bits (the transform of 4n - 1 coefficients held in one
// block's shared memory: 2^12 CRT elements). One kernel instantiation; the
// window w (4, 5, 6) is a runtime parameter.
// barrett_kernels.cuh defines its __global__ wrappers (not templates) in the
// header; barrett_instances.cu holds them, and a second definition here
// would not link. Its switch for the host warp emulation leaves them out;
// the two this launch needs are defined below.
#define BIGTUNE_WARP_EMULATION
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/block/layout.hpp"
#include "kernels/modular/barrett.hpp"
#include "kernels/modular/barrett_kernels.cuh"
#include "kernels/modular/nttbarrett_powm.cuh"
#include "kernels/modular/nttmont_powm.cuh"
#include "kernels/modular/nttmont_prep.hpp"
#include "kernels/preferred_plans.hpp"
#include "kernels/variants/barrett_mu_division.hpp"
#include "kernels/variants/nttbarrett_variants.hpp"
#include "kernels/variants/ntt_grid.hpp"
#include "kernels/variants/ntt_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {

using modular::BarrettDev;
using modular::NttBarrettParams;
using Field = arith::Crt3;

constexpr uint64_t kMaxBits = uint64_t(1) << 16;
constexpr uint32_t kGlueWarps = 8;  // barrett_prep/mu kernels: one instance per warp

// barrett_prep_kernel / barrett_mu_kernel of barrett_kernels.cuh (left out
// above): one instance per warp, grid-stride.
__global__ void __launch_bounds__(256) nb_prep_kernel(BarrettDev v, const uint64_t* m) {
  for (uint64_t i = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < v.count_m;
       i += (uint64_t(gridDim.x) * blockDim.x) >> 5)
    modular::barrett_prep_body(v, m, i);
}
__global__ void __launch_bounds__(256) nb_mu_kernel(BarrettDev v) {
  for (uint64_t i = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; i < v.count;
       i += (uint64_t(gridDim.x) * blockDim.x) >> 5)
    modular::barrett_mu_body(v, i);
}

uint64_t align256(uint64_t x) { return (x + 255) / 256 * 256; }
uint32_t words_of(uint64_t bits) { return block::limbs_for_bits(bits, 64); }

struct Layout {
  uint64_t shift, d, flag, div_flags, mprime, mu, dividend, divisor, quot, rem, div_scratch, twiddles, slots;
  uint64_t slot_bytes, total;
};

// count_m: moduli (1 shared, else count); scratch_bytes() is called without
// knowing it, so it sizes the division's buffers for count moduli.
Layout layout_of(const Variant& v, uint64_t bits, uint64_t count) {
  const uint32_t n = words_of(bits);
  const uint64_t big_n = 64ull * n;
  Layout l{};
  uint64_t at = 0;
  const auto take = [&](uint64_t bytes) {
    const uint64_t here = at;
    at += align256(bytes);
    return here;
  };
  l.shift = take(count * 4);
  l.d = take(count * 4);
  l.flag = take(4);
  l.div_flags = take(count * 4);
  l.mprime = take(count * n * 8);
  l.mu = take(count * n * 8);
  l.dividend = take(count * 2 * n * 8);
  l.divisor = take(count * 2 * n * 8);
  l.quot = take(count * 2 * n * 8);
  l.rem = take(count * 2 * n * 8);
  // The launch divides for count_m = 1 (shared modulus) or count moduli:
  // room for either choice.
  const BarrettDivision dv = barrett_mu_division(2 * big_n, count), d1 = barrett_mu_division(2 * big_n, 1);
  l.div_scratch = take(std::max(dv.v ? scratch_bytes(*dv.v, 2 * big_n, count) : 0,
                                d1.v ? scratch_bytes(*d1.v, 2 * big_n, 1) : 0));
  l.twiddles = take(block::ntt_table_elems(modular::nttbarrett_plan(n)) * sizeof(Field::Elem));
  l.slot_bytes = modular::nttbarrett_slot_bytes(n, v.param);
  l.slots = take(uint64_t(block::ntt_slots(count)) * l.slot_bytes);
  l.total = at;
  return l;
}

uint32_t nb_threads(const Variant&, uint64_t bits) { return modular::nttbarrett_plan(words_of(bits)).threads; }
uint64_t nb_smem(const Variant&, uint64_t bits, uint32_t) { return modular::nttbarrett_smem_bytes(words_of(bits)); }
uint64_t nb_max_bits(const Variant&) { return kMaxBits; }
uint64_t nb_scratch(const Variant& v, uint64_t bits, uint64_t count) { return layout_of(v, bits, count).total; }

cudaError_t nb_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // nb_scratch's buffers
  if (args.count == 0) return cudaSuccess;
  const uint32_t n = args.limbs;
  if (uint64_t(n) * 64 > kMaxBits) return cudaErrorInvalidValue;
  const uint64_t big_n = 64ull * n, count_m = args.m_shared ? 1 : args.count;
  char* scratch = static_cast<char*>(args.scratch);
  const Layout l = layout_of(v, big_n, args.count);
  const BarrettDivision div = barrett_mu_division(2 * big_n, count_m);  // as the composed Barrett's
  if (!div.v) return cudaErrorInvalidConfiguration;
  const auto at = [&](uint64_t off) { return scratch + off; };

  BarrettDev d{};
  d.count = args.count;
  d.count_m = count_m;
  d.n = n;
  d.shift = reinterpret_cast<uint32_t*>(at(l.shift));
  d.d = reinterpret_cast<uint32_t*>(at(l.d));
  d.flag = reinterpret_cast<uint32_t*>(at(l.flag));
  d.mprime = reinterpret_cast<uint64_t*>(at(l.mprime));
  d.mu = reinterpret_cast<uint64_t*>(at(l.mu));
  d.dividend = reinterpret_cast<uint64_t*>(at(l.dividend));
  d.divisor = reinterpret_cast<uint64_t*>(at(l.divisor));
  d.quot = reinterpret_cast<const uint64_t*>(at(l.quot));
  const dim3 glue_block(32 * kGlueWarps);
  const dim3 grid(uint32_t(std::min<uint64_t>(block::ceil_div(args.count, kGlueWarps), 1u << 20)));
  const dim3 grid_m(uint32_t(std::min<uint64_t>(block::ceil_div(count_m, kGlueWarps), 1u << 20)));

  // mu = floor((2^(2N) - 1) / m'), as barrett_instances.cu.
  nb_prep_kernel<<<grid_m, glue_block, 0, stream>>>(d, static_cast<const uint64_t*>(args.m));
  {
    const cudaError_t e = launch_barrett_mu_division(div, big_n, count_m, d.dividend, d.divisor,
                                                     reinterpret_cast<uint64_t*>(at(l.quot)),
                                                     reinterpret_cast<uint64_t*>(at(l.rem)),
                                                     reinterpret_cast<uint32_t*>(at(l.div_flags)), at(l.div_scratch),
                                                     stream);
    if (e != cudaSuccess) return e;
  }
  nb_mu_kernel<<<grid, glue_block, 0, stream>>>(d);

  // Twiddles, as the CRT NTT variants fill them per launch.
  const block::NttPlan p = modular::nttbarrett_plan(n);
  Field::Elem* tw = reinterpret_cast<Field::Elem*>(at(l.twiddles));
  cudaError_t e = launch_ntt_twiddle_kernel<Field>(tw, p.log_n, stream);
  if (e != cudaSuccess) return e;

  const uint32_t smem = uint32_t(modular::nttbarrett_smem_bytes(n));
  if (smem > 48 * 1024) {
    e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  NttBarrettParams prm{};
  prm.shift = d.shift;
  prm.mprime = d.mprime;
  prm.mu = d.mu;
  prm.twiddles = tw;
  prm.slots = at(l.slots);
  prm.slot_bytes = l.slot_bytes;
  prm.w = v.param;
  KernelArgs copy = args;
  void* params[] = {&copy, &prm};
  // At most ntt_slots(count) blocks (the slots allocated), one wave.
  return cudaLaunchKernel(v.kernel, dim3(ntt_grid_blocks(v.kernel, p.threads, smem, args.count)), dim3(p.threads),
                          params, smem, stream);
}

const ShapeRules kNttBarrettShape{nb_threads, nb_smem, nb_max_bits, nb_scratch, nb_launch, false};

// powm.nttmont.u64.q1.w<w>: the NTT Montgomery powm on R = 2^N' + 1
// (kernels/modular/nttmont_powm.cuh, session 14). Its scratch starts with the
// Barrett powm's (layout_of): a batch with a modulus the Montgomery form
// cannot take (even, 1, or sharing a factor with R: nttmont_prep.hpp) runs
// the Barrett powm's 64-register kernel (.w<w>.b2's) there instead.
// The variant's parameter: the window bits, plus kNmSliding for sliding windows.
constexpr uint32_t kNmSliding = 0x100;
uint32_t nm_window(const Variant& v) { return v.param & 0xff; }
// The Barrett fallback's window bits: its scratch (mont_layout_of) and its
// launch (nm_launch) must agree.
constexpr uint32_t kNmFallbackWindow = 6;

struct MontLayout {
  uint64_t consts, twiddles, slots, slot_bytes, total;
};
MontLayout mont_layout_of(const Variant& v, uint64_t bits, uint64_t count) {
  const uint32_t n = words_of(bits), nw = modular::nttmont_words(n);
  MontLayout l{};
  Variant barrett = v;  // the fallback's scratch (nm_launch)
  barrett.param = kNmFallbackWindow;
  uint64_t at = layout_of(barrett, bits, count).total;
  const auto take = [&](uint64_t bytes) {
    const uint64_t here = at;
    at += align256(bytes);
    return here;
  };
  l.consts = take(count * modular::kNttMontConstRows * nw * 8);
  l.twiddles = take(block::ntt_table_elems(modular::nttmont_plan(n)) * sizeof(Field::Elem));
  l.slot_bytes = modular::nttmont_slot_bytes(n, nm_window(v), (v.param & kNmSliding) != 0);
  l.slots = take(uint64_t(block::ntt_slots(count)) * l.slot_bytes);
  l.total = at;
  return l;
}

uint32_t nm_threads(const Variant&, uint64_t bits) { return modular::nttmont_plan(words_of(bits)).threads; }
uint64_t nm_smem(const Variant&, uint64_t bits, uint32_t) { return modular::nttmont_smem_bytes(words_of(bits)); }
uint64_t nm_scratch(const Variant& v, uint64_t bits, uint64_t count) { return mont_layout_of(v, bits, count).total; }

cudaError_t nm_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;
  if (args.count == 0) return cudaSuccess;
  const uint32_t n = args.limbs;
  if (uint64_t(n) * 64 > kMaxBits) return cudaErrorInvalidValue;
  const uint32_t nw = modular::nttmont_words(n);
  const uint64_t count_m = args.m_shared ? 1 : args.count;
  char* scratch = static_cast<char*>(args.scratch);
  const MontLayout l = mont_layout_of(v, 64ull * n, args.count);

  // The moduli's constants on the host (nttmont_prep.hpp), once per call.
  std::vector<uint64_t> m(count_m * n), consts(count_m * modular::kNttMontConstRows * nw);
  cudaError_t e = cudaMemcpyAsync(m.data(), args.m, m.size() * 8, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return e;
  if (!modular::nttmont_constants(m.data(), count_m, n, nw, consts.data())) {
    // The Barrett powm's default build for the size: 128 registers to 2^15
    // bits, 64 above (nttbarrett_powm.cuh), 6-bit windows.
    Variant barrett = v;
    barrett.param = kNmFallbackWindow;
    barrett.kernel = n <= 512 ? reinterpret_cast<const void*>(&modular::nttbarrett_powm_kernel<1>)
                              : reinterpret_cast<const void*>(&modular::nttbarrett_powm_kernel<2>);
    return nb_launch(barrett, args, g, stream);
  }
  e = cudaMemcpyAsync(scratch + l.consts, consts.data(), consts.size() * 8, cudaMemcpyHostToDevice, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);  // consts is freed on return
  if (e != cudaSuccess) return e;

  const block::NttPlan p = modular::nttmont_plan(n);
  Field::Elem* tw = reinterpret_cast<Field::Elem*>(scratch + l.twiddles);
  e = launch_ntt_twiddle_kernel<Field>(tw, p.log_n, stream);
  if (e != cudaSuccess) return e;
  const uint32_t smem = uint32_t(modular::nttmont_smem_bytes(n));
  if (smem > 48 * 1024) {
    e = cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
  }
  modular::NttMontParams prm{};
  prm.consts = reinterpret_cast<const uint64_t*>(scratch + l.consts);
  prm.m_shared = args.m_shared;
  prm.twiddles = tw;
  prm.slots = scratch + l.slots;
  prm.slot_bytes = l.slot_bytes;
  prm.w = nm_window(v);
  prm.sliding = (v.param & kNmSliding) ? 1 : 0;
  KernelArgs copy = args;
  void* params[] = {&copy, &prm};
  return cudaLaunchKernel(v.kernel, dim3(ntt_grid_blocks(v.kernel, p.threads, smem, args.count)), dim3(p.threads),
                          params, smem, stream);
}

const ShapeRules kNttMontShape{nm_threads, nm_smem, nb_max_bits, nm_scratch, nm_launch, false};

}  // namespace

void append_nttbarrett_variants(std::vector<Variant>& out) {
  const void* kernel = reinterpret_cast<const void*>(&modular::nttbarrett_powm_kernel<1>);
  for (uint32_t w : {4u, 5u, 6u})
    out.push_back(make_variant(Op::PowM, "block", "nttbarrett", 64, 1, modular::kNttBarrettMaxThreads, kernel,
                               kNttBarrettShape, "w" + std::to_string(w), w));
  // 64 registers, two blocks per SM at 2^16 bits (nttbarrett_powm.cuh): the
  // default above 32 Kbit.
  const void* kernel_b2 = reinterpret_cast<const void*>(&modular::nttbarrett_powm_kernel<2>);
  out.push_back(make_variant(Op::PowM, "block", "nttbarrett", 64, 1, modular::kNttBarrettMaxThreads, kernel_b2,
                             kNttBarrettShape, "w6.b2", 6));
  // The NTT Montgomery powm on R = 2^N' + 1 (nttmont_powm.cuh): half-length
  // products. One build, 128 registers (two 256-thread blocks per SM at 2^16
  // bits); the 80- and 96-register builds spilled ~0.6-0.8 KB around the
  // products and ran 0.78x / 0.90x (bench/results/2026-11-28-h100-session14.md
  // runs B, C, E).
  const void* kernel_mont = reinterpret_cast<const void*>(&modular::nttmont_powm_kernel<256, 2>);
  for (uint32_t w : {5u, 6u, 7u})
    out.push_back(make_variant(Op::PowM, "block", "nttmont", 64, 1, modular::kNttMontMaxThreads, kernel_mont,
                               kNttMontShape, "w" + std::to_string(w), w));
  // Sliding windows (HAC 14.85): 2^(w-1) odd powers, ~E/(w+1) window products.
  for (uint32_t w : {7u, 8u, 9u})
    out.push_back(make_variant(Op::PowM, "block", "nttmont", 64, 1, modular::kNttMontMaxThreads, kernel_mont,
                               kNttMontShape, "sw" + std::to_string(w), w | kNmSliding));
}

}  // namespace bigtune::kernels::variants
