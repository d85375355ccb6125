// The team DFMA powm's 6, 8 and 16 Kbit shapes (dfma_team_kernels.cuh; the
// launch, shape rules and smaller shapes: dfma_team_instances.cu): 6 Kbit
// k = 120 on 8 lanes of 15 limbs, 128 on 16 of 8; 8 Kbit k = 160 on 8 of 20,
// 16 of 10, 32 of 5; 16 Kbit k = 320 on 16 of 20, 32 of 10; and ".sq"
// (squarings by half the pairs, dteam::mont_sqr) at 16 Kbit (1.02-1.05x
// the plain build; at 8 Kbit it ran 0.998-1.009x, at 4 Kbit 0.98x, and was
// dropped: session 12), with fixed and (the default from 10240 bits) sliding
// windows.
#include "kernels/variants/dfma_team_kernels.cuh"

namespace bigtune::kernels::variants {

void append_dfma_team_large_variants(std::vector<Variant>& out) {
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  add_team_variant(out, k(&dfma_team_powm_kernel<96, 8, 15, 6, 4>), 96, 8, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<96, 16, 8, 6, 5>), 96, 16, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<128, 8, 20, 6, 3>), 128, 8, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<128, 16, 10, 6, 4>), 128, 16, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<128, 32, 5, 6, 5>), 128, 32, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<256, 16, 20, 6, 3>), 256, 16, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<256, 32, 10, 6, 4>), 256, 32, 6);
  add_team_variant(out, k(&dfma_team_powm_kernel<256, 32, 10, 6, 4, true>), 256, 32, 6, true);
  // Sliding windows of 8 bits (one team a warp, so no divergence), the
  // default from 10240 bits: 835.5 powm/s at 16 Kbit against 797.6 for the
  // fixed windows of 6 (.w6.sq) and 828.4 for sliding ones of 7 (session 13,
  // run D).
  add_team_variant(out, k(&dfma_team_powm_kernel<256, 32, 10, 8, 4, true, true>), 256, 32, 8, true, true);
}

}  // namespace bigtune::kernels::variants
