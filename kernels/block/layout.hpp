// Shape arithmetic shared by the device code and the host-side registry: how
// many threads an instance takes, how shared memory is laid out and how many
// bytes a block needs. Keeping it in one header is what lets the registry state
// a variant's geometry without launching it (STYLE.md: no number written twice).
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define BIGTUNE_HD __host__ __device__
#else
#define BIGTUNE_HD
#endif

namespace bigtune::kernels::block {

BIGTUNE_HD constexpr uint32_t ceil_div(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }
BIGTUNE_HD constexpr uint32_t round_up(uint32_t a, uint32_t b) { return ceil_div(a, b) * b; }

// Limbs per instance. An instance of `bits` bits is stored in 64-bit words
// (ceil(bits/64) of them), so that 32- and 64-bit kernels read the same batch.
BIGTUNE_HD constexpr uint32_t limbs_for_bits(uint64_t bits, uint32_t limb_bits) {
  return ceil_div(bits, 64) * (64 / limb_bits);
}

// Shared memory is padded by one limb after every 128 bytes, so that a warp
// reading Q consecutive limbs per thread (stride Q limbs) hits distinct banks
// for any power-of-two Q (32-bit limbs: 32 threads per wavefront; 64-bit limbs:
// 16 threads per wavefront); striped accesses stay conflict-free too.
template <class Limb>
BIGTUNE_HD constexpr uint32_t smem_pad_period() { return 128 / uint32_t(sizeof(Limb)); }

template <class Limb>
BIGTUNE_HD constexpr uint32_t smem_physical(uint32_t logical) {
  return logical + logical / smem_pad_period<Limb>();
}

// Bytes of a padded shared-memory array of `logical` limbs.
BIGTUNE_HD constexpr uint64_t smem_bytes_padded(uint64_t logical, uint32_t limb_bytes) {
  const uint64_t period = 128 / limb_bytes;
  return (logical + logical / period + 1) * limb_bytes;
}

// --- scan-based ops (add, sub, cmp, shifts): Q limbs per thread ---------------
BIGTUNE_HD constexpr uint32_t scan_threads_per_instance(uint32_t limbs, uint32_t q) {
  return ceil_div(limbs, q);
}
// One staging buffer holds one operand of all IPB instances at a time.
BIGTUNE_HD constexpr uint64_t scan_smem_logical(uint32_t limbs, uint32_t ipb) {
  return uint64_t(limbs) * ipb;
}

// --- classical multiplication (seed 000 §3): 2Q result limbs per thread -------
// mul_low: M_pad = T*2Q result limbs; mul (full): 2*M_pad = T*2Q result limbs.
BIGTUNE_HD constexpr uint32_t mul_threads_per_instance(uint32_t limbs, uint32_t q, bool full) {
  return full ? ceil_div(limbs, q) : ceil_div(limbs, 2 * q);
}
BIGTUNE_HD constexpr uint32_t mul_padded_limbs(uint32_t limbs, uint32_t q, bool full) {
  return mul_threads_per_instance(limbs, q, full) * (full ? q : 2 * q);
}
BIGTUNE_HD constexpr uint32_t mul_result_limbs(uint32_t padded, bool full) {
  return full ? 2 * padded : padded;
}
// Per instance: A (M_pad), B with Q zero guards each side, then the overflow
// pairs of every Q-limb result chunk. The result overlays A and B.
BIGTUNE_HD constexpr uint32_t mul_instance_logical(uint32_t padded, uint32_t q, bool full) {
  return 2 * padded + 2 * q + 2 * (mul_result_limbs(padded, full) / q);
}
BIGTUNE_HD constexpr uint64_t mul_smem_logical(uint32_t limbs, uint32_t q, bool full, uint32_t ipb) {
  return uint64_t(mul_instance_logical(mul_padded_limbs(limbs, q, full), q, full)) * ipb;
}

}  // namespace bigtune::kernels::block
