// Fills a batch with pseudo-random words on the device (splitmix64 of the
// index and a seed), each instance reduced below 2^bits: benchmark inputs
// without moving gigabytes from the host.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace bigtune::bench {

cudaError_t fill_random(uint64_t* words, uint64_t words_per_instance, uint64_t count, uint64_t bits, uint64_t seed,
                        cudaStream_t stream);

}  // namespace bigtune::bench
