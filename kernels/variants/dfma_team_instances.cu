// powm with the limb products on the FP64 pipe for operands one thread
// cannot hold: "powm.dfmat.u64.q<NW>.t<T>.w<W>", a team of T lanes an
// instance, each holding S = k / T of the k 52-bit limbs
// (kernels/modular/dfma_team_montgomery.cuh), 128-thread blocks, NW words
// (64 NW bits) at most: 2.5 Kbit (k = 52 on 4 lanes of 13 limbs), 3 Kbit
// (k = 60 on 4 lanes of 15, 64 on 8 of 8), 4 Kbit (k = 80 on 4 lanes of 20, 8 of 10, 16 of 5), 6 Kbit (k = 120 on
// 8 of 15, 128 on 16 of 8) and 8 Kbit (k = 160 on 8 of 20, 16 of 10, 32 of
// 5), 16 Kbit (k = 320 on 16 of 20, 32 of 10). Fewer limbs a lane: fewer
// registers (more warps an SM), more shuffles a limb product. Issue 9 (the powm targets at 4 and 8 Kbit).
//
// The launch: the team kernel, whose teams with an even modulus only set
// scratch word 0; the host reads that word back, and only when it is set
// launches the thread Montgomery powm of the same size in "even only" mode
// (mod_fallback.hpp: at 128 and 256 limbs a launch reserves GBs of stack); at
// 16 Kbit, where no such kernel is kept, the whole call runs again on the
// composed Barrett powm.
#include <string>
#include <vector>

#include "kernels/modular/dfma_team_montgomery.cuh"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/mod_fallback.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {

constexpr uint32_t kTeamThreads = 128;

// One team of T lanes per instance; args.ipb instances a block. The shared
// operand of each team sits k + 1 doubles apart (an odd stride: the teams of
// a warp read their a_i from different banks).
template <int NW, int T, int S, int W, int MinBlocks>
__global__ void __launch_bounds__(kTeamThreads, MinBlocks) dfma_team_powm_kernel(KernelArgs args) {
  using namespace modular::dteam;
  constexpr int kK = T * S;
  static_assert(64 * NW + 2 <= 52 * kK, "4m < R = b^k");
  const uint32_t team_index = threadIdx.x / T;
  if (team_index >= args.ipb) return;
  const uint64_t i = uint64_t(blockIdx.x) * args.ipb + team_index;
  if (i >= args.count) return;  // the whole team leaves: its shuffles use its own mask
  const Team<T> team;
  const uint64_t* x = static_cast<const uint64_t*>(args.a) + i * args.limbs;
  const uint64_t* m = static_cast<const uint64_t*>(args.m) + (args.m_shared ? 0 : i * args.m_limbs);
  const uint64_t* e = static_cast<const uint64_t*>(args.e) + (args.e_shared ? 0 : i * args.e_limbs);
  uint64_t* r = static_cast<uint64_t*>(args.r) + i * args.out_limbs;
  if ((word_at(m, args.m_limbs, 0) & 1) == 0) {
    if (team.rank == 0) atomicOr(static_cast<uint32_t*>(args.scratch), 1u);
    return;
  }
  __shared__ double a_all[(kTeamThreads / T) * (kK + 1)];
  double table[(1 << W) * S];
  uint32_t region[modular::dmont::region_limbs<kK, NW>()];
  powm<NW, T, S, W, 2>(r, args.out_limbs, x, args.limbs, e, args.e_limbs, m, args.m_limbs,
                       a_all + team_index * (kK + 1), table, region, team);
}

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

const ShapeRules kTeamPowmShape{team_lanes, no_smem, team_max_bits, team_scratch, team_powm_launch, false};

}  // namespace

void append_dfma_team_variants(std::vector<Variant>& out) {
  const auto add = [&](const void* kernel, uint32_t nw, uint32_t lanes, int w) {
    out.push_back(make_variant(Op::PowM, "warp", "dfmat", 64, nw, kTeamThreads, kernel, kTeamPowmShape,
                               "t" + std::to_string(lanes) + ".w" + std::to_string(w), lanes));
  };
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  // 3 Kbit: k = 60 / 64.
  add(k(&dfma_team_powm_kernel<48, 4, 15, 6, 4>), 48, 4, 6);
  add(k(&dfma_team_powm_kernel<48, 8, 8, 6, 5>), 48, 8, 6);
  // 2.5 Kbit: k = 52.
  add(k(&dfma_team_powm_kernel<40, 4, 13, 6, 4>), 40, 4, 6);
  // 4 Kbit: k = 80.
  add(k(&dfma_team_powm_kernel<64, 4, 20, 6, 3>), 64, 4, 6);
  add(k(&dfma_team_powm_kernel<64, 8, 10, 6, 4>), 64, 8, 6);
  add(k(&dfma_team_powm_kernel<64, 16, 5, 6, 5>), 64, 16, 6);
  // 6 Kbit: k = 120 / 128.
  add(k(&dfma_team_powm_kernel<96, 8, 15, 6, 4>), 96, 8, 6);
  add(k(&dfma_team_powm_kernel<96, 16, 8, 6, 5>), 96, 16, 6);
  // 8 Kbit: k = 160.
  add(k(&dfma_team_powm_kernel<128, 8, 20, 6, 3>), 128, 8, 6);
  add(k(&dfma_team_powm_kernel<128, 16, 10, 6, 4>), 128, 16, 6);
  add(k(&dfma_team_powm_kernel<128, 32, 5, 6, 5>), 128, 32, 6);
  // 16 Kbit: k = 320.
  add(k(&dfma_team_powm_kernel<256, 16, 20, 6, 3>), 256, 16, 6);
  add(k(&dfma_team_powm_kernel<256, 32, 10, 6, 4>), 256, 32, 6);
}

}  // namespace bigtune::kernels::variants
