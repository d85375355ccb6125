// powm on the Montgomery squaring (bgsqr, warp_mod_sqr_instances.cu) with a
// register cap: the same body (powm_warp_body, global table, squarings on
// warp::WarpMontgomerySqr), compiled under __launch_bounds__(T, B), so that
// ptxas holds each thread to 65536 / (T B) registers (rounded down to a
// multiple of 8) and B blocks of T threads fit an SM. Task powmregs.
//
// Why (bench/notes/powmregs-bound.md): the bgsqr kernels are latency-bound,
// ~1 eligible warp per scheduler (ncu, bench/results/2026-11-22-h100-
// powmsqr-run1-ncu.txt), at 16 warps per SM for Q = 8 (101-119 registers:
// two 256-thread blocks) and 8 for Q = 16 (172-175: one block). Q = 16 on
// 128-thread blocks, three per SM, needs <= 168 registers (65536 / 384 =
// 170.7): 12 warps per SM, 1.5x the warps to hide the dependent IMAD.WIDE
// chains and shuffles, for a cap 4-7 registers under the free allocation.
//
// Names "powm.bgsqr.u32.q<Q>.l<L>.w6.t<T>b<B>" (the window is a launch
// argument; w = 6 is the measured best from 2 Kbit on): the variant's
// max_threads is T, so its instances per block are at most T / L.
#include "kernels/variants/mod_kernels.cuh"  // powm_thread_kernel, the even-modulus fallback
#include "kernels/variants/warp_mod_block.hpp"
#include "kernels/variants/warp_mod_regs.hpp"
#include "kernels/variants/warp_mod_variants.cuh"

namespace bigtune::kernels::variants {

template <int L, int Q, int T, int B>
__global__ void __launch_bounds__(T, B) powm_warp_global_capped_kernel(KernelArgs args) {
  powm_warp_body<L, Q, warp::WarpMontgomerySqr<L, Q>, true>(args, nullptr);
}

namespace {
template <int L, int Q, int T, int B>
void append_capped_for(std::vector<Variant>& out) {
  static_assert(T % 32 == 0 && T <= int(kWarpModMaxThreads), "whole warps, at most the family's 256 threads");
  const ShapeRules& s = warp::kWarpModGlobalTableShape;
  const void* k = reinterpret_cast<const void*>(&powm_warp_global_capped_kernel<L, Q, T, B>);
  out.push_back(make_variant(Op::PowM, "warp", "bgsqr", 32, Q, uint32_t(T), k, s,
                             "l" + std::to_string(L) + ".w6.t" + std::to_string(T) + "b" + std::to_string(B),
                             warp::warp_mod_param(L, 6)));
}
}  // namespace

void append_warp_mod_regs_variants(std::vector<Variant>& out) {
  append_capped_for<4, 16, 128, 3>(out);   // 2 Kbit
  append_capped_for<8, 8, 128, 5>(out);    // 2 Kbit, Q = 8: <= 96 registers, 20 warps per SM
  append_capped_for<8, 8, 128, 6>(out);    // 2 Kbit, Q = 8: <= 80 registers, 24 warps per SM
  append_capped_for<16, 8, 128, 5>(out);   // 4 Kbit, Q = 8
  append_capped_for<32, 8, 128, 5>(out);   // 8 Kbit, Q = 8
  append_capped_for<8, 16, 128, 3>(out);   // 4 Kbit
  append_capped_for<16, 16, 128, 3>(out);  // 8 Kbit
  append_capped_for<32, 16, 128, 3>(out);  // 16 Kbit: one warp per instance
}

// The even moduli of the 16-Kbit warp powm (512 limbs): the thread family's
// CRT kernel at 512 limbs, as mod_large_instances.cu keeps the 128- and
// 256-limb ones for 4 and 8 Kbit. Its arrays live in local memory (64 KB of
// stack a thread, cuobjdump --dump-resource-usage): slow, but only instances
// with an even modulus run it (warp_mod_launch.cu gates it on the scratch
// word), and it keeps the warp powm correct for every modulus.
const void* powm_even_fallback_512() { return reinterpret_cast<const void*>(&powm_thread_kernel<512>); }

}  // namespace bigtune::kernels::variants
