// powm on the warp Montgomery squaring with each column on its own
// accumulator (task powmpipe, issue 9): the global-table powm of
// warp_mod_sqr_instances.cu / warp_mod_l2_instances.cu /
// warp_mod_regs_instances.cu (powm_warp_global_kernel) with the kPipe bits of
// WarpMontgomerySqr / WarpMontgomerySqr2 on (kernels/warp/montgomery_block.cuh:
// detail::paired_columns, quotient_pipe): the same limb products and sums in
// an order that lets one warp issue an IMAD.WIDE every 4 cycles (the
// FMA-heavy pipe's rate) instead of every ~5 on one accumulator chain, so the
// pipe idles less when both warps of a scheduler are in their non-FMA code.
// Same launch, shape rules, scratch and even-modulus fallback as the shapes
// they shadow. Names "powm.bgsqr.u32.q<Q>.l<L>.w<w>.pipe".
//
// The bits per shape are the ones that cut the lone-warp issue time in the
// SASS (scripts/sass_stall_sum.py, bench/notes/powmregs-bound.md section
// "task powmpipe"): the square's pair step (4), its reduction columns (8) and
// quotient (16) everywhere; the product's quotient (256) at Q = 16 only (at
// Q = 8 it lengthened the product step); at L = 2 the two-lane squaring's
// reduction (8, 16) and its product's quotient (256).
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_pipe.hpp"
#include "kernels/variants/warp_mod_variants.cuh"
#include "kernels/warp/montgomery_sqr2.cuh"

namespace bigtune::kernels::variants {

namespace {
constexpr int kSqrBits = 4 | 8 | 16;

template <int L, int Q, class Mont>
void append_pipe_powm(std::vector<Variant>& out, uint32_t w, const char* suffix = ".pipe") {
  const void* k = reinterpret_cast<const void*>(&powm_warp_global_kernel<L, Q, Mont>);
  out.push_back(make_variant(Op::PowM, "warp", "bgsqr", 32, Q, kWarpModMaxThreads, k, warp::kWarpModGlobalTableShape,
                             "l" + std::to_string(L) + ".w" + std::to_string(w) + suffix,
                             warp::warp_mod_param(L, w)));
}
}  // namespace

void append_warp_mod_pipe_variants(std::vector<Variant>& out) {
  append_pipe_powm<2, 16, warp::WarpMontgomerySqr2<16, 8 | 16 | 256>>(out, 5);
  append_pipe_powm<8, 8, warp::WarpMontgomerySqr<8, 8, kSqrBits>>(out, 6);
  append_pipe_powm<8, 16, warp::WarpMontgomerySqr<8, 16, kSqrBits | 256>>(out, 6);
  // The quotient digits alone on their own column accumulators (bits 16, 256):
  // +3-4 % instructions a reduction step instead of +10 %.
  append_pipe_powm<2, 16, warp::WarpMontgomerySqr2<16, 16 | 256>>(out, 5, ".pq");
  append_pipe_powm<8, 16, warp::WarpMontgomerySqr<8, 16, 16 | 256>>(out, 6, ".pq");
}

}  // namespace bigtune::kernels::variants
