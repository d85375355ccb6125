// Fused warp Barrett mulmod / sqrmod (kernels/warp/barrett_fused.cuh; issue 9,
// task mulmodfast): "<op>.wbarrett.u32.q<Q>.l<L>", q8.l4 (1 Kbit), q16.l4,
// q16.l8, q16.l16 (2, 4, 8 Kbit). One kernel per shape, shared by mulmod and
// sqrmod (args.b null).
//
// The launch: for a modulus shared by the batch, the reciprocal and the
// normalised modulus on the host (kernels/modular/wbarrett_prep.hpp: one read
// of m, one stream synchronisation, one small upload), then one kernel. With
// a modulus per instance it runs the warp block Montgomery variant of the
// same limbs (mulmod.bmont.u32.q8.l<LQ/8>: a per-instance setup, no division),
// so that as a default plan it is never slower than bmont; the composed
// Barrett path (a registered division per instance for mu) would cost about
// a mulmod more per call. Its scratch is the larger of the two (both small).
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/block/layout.hpp"
#include "kernels/modular/wbarrett_prep.hpp"
#include "kernels/variants/barrett_variants.hpp"
#include "kernels/variants/variant_factory.hpp"
#include "kernels/warp/barrett_fused.cuh"

namespace bigtune::kernels::variants {
namespace {

static_assert(modular::kWBarrettHeaderWords == warp::kWBarrettHeader, "one scratch layout");

uint32_t wb_lanes(const Variant& v, uint64_t) { return v.param; }
uint64_t wb_smem(const Variant&, uint64_t, uint32_t) { return 0; }  // static shared memory (9-17 KB a block)
uint64_t wb_max_bits(const Variant& v) { return uint64_t(v.param) * v.q * 32; }
const Variant* montgomery_of(const Variant& v);
uint64_t wb_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  const uint64_t own = (warp::kWBarrettHeader + 3ull * v.param * v.q) * 4;
  const Variant* mont = montgomery_of(v);
  return std::max(own, mont ? scratch_bytes(*mont, bits, count) : 0);
}

// Per-instance moduli: the warp block Montgomery variant of the same shape
// (mulmod.bmont.u32.q8.l<L>, warp_mod_block_instances.cu; its own even-modulus
// fallback included), same argument layout (32-bit limbs).
// (Q = 16 shapes: the bmont shape of the same limbs, twice the lanes.)
const Variant* montgomery_of(const Variant& v) {
  const uint32_t lanes = v.param * v.q / 8;
  if (lanes > 32) return nullptr;
  return find_variant(std::string(op_name(v.op)) + ".bmont.u32.q8.l" + std::to_string(lanes));
}

cudaError_t wb_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (args.count == 0) return cudaSuccess;
  if (!args.m_shared) {
    const Variant* mont = montgomery_of(v);
    if (!mont) return cudaErrorInvalidConfiguration;
    const uint64_t bits = args.bits ? args.bits : 32ull * args.limbs;
    return launch(*mont, args, geometry(*mont, bits, args.count, g.ipb ? g.ipb : 128 / v.param, DeviceLimits::h100()), stream);
  }
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the runtime allocates wb_scratch
  const uint32_t lanes = v.param, q = v.q;
  std::vector<uint32_t> m(args.m_limbs);
  cudaError_t e = cudaMemcpyAsync(m.data(), args.m, m.size() * 4, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return e;
  const std::vector<uint32_t> c = modular::wbarrett_constants(m.data(), args.m_limbs, args.limbs, lanes * q, q);
  // Pageable source: staged before the call returns, so c may go.
  e = cudaMemcpyAsync(args.scratch, c.data(), c.size() * 4, cudaMemcpyHostToDevice, stream);
  if (e != cudaSuccess) return e;
  KernelArgs k = args;
  k.ipb = warp::kWBarrettThreads / lanes;
  k.threads_per_instance = lanes;
  const uint64_t grid = block::ceil_div(args.count, k.ipb);
  if (grid > 0x7fffffffull) return cudaErrorInvalidConfiguration;
  void* params[] = {&k};
  return cudaLaunchKernel(v.kernel, dim3(uint32_t(grid)), dim3(warp::kWBarrettThreads), params, 0, stream);
}

const ShapeRules kWBarrettShape{wb_lanes, wb_smem, wb_max_bits, wb_scratch, wb_launch, false};

template <int L, int Q>
void append_for(std::vector<Variant>& out) {
  const void* kernel = reinterpret_cast<const void*>(&warp::wbarrett_mulmod_kernel<L, Q>);
  const std::string lanes = "l" + std::to_string(L);
  out.push_back(make_variant(Op::MulMod, "warp", "wbarrett", 32, Q, warp::kWBarrettThreads, kernel, kWBarrettShape,
                             lanes, L));
  out.push_back(make_variant(Op::SqrMod, "warp", "wbarrett", 32, Q, warp::kWBarrettThreads, kernel, kWBarrettShape,
                             lanes, L));
}

}  // namespace

void append_wbarrett_variants(std::vector<Variant>& out) {
  // Measured on the H100 (bench/results/2026-11-22-h100-mulmodfast.md), the
  // shapes kept are those that won at their size: q8.l4 at 1 Kbit, then Q = 16
  // (the block-rotate loop's 2.8 SASS instructions per digit product against
  // 4.3 at Q = 8, bench/notes/warp-multiplication.md): q16.l4 / l8 / l16 at
  // 2 / 4 / 8 Kbit. Dropped after the same run: q8.l8 (tie with q16.l4 on
  // mulmod, -4 % on sqrmod), q8.l16 (tie at 3 Kbit, -1 to -6 % at 4 Kbit),
  // q8.l32 (-10 % against q16.l16 at 8 Kbit) and q16.l32 (16 Kbit: 7.98e6/s
  // against the composed Barrett's 8.89e6/s, whose products are the warp
  // Karatsuba).
  append_for<4, 8>(out);
  append_for<4, 16>(out);
  append_for<8, 16>(out);
  append_for<16, 16>(out);
}

}  // namespace bigtune::kernels::variants
