// Shape arithmetic of the block-level NTT multiplication (ntt.cuh), shared by
// the device code and the host-side registry, as layout.hpp is for the
// classical kernels: transform lengths, threads, shared memory and global
// scratch all derive from these functions and nowhere else.
//
// Sizes. Operands are split into 16-bit digits (Goldilocks field, see
// kernels/arith/goldilocks.cuh): n_a = 4·a_limbs, n_b = 4·b_limbs digits for
// 64-bit limbs. The product has n_a + n_b - 1 coefficients, so a cyclic
// transform of length N = 2^log_n >= n_a + n_b - 1 gives the exact linear
// convolution (no wrap-around). Digits wider than 16 bits cannot shorten N
// for power-of-two operands below 2^32 digits: the next power of two only
// halves at 32-bit digits, which one 64-bit prime cannot hold exactly.
//
// Split. One block keeps a transform of length M = 2^log_m in shared memory
// (8·M bytes). When N > M the product is computed as D = N/M independent
// twisted sub-products of length M (the CRT of x^N - 1 into x^M - ω^(tM),
// t < D), each one forward transform per operand, a pointwise product and an
// inverse transform; their results go to global scratch and a length-D
// inverse DFT per coefficient recombines them (ntt.cuh, "split"). This is how
// one block reaches 2^20-bit operands (issue 3's one-block target) with
// 72-144 KB of shared memory (padding included); the variant limit is 2^21.
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

// Persistent blocks: a launch uses at most this many blocks, each looping over
// instances with its own scratch slot, so global scratch does not grow with
// the batch (132 SMs × up to 7 resident blocks of this family on an H100).
constexpr uint32_t kNttMaxSlots = 1024;
constexpr uint32_t kNttDigitBits = 16;
constexpr uint32_t kNttDigitsPerLimb = 64 / kNttDigitBits;
// Limbs of the carry phase per thread and segment (ntt.cuh, "carry").
constexpr uint32_t kNttCarryLimbs = 2;

BIGTUNE_HD constexpr uint32_t ntt_ceil_log2(uint64_t x) {
  uint32_t l = 0;
  while ((uint64_t(1) << l) < x) ++l;
  return l;
}

struct NttPlan {
  uint32_t n_a = 0, n_b = 0;  // digits of each operand
  uint32_t log_n = 0;         // full transform length N = 2^log_n
  uint32_t log_m = 0;         // in-shared-memory transform length M = 2^log_m
  uint32_t log_d = 0;         // D = N / M twisted sub-products
  uint32_t threads = 0;       // threads of the block
  BIGTUNE_HD constexpr uint32_t n() const { return 1u << log_n; }
  BIGTUNE_HD constexpr uint32_t m() const { return 1u << log_m; }
  BIGTUNE_HD constexpr uint32_t d() const { return 1u << log_d; }
};

// a_limbs, b_limbs: 64-bit limbs of each operand; log_m_max: the variant's
// largest in-shared-memory transform; max_threads: its thread bound;
// digit_bits: the field's digit width (Field::kDigitBits: 16 for Goldilocks,
// 32 for the three-prime CRT field arith/crt3_field.cuh).
BIGTUNE_HD constexpr NttPlan ntt_plan(uint32_t a_limbs, uint32_t b_limbs, uint32_t log_m_max,
                                      uint32_t max_threads, uint32_t digit_bits = kNttDigitBits) {
  NttPlan p;
  p.n_a = a_limbs * (64 / digit_bits);
  p.n_b = b_limbs * (64 / digit_bits);
  const uint64_t coeffs = uint64_t(p.n_a) + p.n_b - 1;
  p.log_n = ntt_ceil_log2(coeffs < 2 ? 2 : coeffs);
  p.log_m = p.log_n < log_m_max ? p.log_n : log_m_max;
  p.log_d = p.log_n - p.log_m;
  // One radix-8 group (ntt.cuh, ntt_pass) per thread and pass: M/8 threads,
  // within [32, max].
  const uint32_t want = p.m() / 8 < 32 ? 32 : p.m() / 8;
  p.threads = want < max_threads ? want : max_threads;
  return p;
}

// Dynamic shared memory: the transform buffer (M elements, one pad element
// per 8 against bank conflicts: ntt.cuh, ntt_phys) plus the carry phase's hi
// words (kNttCarryLimbs per thread) and one carry word. elem_bytes: the
// field element's size (8 Goldilocks, 12 three-prime CRT); the carry words
// start at the next 8-byte boundary after the buffer.
BIGTUNE_HD constexpr uint32_t ntt_x_elems(const NttPlan& p) { return p.m() + p.m() / 8 + 1; }
BIGTUNE_HD constexpr uint64_t ntt_carry_offset(const NttPlan& p, uint32_t elem_bytes = 8) {
  return (uint64_t(ntt_x_elems(p)) * elem_bytes + 7) / 8 * 8;
}
BIGTUNE_HD constexpr uint64_t ntt_smem_bytes(const NttPlan& p, uint32_t elem_bytes = 8) {
  return ntt_carry_offset(p, elem_bytes) + (uint64_t(kNttCarryLimbs) * p.threads + 2) * 8;
}

// Global scratch, in field elements: the twiddle tables (ω^k and ω^-k for
// k < N/2, and per stage), then per slot the second operand's transform (mul only) and the
// D sub-products (split only).
// (5N: ω^±k for k < N/2, then the per-stage runs ω_2h^±x at h + x of up to
// two elements a twiddle, ntt.cuh NttTables.)
BIGTUNE_HD constexpr uint64_t ntt_table_elems(const NttPlan& p) { return 5 * uint64_t(p.n()); }
BIGTUNE_HD constexpr uint64_t ntt_slot_elems(const NttPlan& p, bool square) {
  return (square ? 0 : uint64_t(p.m())) + (p.log_d ? uint64_t(p.n()) : 0);
}
BIGTUNE_HD constexpr uint32_t ntt_slots(uint64_t count) {
  return count < kNttMaxSlots ? uint32_t(count) : kNttMaxSlots;
}
BIGTUNE_HD constexpr uint64_t ntt_scratch_bytes(const NttPlan& p, bool square, uint64_t count,
                                                uint32_t elem_bytes = 8) {
  return (ntt_table_elems(p) + ntt_slot_elems(p, square) * ntt_slots(count)) * elem_bytes;
}

}  // namespace bigtune::kernels::block
