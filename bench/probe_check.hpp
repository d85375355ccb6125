// The probes' CUDA error check (bench/*_probe.cu): a failed call prints where
// and why and exits. Probes are one-off measurements, not library code, so
// they stop rather than throw.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#define PROBE_CHECK(x)                                                                          \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)
