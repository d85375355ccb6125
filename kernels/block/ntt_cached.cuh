// NTT products with one operand's transform cached (issue 9, task nttpowm).
//
// In a Barrett powm the modulus is fixed for all ~1.2·E steps of an
// instance, so the transforms of mu_lo and m' (kernels/modular/barrett.hpp)
// can be computed once per instance and kept in global memory: each
// reduction product then costs one forward and one inverse transform instead
// of three (bench/notes/nttpowm-bound.md). These are the phases of
// ntt.cuh's ntt_sub_product, split at the second operand's spectrum:
//   ntt_cache_operand:          b -> b_hat (N^-1 folded in, ntt_bhat_base
//                               order: exactly what ntt_sub_product stores
//                               in its slot before the first operand);
//   ntt_cached_coefficients:    a -> forward, x b_hat, inverse: coefficient k
//                               of a·b in x[ntt_phys(k)];
//   mul_ntt_cached(_with) (device): the coefficients, then ntt.cuh's carry
//                               phase (ntt_carry_phase) into 64-bit words.
// Unsplit transforms (D = 1, plan.log_d == 0) with the fused middle pass
// (plan.log_m >= 3): every size the nttbarrett variants hold (<= 2^16 bits:
// N <= 2^12); or one sub-product t of a split plan on its own (t: the twist,
// the result in x in place; the NTT Montgomery powm's halves, D = 2). The
// carry phase is mul_ntt's own (ntt_carry_phase; a copy of it lived here in
// session 7).
#pragma once
#include <cstdint>

#include "kernels/block/ntt.cuh"

namespace bigtune::kernels::block {

// b_hat (M global elements) = the forward transform of b's digits, scaled
// by N^-1 (kScaled; unscaled: a spectrum that is squared or multiplied by a
// scaled one). x: the shared transform buffer. Contains barriers (the last
// one after the store: b_hat may be read by other threads next).
template <class Field, bool kScaled = true, class Barrier>
BIGTUNE_FIELD_HD void ntt_cache_operand(typename Field::Elem* b_hat, typename Field::Elem* x, const NttPlan& p,
                                        const NttTables<Field>& tw, const uint64_t* b, uint32_t b_limbs,
                                        uint32_t tid, uint32_t threads, Barrier barrier, uint32_t t = 0) {
  ntt_load_first<Field, kScaled, NttBarrierPrefetchesInput<Barrier>::value>(
      x, p, tw, b, b_limbs * ntt_digits_per_limb<Field>(), t, tid, threads);
  barrier(false);
  ntt_forward_passes<Field>(x, p, tw, kNttPassLog, tid, threads, barrier);
  ntt_last_pass_out<Field>(b_hat, x, p, tw, tid, threads);
  barrier(false);
}

// a's forward transform, pointwise(g, v) on its spectrum (ntt_middle_pass_with),
// the inverse transform: x[ntt_phys(k)] = coefficient k of the result.
template <class Field, class Barrier, class Pointwise>
BIGTUNE_FIELD_HD void ntt_transform_pointwise(typename Field::Elem* x, const NttPlan& p, const NttTables<Field>& tw,
                                              const uint64_t* a, uint32_t a_limbs, uint32_t tid, uint32_t threads,
                                              Barrier barrier, uint32_t t, Pointwise pointwise) {
  ntt_load_first<Field, false, NttBarrierPrefetchesInput<Barrier>::value>(
      x, p, tw, a, a_limbs * ntt_digits_per_limb<Field>(), t, tid, threads);
  barrier(false);
  ntt_forward_passes<Field>(x, p, tw, kNttPassLog, tid, threads, barrier);
  ntt_middle_pass_with<Field>(x, p, tw, tid, threads, pointwise);
  barrier(p.log_m - ntt_lead_log(p) >= 2 * kNttPassLog);  // as ntt_sub_product: warp-local before stages 3-5
  ntt_inverse_passes<Field>(x, p, tw, kNttPassLog, tid, threads, barrier);
  ntt_scale_out<Field>(nullptr, x, p, tw, t, tid, threads);
  barrier(false);
}

// x[ntt_phys(k)] = coefficient k of a·b (exact, below the field's P) for
// k < M, b given by its cached spectrum b_hat (ntt_cache_operand).
template <class Field, class Barrier>
BIGTUNE_FIELD_HD void ntt_cached_coefficients(typename Field::Elem* x, const typename Field::Elem* b_hat,
                                              const NttPlan& p, const NttTables<Field>& tw, const uint64_t* a,
                                              uint32_t a_limbs, uint32_t tid, uint32_t threads, Barrier barrier,
                                              uint32_t t = 0) {
  ntt_transform_pointwise<Field>(
      x, p, tw, a, a_limbs, tid, threads, barrier, t,
      [&](uint32_t g, typename Field::Elem(&v)[8]) { ntt_group_times<Field>(v, b_hat, p, g); });
}

#if defined(__CUDACC__)
// r = a·b, b by its cached spectrum: two transforms instead of mul_ntt's
// three, then mul_ntt's carry phase (ntt.cuh, ntt_carry_phase, D = 1: no
// sub-products) with the caller's adjust and emit; mul_ntt_cached stores
// r_limbs words reduced modulo 2^r_bits (NttStoreLimbs). r must not overlap
// a or x.
template <class Field, class Adjust, class Emit>
__device__ void mul_ntt_cached_with(uint32_t r_limbs, uint32_t emit_limbs, const uint64_t* a, uint32_t a_limbs,
                                    const typename Field::Elem* b_hat, const NttPlan& p, const NttTables<Field>& tw,
                                    typename Field::Elem* x, uint64_t* carry_words,
                                    typename BlockAddSub<uint64_t, kNttCarryLimbs, false>::TempStorage& scan_storage,
                                    Adjust adjust, Emit emit) {
  ntt_cached_coefficients<Field>(x, b_hat, p, tw, a, a_limbs, threadIdx.x, blockDim.x, [](bool warp_local) {
    if (warp_local) __syncwarp();
    else __syncthreads();
  });
  ntt_carry_phase<Field>(r_limbs, emit_limbs, x, nullptr, p, tw, carry_words, scan_storage, adjust, emit);
}
template <class Field>
__device__ void mul_ntt_cached(uint64_t* r, uint32_t r_limbs, uint64_t r_bits, const uint64_t* a, uint32_t a_limbs,
                               const typename Field::Elem* b_hat, const NttPlan& p, const NttTables<Field>& tw,
                               typename Field::Elem* x, uint64_t* carry_words,
                               typename BlockAddSub<uint64_t, kNttCarryLimbs, false>::TempStorage& scan_storage) {
  mul_ntt_cached_with<Field>(r_limbs, r_limbs, a, a_limbs, b_hat, p, tw, x, carry_words, scan_storage,
                             NttNoAdjust{}, NttStoreLimbs(r, r_limbs, r_bits));
}
#endif  // __CUDACC__

}  // namespace bigtune::kernels::block
