// Host side of the NTT family for other kernels that call block::mul_ntt
// (kernels/block/ntt.cuh) from their own __global__ functions, e.g. the
// division's large products: fill the twiddle tables the device entry reads.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace bigtune::kernels::variants {

// Writes ntt_table_elems(plan) Goldilocks elements at `table` (device memory)
// for transforms of length 2^log_n (1 <= log_n <= 32): ω^k then ω^-k for
// k < 2^(log_n-1). Asynchronous on `stream`; returns the launch status.
cudaError_t launch_ntt_twiddles(uint64_t* table, uint32_t log_n, cudaStream_t stream);

}  // namespace bigtune::kernels::variants
