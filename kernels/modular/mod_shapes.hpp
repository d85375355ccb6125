// Shape rules of the thread-per-instance modular family (kernels/modular/):
// one thread per instance, N = q 32-bit limbs in registers, no shared memory.
#pragma once
#include "kernels/registry.hpp"

namespace bigtune::kernels::modular {

extern const ShapeRules kThreadModShape;
// One 64-bit word per instance (mod64.cuh): moduli up to 64 bits.
extern const ShapeRules kThreadMod64Shape;

// Bytes of the PreparedModulus<n> a shared-modulus launch keeps in scratch.
uint64_t prepared_modulus_bytes(uint32_t n);

// The family's launch (kernels/variants/mod_prepare_instances.cu): passes the
// powm window in args.shift and, for a shared modulus, runs the prep kernel
// before the variant's kernel.
cudaError_t launch_thread_mod(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream);

// The 64-bit family's launch (kernels/variants/mod64_instances.cu): the same
// conventions, its prep kernel writes a Divisor64.
cudaError_t launch_thread_mod64(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream);

}  // namespace bigtune::kernels::modular
