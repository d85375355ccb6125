// Host side of the NTT Montgomery powm (nttmont_powm.cuh): the constants of
// each modulus, computed with GMP once per call (the moduli are read back
// once, as the warp Barrett's host reciprocal does: wbarrett_prep.hpp).
// R = 2^N' + 1 is not a power of two, so its inverse of m has no Hensel
// (Newton) lift; GMP's subquadratic extended gcd gives it in ~2 / ~9 ms at
// N' = 2^15 / 2^16 bits on one core, the moduli split over the host's cores.
#pragma once
#include <cstdint>

namespace bigtune::kernels::modular {

// For count_m moduli of n 64-bit words each (m, little-endian), the
// kNttMontConstRows rows of nw words per modulus (nttmont_layout.hpp) into
// out (count_m · 4 · nw words): m, mu = -m^-1 mod R, R mod m, R^2 mod m,
// R = 2^(64 nw) + 1. Returns false (out unspecified) when
// a modulus is even, 0 or 1, or shares a factor with R: the caller runs the
// Barrett powm for the batch then.
bool nttmont_constants(const uint64_t* m, uint64_t count_m, uint32_t n, uint32_t nw, uint64_t* out);

}  // namespace bigtune::kernels::modular
