// Sizes of the NTT Montgomery powm on R = 2^N' + 1 (nttmont_powm.cuh), shared
// by the kernel, the registry's launch (kernels/variants/nttbarrett_instances.cu),
// the host preparation (nttmont_prep.hpp) and the CPU tests: host-safe, no
// device code.
//
// Operands of n 64-bit words run on nw = M/2 words, M = 2^log_m digits of 32
// bits (N' = 32 M bits >= 64 n, M >= 128): every product is one sub-product
// of M points of a split plan of D = 2 (N = 2M, the roots of order 2M give
// the negacyclic twist), i.e. a product modulo 2^N' - 1 (t = 0) or 2^N' + 1
// (t = 1), half the length of the full product the Barrett powm transforms.
#pragma once
#include <cstdint>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_layout.hpp"

namespace bigtune::kernels::modular {

constexpr uint32_t kNttMontLogMMax = 11;   // M <= 2^11: N' <= 2^16 bits
constexpr uint32_t kNttMontLogMMin = 7;    // M >= 128: nw >= 64, one carry segment of 32 threads
constexpr uint32_t kNttMontMaxThreads = 256;

BIGTUNE_HD inline uint32_t nttmont_log_m(uint32_t n) {
  uint32_t l = block::ntt_ceil_log2(2ull * (n < 1 ? 1 : n));
  return l < kNttMontLogMMin ? kNttMontLogMMin : l;
}
// The split plan of the kernel's sub-products: M points, D = 2, one radix-8
// group per thread and pass (M/8 threads, at least a warp).
BIGTUNE_HD inline block::NttPlan nttmont_plan(uint32_t n) {
  block::NttPlan p;
  p.log_m = nttmont_log_m(n);
  p.log_d = 1;
  p.log_n = p.log_m + 1;
  p.n_a = p.n_b = p.m();
  p.threads = p.m() / 8 < 32 ? 32 : p.m() / 8;
  return p;
}
// Words of the kernel's operands: nw = M/2 (N' = 64 nw bits).
BIGTUNE_HD inline uint32_t nttmont_words(uint32_t n) { return nttmont_plan(n).m() / 2; }
// Shared memory: the transform buffer and carry words (ntt_smem_bytes), then
// four rows of nw words (the operand and three results of a step:
// nttmont_powm.cuh).
constexpr uint32_t kNttMontRows = 4;
BIGTUNE_HD inline uint64_t nttmont_smem_bytes(uint32_t n) {
  return block::ntt_smem_bytes(nttmont_plan(n), sizeof(arith::Crt3::Elem)) +
         uint64_t(kNttMontRows) * nttmont_words(n) * 8;
}
// A block's global slot: mu_hat (negacyclic spectrum of mu), m_hat (cyclic
// spectrum of m), b_hat (a window product's second operand), a_hat (a step's
// first operand, unscaled), M elements each, then the window table of nw
// words per entry (nttmont_table_entries); 256-byte multiple.
BIGTUNE_HD inline uint64_t nttmont_table_entries(uint32_t w, bool sliding) {
  return sliding ? (uint64_t(1) << (w - 1)) + 1 : uint64_t(1) << w;  // sliding: the odd powers and x^2
}
BIGTUNE_HD inline uint64_t nttmont_slot_bytes(uint32_t n, uint32_t w, bool sliding) {
  const uint64_t m = nttmont_plan(n).m();
  const uint64_t b = 4 * m * sizeof(arith::Crt3::Elem) + nttmont_table_entries(w, sliding) * nttmont_words(n) * 8;
  return (b + 255) / 256 * 256;
}

// Per modulus (nttmont_prep.hpp), nw words each, in this order: m, mu =
// -m^-1 mod R, R mod m, R^2 mod m.
constexpr uint32_t kNttMontConstRows = 4;

struct NttMontParams {
  const uint64_t* consts;       // kNttMontConstRows rows of nw words per modulus
  uint32_t m_shared;            // 1: one modulus for the batch
  arith::Crt3::Elem* twiddles;  // ntt_table_elems(plan) entries (ntt_twiddle_kernel, log_n = log_m + 1)
  char* slots;                  // gridDim.x slots of nttmont_slot_bytes
  uint64_t slot_bytes;
  uint32_t w;        // window bits
  uint32_t sliding;  // 1: sliding windows (2^(w-1) odd powers), 0: fixed
};

}  // namespace bigtune::kernels::modular
