// The team DFMA powm kernel (kernels/modular/dfma_team_montgomery.cuh) and
// the variant maker its instance files share: dfma_team_instances.cu (2.5-4
// Kbit shapes, the launch and the shape rules) and
// dfma_team_large_instances.cu (6-16 Kbit), two files so that two cores
// compile the shapes in parallel.
#pragma once
#include <string>
#include <vector>

#include "kernels/modular/dfma_team_montgomery.cuh"
#include "kernels/registry.hpp"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {

constexpr uint32_t kTeamThreads = 128;

// One team of T lanes per instance; args.ipb instances a block. The shared
// operand of each team sits k + 1 doubles apart (an odd stride: the teams of
// a warp read their a_i from different banks). Sqr: squarings by half the
// pairs (dteam::mont_sqr), with the square's column sums in shared memory.
// Four steps a pass of the products' rolled loops (session 12: 1.01-1.04x
// the rate with two at 4-16 Kbit, run E; the column window's registers
// rotate back once every four steps).
template <int NW, int T, int S, int W, int MinBlocks, bool Sqr = false, bool Sliding = false>
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
  // A team's words of shared memory: the square's column sums (Sqr) and,
  // where the block's static shared memory stays within 48 KB, rank 0's
  // division region, used before and after the exponentiation (session 13:
  // in local memory the 16 Kbit region missed L1 and its serial division
  // took ~5 % of a full-exponent powm).
  constexpr int kTeams = int(kTeamThreads) / T;
  constexpr int kColSlots = Sqr ? SquareColumns<T, S>::kSlots : 0;
  constexpr int kRegionSlots = int(modular::dmont::region_limbs<kK, NW>() + 1) / 2;
  constexpr int kBothSlots = kColSlots > kRegionSlots ? kColSlots : kRegionSlots;
  constexpr bool kSharedRegion = 8 * kTeams * (kK + 1 + kBothSlots) <= 48 * 1024;
  constexpr int kTeamSlots = kSharedRegion ? kBothSlots : kColSlots > 0 ? kColSlots : 1;
  __shared__ double a_all[kTeams * (kK + 1)];
  __shared__ uint64_t team_words[kTeams * kTeamSlots];
  double table[(Sliding ? 1 << (W - 1) : 1 << W) * S];
  uint32_t local_region[kSharedRegion ? 1 : modular::dmont::region_limbs<kK, NW>()];
  uint64_t* words = team_words + team_index * kTeamSlots;
  uint32_t* region = kSharedRegion ? reinterpret_cast<uint32_t*>(words) : local_region;
  powm<NW, T, S, W, 4, Sqr, Sliding>(r, args.out_limbs, x, args.limbs, e, args.e_limbs, m, args.m_limbs,
                                     a_all + team_index * (kK + 1), table, region, team, words);
}

// The shape rules of every team variant (dfma_team_instances.cu).
extern const ShapeRules kTeamPowmShape;

// "powm.dfmat.u64.q<NW>.t<lanes>.<w|sw><w>[.sq]" (sw: sliding windows);
// param: the lanes of a team.
inline void add_team_variant(std::vector<Variant>& out, const void* kernel, uint32_t nw, uint32_t lanes, int w,
                             bool sqr = false, bool sliding = false) {
  out.push_back(make_variant(Op::PowM, "warp", "dfmat", 64, nw, kTeamThreads, kernel, kTeamPowmShape,
                             "t" + std::to_string(lanes) + (sliding ? ".sw" : ".w") + std::to_string(w) +
                                 (sqr ? ".sq" : ""),
                             lanes));
}

// dfma_team_large_instances.cu: 6, 8 and 16 Kbit.
void append_dfma_team_large_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
