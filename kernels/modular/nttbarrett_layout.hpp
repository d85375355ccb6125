// Sizes of the fused NTT Barrett powm (nttbarrett_powm.cuh), shared by the
// kernel, the registry's ShapeRules (kernels/variants/nttbarrett_instances.cu)
// and the CPU tests: host-safe, no device code.
#pragma once
#include <cstdint>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_layout.hpp"

namespace bigtune::kernels::modular {

// Largest transform held in shared memory (2^12 CRT elements: operands up
// to 2^16 bits, 2n digits each, 4n - 1 <= 2^12 coefficients); blocks of
// M/8 <= 512 threads.
constexpr uint32_t kNttBarrettLogM = 12;
constexpr uint32_t kNttBarrettMaxThreads = 512;

// The plan for n-word operands: a full product of two n-word operands, at
// least 2 words (a transform of >= 8 points: the fused middle pass).
BIGTUNE_HD inline block::NttPlan nttbarrett_plan(uint32_t n) {
  const uint32_t k = n < 2 ? 2 : n;
  return block::ntt_plan(k, k, kNttBarrettLogM, kNttBarrettMaxThreads, arith::Crt3::kDigitBits);
}
// Shared memory after the transform buffer (ntt_smem_bytes): t (2n words)
// and cur (n words; during a reduction, whose result goes to cur or to a
// table entry, cur's old value is dead and q lives there). The finish's rows
// live in the block's global slot: with P, alt and q in shared memory a
// 2^16-bit block took 146 KB (run 1, bench/results/2026-11-23-h100-nttpowm.md);
// without, 106 KB, so that two blocks per SM fit there where the registers
// allow (at 128 registers they do not: one 512-thread block per SM at 2^16
// bits).
BIGTUNE_HD inline uint64_t nttbarrett_word_bytes(uint32_t n) { return uint64_t(8) * 3 * n; }
BIGTUNE_HD inline uint64_t nttbarrett_smem_bytes(uint32_t n) {
  return block::ntt_smem_bytes(nttbarrett_plan(n), sizeof(arith::Crt3::Elem)) + nttbarrett_word_bytes(n);
}
// Words of one finish row: r = (t << s) - q m' modulo 2^(N+64) (n + 1
// words) and a spare word.
BIGTUNE_HD inline uint64_t nttbarrett_row_words(uint32_t n) { return uint64_t(n) + 2; }
// A block's global slot: mu_hat, mp_hat, b_hat (M elements each), the
// 2^w-entry table of n words, then the finish's two rows
// (nttbarrett_row_words each); 256-byte multiple.
BIGTUNE_HD inline uint64_t nttbarrett_slot_bytes(uint32_t n, uint32_t w) {
  const uint64_t m = nttbarrett_plan(n).m();
  const uint64_t b = 3 * m * sizeof(arith::Crt3::Elem) + ((uint64_t(1) << w) * n + 2 * nttbarrett_row_words(n)) * 8;
  return (b + 255) / 256 * 256;
}

struct NttBarrettParams {
  const uint32_t* shift;   // s per instance (barrett_prep / barrett_mu)
  const uint64_t* mprime;  // m << s, n words per instance
  const uint64_t* mu;      // mu_lo, n words per instance
  arith::Crt3::Elem* twiddles;  // ntt_table_elems(plan) entries (ntt_twiddle_kernel)
  char* slots;                  // gridDim.x slots of nttbarrett_slot_bytes
  uint64_t slot_bytes;
  uint32_t w;  // window bits
};

}  // namespace bigtune::kernels::modular
