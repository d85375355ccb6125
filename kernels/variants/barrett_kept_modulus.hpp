// A shared modulus's Barrett constants kept on the device from one call to
// the next (the tensor-core mulmod and sqrmod, barrett_instances.cu): s,
// m' = m << s, mu_lo and mu2_lo, with a copy of the modulus they were made from.
// Every call compares the modulus with that copy on the device
// (barrett_modulus_compare_kernel); the operand check's read-back, which the
// call makes anyway, then tells the host whether mu's division must run, so
// a modulus used call after call costs no division and no extra sync.
//
// A region belongs to one stream (its cudaStreamGetId: unique for the
// process's life, so a new stream at an old handle's address never finds a
// region) and one operand size; the stream's work orders every use of it.
// runtime::Context frees its stream's regions before destroying the stream.
// Host code only.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace bigtune::kernels::variants {

struct BarrettKept {
  uint64_t* m = nullptr;       // the modulus the constants were made from (n words)
  uint64_t* mprime = nullptr;  // m' (n words)
  uint64_t* mu = nullptr;      // mu_lo (n words)
  uint32_t* mu2 = nullptr;     // the tensor cores' mu2_lo (2n + 1 32-bit words, barrett.hpp)
  uint32_t* shift = nullptr;   // s
  uint64_t* valid = nullptr;   // nonzero once m is stored
};

// The region of (stream, n words), zeroed when new; false when none can be
// had (no stream id, allocation failed, the table full): the caller then
// computes the constants in its scratch as before.
bool barrett_kept_region(cudaStream_t stream, uint32_t n, BarrettKept* out);

// Frees the regions of `stream` (waits for the stream first).
void barrett_forget_stream(cudaStream_t stream);

}  // namespace bigtune::kernels::variants
