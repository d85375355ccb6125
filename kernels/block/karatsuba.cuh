// Device side of the Karatsuba passes (karatsuba.hpp): one CUDA block per
// instance runs the per-instance algorithm through KaraBlockExec.
#pragma once
#include <cstdint>

#include "kernels/block/carry_scan.cuh"
#include "kernels/block/karatsuba.hpp"

namespace bigtune::kernels::block {

// The block as karatsuba.hpp's Exec. Its members are __host__ __device__ with
// device-only bodies, so that the shared host/device templates and their
// lambdas never call across execution spaces; only kernels instantiate it.
struct KaraBlockExec {
  BlockCarryScan::TempStorage* scan;

  BIGTUNE_HD uint32_t threads() const {
#ifdef __CUDA_ARCH__
    return blockDim.x;
#else
    return 0;
#endif
  }
  template <class F>
  BIGTUNE_HD void phase(F&& f) {
#ifdef __CUDA_ARCH__
    f(threadIdx.x);
    __syncthreads();
#endif
  }
  BIGTUNE_HD void atomic_max(uint32_t* cell, uint32_t v) {
#ifdef __CUDA_ARCH__
    atomicMax(cell, v);
#endif
  }
  // status[t] becomes the exclusive prefix of the statuses before thread t.
  BIGTUNE_HD void carry_scan(uint32_t* status) {
#ifdef __CUDA_ARCH__
    uint32_t inclusive;
    const uint32_t prefix = BlockCarryScan(*scan).scan(status[threadIdx.x], inclusive);
    status[threadIdx.x] = prefix;
    __syncthreads();  // TempStorage is reused by the next scan
#endif
  }
};

struct KaraPassArgs {
  const uint64_t* a;
  const uint64_t* b;
  uint64_t* r;          // combine: the result batch
  uint64_t* leaf_a;     // 3^L * count leaves of h words
  uint64_t* leaf_b;
  uint64_t* prods;      // 3^L * count leaf products of 2h words
  uint64_t* neg;        // one sign word per instance
  uint32_t n;           // operand words
  uint32_t levels;
  uint32_t square;
  uint32_t out_words;   // result words per instance
};

// Static shared memory of one pass block: exchange arrays for up to 512 threads.
struct KaraStatic {
  BlockCarryScan::TempStorage scan;
  uint32_t status[512];
  uint32_t carry[512];
  uint32_t key[kKaraMaxKeys];
};

__global__ void __launch_bounds__(512) kara_prep_kernel(KaraPassArgs p) {
  extern __shared__ uint64_t kara_dyn[];
  __shared__ KaraStatic st;
  KaraBlockExec ex{&st.scan};
  const KaraShared sh{st.status, st.carry, st.key};
  const uint64_t i = blockIdx.x;
  const uint32_t h = kara_leaf_words(p.n, p.levels);
  const uint64_t leaf_span = uint64_t(kara_pow3(p.levels)) * h;
  const uint64_t neg = kara_prep_instance(ex, sh, p.a + i * p.n, p.square ? nullptr : p.b + i * p.n, p.n, p.levels,
                                          p.square != 0, kara_dyn, p.leaf_a + i * leaf_span,
                                          p.square ? nullptr : p.leaf_b + i * leaf_span);
  if (threadIdx.x == 0) p.neg[i] = neg;
}

__global__ void __launch_bounds__(512) kara_combine_kernel(KaraPassArgs p) {
  extern __shared__ uint64_t kara_dyn[];
  __shared__ KaraStatic st;
  KaraBlockExec ex{&st.scan};
  const KaraShared sh{st.status, st.carry, st.key};
  const uint64_t i = blockIdx.x;
  const uint32_t h = kara_leaf_words(p.n, p.levels);
  const uint64_t prod_span = uint64_t(kara_pow3(p.levels)) * 2 * h;
  kara_combine_instance(ex, sh, p.prods + i * prod_span, p.neg[i], p.n, p.levels, kara_dyn,
                        p.r + i * p.out_words, p.out_words);
}

}  // namespace bigtune::kernels::block
