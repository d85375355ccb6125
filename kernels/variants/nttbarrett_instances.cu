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

  // Twiddles (3N entries), as the CRT NTT variants fill them per launch.
  const block::NttPlan p = modular::nttbarrett_plan(n);
  Field::Elem* tw = reinterpret_cast<Field::Elem*>(at(l.twiddles));
  {
    const uint64_t entries = block::ntt_table_elems(p);
    const uint32_t blocks = uint32_t(std::min<uint64_t>((entries + 255) / 256, 1024));
    ntt_twiddle_kernel<Field><<<blocks, 256, 0, stream>>>(tw, p.log_n);
  }
  cudaError_t e = cudaGetLastError();
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
}

}  // namespace bigtune::kernels::variants
