// Thread-level kernels that are not tunable variants but serve another
// family: the even moduli of the warp modular family (warp_mod_launch.cu) at
// 4 and 8 Kbit, where the thread-level Montgomery variants were dropped from
// the registry (mod_variants.cuh says why) but the warp kernels still need
// their CRT split for even moduli (kernels/modular/modexp.cuh).
#pragma once
#include <cstdint>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// mulmod_thread_kernel (mulmod, sqrmod) or powm_thread_kernel (powm) for
// `limbs` 32-bit limbs, 128 or 256; null for anything else.
const void* large_even_modulus_kernel(Op op, uint32_t limbs);

}  // namespace bigtune::kernels::variants
