// Host side of the CRT NTT products by a cached spectrum (session 18;
// kernels: ntt_kernels.cuh ntt_spectrum_kernel / mul_ntt_cached_kernel, the
// block phases: kernels/block/ntt_cached.cuh), for callers that multiply
// many operands by one fixed one with a registered `mul.ntt.u64.q1.crt3.*`
// variant's plan: the composed Barrett's reduction products with a shared
// modulus (barrett_instances.cu). Defined in ntt_crt_instances.cu.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// Whether v (a CRT NTT mul variant with 16-byte elements) holds n-word by
// n-word products at `bits` as one unsplit transform, which the cached
// products need; if not, the caller multiplies with v itself.
bool ntt_cached_supported(const Variant& v, uint64_t bits);
// Bytes of one spectrum (M elements) and of the twiddle tables of v's plan at `bits`.
uint64_t ntt_spectrum_bytes(const Variant& v, uint64_t bits);
uint64_t ntt_cached_table_bytes(const Variant& v, uint64_t bits);

// Everything one call needs: v's plan at `bits` (n = limbs words per
// operand), the tables (ntt_cached_table_bytes of device memory, filled by
// launch_ntt_cached_tables once per call, before any other launch here).
struct NttCachedCall {
  const Variant* v = nullptr;
  uint64_t bits = 0;
  uint32_t limbs = 0;
  void* tables = nullptr;
  cudaStream_t stream = nullptr;
};
cudaError_t launch_ntt_cached_tables(const NttCachedCall& c);
// b_hat + i·spectrum = the spectrum of b's instance i, i < count.
cudaError_t launch_ntt_spectra(const NttCachedCall& c, const uint64_t* b, uint64_t count, void* b_hat);
// r_i (out_limbs words, reduced modulo 2^out_bits) = a_i · b, b by its
// spectrum: b_hat for every instance (b_shared) or b_hat + i·spectrum.
cudaError_t launch_ntt_cached_mul(const NttCachedCall& c, uint64_t* r, uint32_t out_limbs, uint64_t out_bits,
                                  const uint64_t* a, uint64_t count, const void* b_hat, bool b_shared);

}  // namespace bigtune::kernels::variants
