// __global__ kernel of the warp divmod (kernels/warp/divmod_knuth.cuh):
// q = floor(u / v), r = u mod v for u of `limbs` and v of `b_limbs` 32-bit
// limbs (v no longer than u); a zero divisor gives q = r = 0 and flag 1.
// Index math, blocked loads, normalisation, one warp routine, stores.
// With args.scratch set (one uint32 per instance) only the instances marked
// nonzero there run: the second pass of divmod.newton
// (kernels/variants/warp_divnewton_instances.cu); the others are untouched.
#pragma once
#include <cstdint>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/warp_kernels.cuh"
#include "kernels/warp/divmod_knuth.cuh"

namespace bigtune::kernels::variants {

template <int L, int Q>
__global__ void __launch_bounds__(kWarpMaxThreads) warp_divmod_kernel(KernelArgs args) {
  using Div = warp::WarpDivModKnuth<L, Q>;
  constexpr uint32_t N = L * Q;
  WarpIndex<L> t(args);
  if (args.scratch && t.active) t.active = static_cast<const uint32_t*>(args.scratch)[t.instance] != 0;
  const uint32_t un = args.limbs, vl = args.b_limbs, first = t.lane * Q;
  const uint32_t* u = static_cast<const uint32_t*>(args.a) + (t.active ? t.instance * un : 0);
  const uint32_t* vsrc = static_cast<const uint32_t*>(args.b) + (t.active ? t.instance * vl : 0);

  // Divisor: its length vn (0: zero), then top-aligned at [N - vn, N) and
  // normalised so that its top bit is set (shift s).
  uint32_t v[Q];
  warp::load_blocked<Q>(v, vsrc, first, vl, t.active);
  const uint32_t vn = uint32_t(Div::top_digit(v) + 1);
  const uint32_t v_at = N - vn;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t p = first + k;
    v[k] = (t.active && p >= v_at) ? vsrc[p - v_at] : 0u;
  }
  const uint32_t v_top = __shfl_sync(0xffffffffu, v[Q - 1], L - 1, L);
  const uint32_t s = vn ? uint32_t(__clz(v_top)) : 0u;
  Div::shl_bits(v, s);

  // Dividend: at [N - un, N), times 2^s; the bits pushed out go to ext.
  uint32_t w[Q];
  const uint32_t u_at = N - un;
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint32_t p = first + k;
    w[k] = (t.active && p >= u_at) ? u[p - u_at] : 0u;
  }
  const uint32_t ext = Div::shl_bits(w, s);

  const uint32_t steps = (t.active && vn) ? un - vn + 1 : 0u;
  const uint32_t warp_steps = __reduce_max_sync(0xffffffffu, steps);
  uint32_t q[Q];
  Div().run(q, w, ext, v, steps, warp_steps);
  Div::shr_bits(w, s, 0u);  // remainder * 2^s -> remainder (ext is 0 now)

  warp::store_blocked<Q>(static_cast<uint32_t*>(args.r) + (t.active ? t.instance * args.out_limbs : 0), q, first,
                         args.out_limbs, t.active);
  if (t.active) {
    uint32_t* r2 = static_cast<uint32_t*>(args.r2) + t.instance * args.r2_limbs;
#pragma unroll
    for (int k = 0; k < Q; ++k) {
      const uint32_t p = first + k;
      if (p >= v_at && p - v_at < args.r2_limbs) r2[p - v_at] = w[k];
    }
    for (uint32_t i = vn + t.lane; i < args.r2_limbs; i += L) r2[i] = 0;  // the remainder is below v
    if (t.lane == 0 && args.flags) args.flags[t.instance] = vn == 0 ? 1u : 0u;
  }
}

}  // namespace bigtune::kernels::variants
