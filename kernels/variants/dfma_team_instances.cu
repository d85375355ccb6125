// powm with the limb products on the FP64 pipe for operands one thread
// cannot hold: "powm.dfmat.u64.q<NW>.t<T>.w<W>", a team of T lanes an
// instance, each holding S = k / T of the k 52-bit limbs
// (kernels/modular/dfma_team_montgomery.cuh; the kernel in
// dfma_team_kernels.cuh), 128-thread blocks, NW words (64 NW bits) at most.
// This file: the launch, the shape rules and the 2.5-4 Kbit shapes (2.5 Kbit
// k = 52 on 4 lanes of 13 limbs; 3 Kbit k = 60 on 4 lanes of 15, 64 on 8 of
// 8; 4 Kbit k = 80 on 4 lanes of 20, 8 of 10, 16 of 5); the 6-16 Kbit shapes
// are in dfma_team_large_instances.cu. Fewer limbs a lane: fewer registers
// (more warps an SM), more shuffles a limb product. Issue 9 (the powm targets
// at 4 and 8 Kbit).
//
// The launch: the team kernel, whose teams with an even modulus only set
// scratch word 0; the host reads that word back, and only when it is set
// launches the thread Montgomery powm of the same size in "even only" mode
// (mod_fallback.hpp: at 128 and 256 limbs a launch reserves GBs of stack); at
// 16 Kbit, where no such kernel is kept, the whole call runs again on the
// composed Barrett powm.
#include "kernels/variants/dfma_team_kernels.cuh"
#include "kernels/variants/mod_fallback.hpp"

namespace bigtune::kernels::variants {
namespace {

uint32_t team_lanes(const Variant& v, uint64_t) { return v.param; }
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t team_max_bits(const Variant& v) { return 64ull * v.q; }
uint64_t team_scratch(const Variant&, uint64_t, uint64_t) { return 16; }  // word 0: "an even modulus"

cudaError_t team_powm_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (args.count == 0) return cudaSuccess;
  // The smallest thread powm that holds m; none past 256 limbs (16 Kbit).
  const void* even = 2 * v.q <= 256 ? large_even_modulus_kernel(Op::PowM, 2 * v.q <= 128 ? 128 : 256) : nullptr;
  if (!args.scratch) return cudaErrorInvalidValue;
  uint32_t* flag = static_cast<uint32_t*>(args.scratch);
  cudaError_t e = cudaMemsetAsync(flag, 0, 4, stream);
  KernelArgs k = args;
  k.ipb = g.ipb;
  k.threads_per_instance = v.param;
  void* params[] = {&k};
  if (e == cudaSuccess) e = cudaLaunchKernel(v.kernel, dim3(g.grid), dim3(g.block), params, 0, stream);
  uint32_t word = 0;
  if (e == cudaSuccess) e = cudaMemcpyAsync(&word, flag, sizeof word, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess || word == 0) return e;
  // 16 Kbit: the whole call again on the composed Barrett powm (any modulus;
  // the odd ones' results are rewritten equal).
  if (!even) return powm_on_composed_barrett(args, stream);
  return launch_even_powm_pass(even, args, stream);
}

}  // namespace

const ShapeRules kTeamPowmShape{team_lanes, no_smem, team_max_bits, team_scratch, team_powm_launch, false};

void append_dfma_team_variants(std::vector<Variant>& out) {
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  // 2.5 Kbit: k = 52.
  add_team_variant(out, k(&dfma_team_powm_kernel<40, 4, 13, 6, 4>), 40, 4, 6);
  // 3 Kbit: k = 60 / 64.
  add_team_variant(out, k(&dfma_team_powm_kernel<48, 4, 15, 6, 4>), 48, 4, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<48, 8, 8, 6, 5>), 48, 8, 6);
  // 4 Kbit: k = 80.
  add_team_variant(out, k(&dfma_team_powm_kernel<64, 4, 20, 6, 3>), 64, 4, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<64, 8, 10, 6, 4>), 64, 8, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<64, 16, 5, 6, 5>), 64, 16, 6);
  append_dfma_team_large_variants(out);
}

}  // namespace bigtune::kernels::variants
