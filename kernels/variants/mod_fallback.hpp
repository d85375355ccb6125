// Thread-level kernels that are not tunable variants but serve another
// family: the even moduli of the warp modular family (warp_mod_launch.cu) at
// 4 and 8 Kbit, where the thread-level Montgomery variants were dropped from
// the registry (mod_variants.cuh says why) but the warp kernels still need
// their CRT split for even moduli (kernels/modular/modexp.cuh).
#pragma once
#include <cstdint>

#include "kernels/registry.hpp"
#include "kernels/variants/kernel_args.hpp"

namespace bigtune::kernels::variants {

// mulmod_thread_kernel (mulmod, sqrmod) or powm_thread_kernel (powm) for
// `limbs` 32-bit limbs, 128 or 256; null for anything else.
const void* large_even_modulus_kernel(Op op, uint32_t limbs);

// The whole powm call (args in 64-bit words, any modulus) on the composed
// Barrett powm, powm.barrett.u64.q1.w6, its scratch allocated on the stream
// for this call: the even moduli's path where no thread kernel is kept
// (16 Kbit: the warp and team powm kernels).
cudaError_t powm_on_composed_barrett(const KernelArgs& args, cudaStream_t stream);

// The even moduli's pass after a DFMA powm (args in 64-bit words, as the DFMA
// variants take them): `kernel`, a thread Montgomery powm (window 4), over
// the same batches seen as 32-bit limbs in "even only" mode, one thread an
// instance; it skips every instance unless scratch word 0 is set.
cudaError_t launch_even_powm_pass(const void* kernel, const KernelArgs& args, cudaStream_t stream);

}  // namespace bigtune::kernels::variants
