// Products by a shared constant on the integer tensor cores: the launcher of
// kernels/block/mul_const_imma.cuh (see there for the method and its bound).
#include <algorithm>

#include "kernels/block/mul_const_imma.cuh"
#include "kernels/modular/barrett.hpp"
#include "kernels/registry.hpp"
#include "kernels/variants/mul_const_imma_launch.hpp"
#include "kernels/variants/resident_launch.cuh"

namespace bigtune::kernels::variants {

// The block's shared memory against the registry's device limits (the H100's,
// as the composed Barrett's product choice uses; the launch itself fails
// with the driver's error on a device with less).
bool mul_const_imma_fits(uint32_t x_words, uint32_t k_words) {
  if (x_words == 0 || k_words == 0) return false;
  if (4ull * std::min(x_words, k_words) > block::kImmaMaxConstBytes) return false;
  return block::ImmaShape::of(x_words, k_words).smem_bytes() <= DeviceLimits::h100().smem_per_block_optin;
}

namespace {

// One wave of resident blocks, each looping over groups of 16 instances
// (the constant's copies built once a block); on Hopper the warpgroup MMA
// form where its shape fits (64 instances a group).
struct TensorDevice {
  int sms = 0;
  bool wgmma = false;  // compute capability 9.0: the wgmma kernels (sm_90a)
};
cudaError_t tensor_device(TensorDevice& d) {
  int device = 0, major = 0, minor = 0;
  cudaError_t e;
  if ((e = cudaGetDevice(&device)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device)) != cudaSuccess)
    return e;
  d.wgmma = major == 9 && minor == 0;
  return cudaSuccess;
}

cudaError_t launch_imma(const block::ImmaArgs& args, const TensorDevice& dev, cudaStream_t stream) {
  if (dev.wgmma && mul_const_wgmma_fits(args)) {
    block::ImmaArgs whole = args;
    whole.low = nullptr;  // (for parts only: the whole product carries through its own words)
    return launch_mul_const_wgmma(whole, dev.sms, stream);
  }
  if (dev.wgmma) {
    if (const uint32_t parts = mul_const_wgmma_parts(args)) return launch_mul_const_wgmma_parts(args, parts, dev.sms, stream);
  }
  const uint64_t groups = (args.count + block::kImmaInstances - 1) / block::kImmaInstances;
  return launch_resident_wave(block::mul_const_imma_kernel, block::kImmaThreads,
                              block::ImmaShape::of(args.x_words, args.k_words).smem_bytes(), groups, dev.sms, args,
                              stream);
}
cudaError_t launch_imma(const block::ImmaArgs& args, cudaStream_t stream) {
  TensorDevice dev;
  if (const cudaError_t e = tensor_device(dev); e != cudaSuccess) return e;
  return launch_imma(args, dev, stream);
}

}  // namespace

cudaError_t launch_mul_const_imma(uint32_t* out, uint32_t out_lo, uint32_t out_words, uint32_t out_stride,
                                  const uint32_t* x, uint32_t x_words, uint32_t x_stride, uint64_t count,
                                  const uint32_t* k, uint32_t k_words, cudaStream_t stream) {
  if (!mul_const_imma_fits(x_words, k_words) || out_words > out_stride || x_words > x_stride)
    return cudaErrorInvalidValue;
  if (count == 0 || out_lo >= out_words) return cudaSuccess;
  return launch_imma(block::imma_product_args(out, out_lo, out_words, out_stride, x, x_words, x_stride, count, k, k_words),
                     stream);
}

