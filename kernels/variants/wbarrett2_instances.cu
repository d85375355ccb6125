// Warp Barrett mulmod / sqrmod by halves (kernels/warp/barrett_half.cuh; issue
// 9, task mulmodhalf): "<op>.wbarrett2.u32.q<Q>.l<L>", instances of N = 2 L Q
// limbs: q8.l4.b32 (2 Kbit), q8.l8.b32 (4 Kbit), q16.l8 (8 Kbit).
// One kernel per shape, shared by mulmod and sqrmod (args.b null).
//
// The launch is wbarrett_instances.cu's: for a modulus shared by the batch the
// reciprocal and the normalised modulus on the host
// (kernels/modular/wbarrett_prep.hpp, here with the Barrett width n = N
// whatever the batch's size: the kernel splits every number at H = N / 2),
// then one kernel of one-warp blocks; with a modulus per instance the warp
// block Montgomery variant of the same limbs (mulmod.bmont.u32.q8.l<N/8>).
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/block/layout.hpp"
#include "kernels/modular/wbarrett_prep.hpp"
#include "kernels/variants/variant_factory.hpp"
#include "kernels/warp/barrett_half.cuh"

namespace bigtune::kernels::variants {
namespace {

static_assert(modular::kWBarrettHeaderWords == warp::kWBarrett2HeaderWords, "one scratch layout");

uint32_t limbs_of(const Variant& v) { return 2 * v.param * v.q; }  // N = 2 L Q
uint32_t wb2_lanes(const Variant& v, uint64_t) { return v.param; }
uint64_t wb2_smem(const Variant&, uint64_t, uint32_t) { return 0; }  // static shared memory (7 Q words a lane)
uint64_t wb2_max_bits(const Variant& v) { return uint64_t(limbs_of(v)) * 32; }

// Per-instance moduli: the warp block Montgomery variant of the same limbs
// (warp_mod_block_instances.cu; its own even-modulus fallback included).
const Variant* montgomery_of(const Variant& v) {
  const uint32_t lanes = limbs_of(v) / 8;
  if (lanes > 32) return nullptr;
  return find_variant(std::string(op_name(v.op)) + ".bmont.u32.q8.l" + std::to_string(lanes));
}
uint64_t wb2_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  const uint64_t own = (warp::kWBarrett2HeaderWords + 3ull * limbs_of(v)) * 4;
  const Variant* mont = montgomery_of(v);
  return std::max(own, mont ? scratch_bytes(*mont, bits, count) : 0);
}

cudaError_t wb2_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (args.count == 0) return cudaSuccess;
  if (!args.m_shared) {
    const Variant* mont = montgomery_of(v);
    if (!mont) return cudaErrorInvalidConfiguration;
    const uint64_t bits = args.bits ? args.bits : 32ull * args.limbs;
    // wbarrett's block size for the same bmont shape (256 / its lanes: 32,
    // 16, 8 instances at 2, 4, 8 Kbit), not this kernel's one-warp blocks;
    // the kernel reads its block shape from the arguments, so they follow.
    (void)g;
    const Geometry mg = geometry(*mont, bits, args.count, 256 / (limbs_of(v) / 8), DeviceLimits::h100());
    KernelArgs ma = args;
    ma.ipb = mg.ipb;
    ma.threads_per_instance = mg.threads_per_instance;
    ma.stage_buffers = mg.stage_buffers;
    return launch(*mont, ma, mg, stream);
  }
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the runtime allocates wb2_scratch
  const uint32_t N = limbs_of(v);
  std::vector<uint32_t> m(args.m_limbs);
  cudaError_t e = cudaMemcpyAsync(m.data(), args.m, m.size() * 4, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return e;
  // Barrett width n = N (limbs argument N): the halves split at H.
  const std::vector<uint32_t> c = modular::wbarrett_constants(m.data(), args.m_limbs, N, N, v.q);
  e = cudaMemcpyAsync(args.scratch, c.data(), c.size() * 4, cudaMemcpyHostToDevice, stream);
  if (e != cudaSuccess) return e;
  KernelArgs k = args;
  k.ipb = warp::kWBarrett2Threads / v.param;
  k.threads_per_instance = v.param;
  const uint64_t grid = block::ceil_div(args.count, k.ipb);
  if (grid > 0x7fffffffull) return cudaErrorInvalidConfiguration;
  void* params[] = {&k};
  return cudaLaunchKernel(v.kernel, dim3(uint32_t(grid)), dim3(warp::kWBarrett2Threads), params, 0, stream);
}

const ShapeRules kWBarrett2Shape{wb2_lanes, wb2_smem, wb2_max_bits, wb2_scratch, wb2_launch, false};

template <int L, int Q, int MinBlocks = 1>
void append_for(std::vector<Variant>& out) {
  const void* kernel = reinterpret_cast<const void*>(&warp::wbarrett2_mulmod_kernel<L, Q, MinBlocks>);
  const std::string lanes = "l" + std::to_string(L) + (MinBlocks > 1 ? ".b" + std::to_string(MinBlocks) : "");
  out.push_back(make_variant(Op::MulMod, "warp", "wbarrett2", 32, Q, warp::kWBarrett2Threads, kernel,
                             kWBarrett2Shape, lanes, L));
  out.push_back(make_variant(Op::SqrMod, "warp", "wbarrett2", 32, Q, warp::kWBarrett2Threads, kernel,
                             kWBarrett2Shape, lanes, L));
}

}  // namespace

void append_wbarrett2_variants(std::vector<Variant>& out) {
  // Measured on the H100 (bench/results/2026-11-23-h100-mulmodhalf.md, run 2),
  // the shapes kept are those that beat wbarrett at their size: q8.l4.b32
  // (2 Kbit, mulmod 4.28e8 vs 3.85e8), q8.l8.b32 (4 Kbit, 1.28e8 vs 1.06e8),
  // q16.l8 (8 Kbit, 3.74e7 vs 3.09e7). Q = 8 with a register cap of 32
  // one-warp blocks an SM (63 registers, no spills; b24 within 1 %). Dropped
  // after the same run: q8.l2 (1 Kbit: 1.16e9 capped, 1.21e9 uncapped in run 1,
  // against wbarrett's 1.24e9), q16.l2 and q16.l4 (4.02e8 / 1.25e8, behind
  // the Q = 8 shapes), q8.l16.b32 (3.49e7 against q16.l8's 3.74e7).
  append_for<4, 8, 32>(out);
  append_for<8, 8, 32>(out);
  append_for<8, 16>(out);
}

}  // namespace bigtune::kernels::variants
