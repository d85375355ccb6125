// Fills a batch with pseudo-random words on the device (splitmix64 of the
// index and a seed), each instance reduced below 2^bits: benchmark inputs
// without moving gigabytes from the host.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace bigtune::bench {

cudaError_t fill_random(uint64_t* words, uint64_t words_per_instance, uint64_t count, uint64_t bits, uint64_t seed,
                        cudaStream_t stream);

// Queues one thread that spins for `ns` nanoseconds (%globaltimer): placed
// before a timed launch's start event it keeps the GPU busy while the host
// submits the launch, so the events time the GPU work alone, not the host's
// launch overhead (bench_arith --hide-host).
cudaError_t spin_ns(uint64_t ns, cudaStream_t stream);

}  // namespace bigtune::bench