cudaError_t launch_barrett_imma_quotient(uint32_t* q, uint32_t* q_top, const uint32_t* t, uint32_t t_words,
                                         uint64_t count, const uint32_t* mu2_lo, const uint32_t* shift, uint32_t w,
                                         uint32_t* scratch, uint32_t scratch_stride, cudaStream_t stream) {
  const uint32_t g = modular::barrett_x_guard_words(w);
  if (w < 2 || !mul_const_imma_fits(w + g, w + 1)) return cudaErrorInvalidValue;
  if (count == 0) return cudaSuccess;
  block::ImmaArgs args = block::imma_barrett_quotient_args(q, q_top, t, t_words, count, mu2_lo, shift, w, g);
  // The words below q's that a product in parts sums in scratch: from 8
  // below out_lo (at or below the first tile's start) to store_lo.
  args.low_lo = args.out_lo >= 8 ? args.out_lo - 8 : 0;
  if (scratch != nullptr && scratch_stride >= args.write_lo - args.low_lo)
    args.low = scratch, args.low_stride = scratch_stride;
  return launch_imma(args, stream);
}

cudaError_t launch_barrett_imma_remainder(uint32_t* rem, uint32_t* p, const uint32_t* q, const uint32_t* q_top,
                                          const uint32_t* t, uint32_t t_words, uint64_t count, const uint32_t* mprime,
                                          const uint32_t* shift, uint32_t w, bool* finished, cudaStream_t stream) {
  *finished = false;
  if (w < 2 || !mul_const_imma_fits(w, w)) return cudaErrorInvalidValue;
  if (count == 0) return cudaSuccess;
  const block::ImmaArgs args = block::imma_barrett_remainder_args(rem, p, q, q_top, t, t_words, count, mprime, shift, w);
  TensorDevice dev;
  if (const cudaError_t e = tensor_device(dev); e != cudaSuccess) return e;
  if (dev.wgmma && barrett_rem_wgmma_fits(args)) {
    *finished = true;
    return launch_barrett_rem_wgmma(args, dev.sms, stream);
  }
  if (const uint32_t h = dev.wgmma ? barrett_rem_wgmma_split(args) : 0) {  // 32-44 Kbit: in two parts
    if (const cudaError_t e = launch_mul_const_wgmma(block::imma_barrett_rem_high_part_args(args, h), dev.sms, stream);
        e != cudaSuccess)
      return e;
    *finished = true;
    return launch_barrett_rem_wgmma(block::imma_barrett_rem_low_part_args(args, h), dev.sms, stream);
  }
  // Elsewhere the plain product the args hold (the kernels it reaches read
  // no rem field).
  return launch_imma(args, dev, stream);
}

cudaError_t launch_barrett_imma_reduction(uint32_t* rem, uint32_t* p, uint32_t* q, uint32_t* q_top, const uint32_t* t,
                                          uint32_t t_words, uint64_t count, const uint32_t* mu2_lo,
                                          const uint32_t* mprime, const uint32_t* shift, uint32_t w, uint32_t* scratch,
                                          uint32_t scratch_stride, bool* finished, cudaStream_t stream) {
  *finished = false;
  const uint32_t g = modular::barrett_x_guard_words(w);
  if (w < 2 || !mul_const_imma_fits(w + g, w + 1) || !mul_const_imma_fits(w, w)) return cudaErrorInvalidValue;
  if (count == 0) return cudaSuccess;
  TensorDevice dev;
  if (const cudaError_t e = tensor_device(dev); e != cudaSuccess) return e;
  block::BarrettFusedArgs fused;
  fused.quotient = block::imma_barrett_quotient_args(q, q_top, t, t_words, count, mu2_lo, shift, w, g);
  fused.remainder = block::imma_barrett_remainder_args(rem, p, q, q_top, t, t_words, count, mprime, shift, w);
  if (dev.wgmma && barrett_fused_wgmma_fits(fused)) {
    *finished = true;
    return launch_barrett_fused_wgmma(fused, dev.sms, stream);
  }
  if (const cudaError_t e = launch_barrett_imma_quotient(q, q_top, t, t_words, count, mu2_lo, shift, w, scratch,
                                                         scratch_stride, stream);
      e != cudaSuccess)
    return e;
  return launch_barrett_imma_remainder(rem, p, q, q_top, t, t_words, count, mprime, shift, w, finished, stream);
}

}  // namespace bigtune::kernels::variants
