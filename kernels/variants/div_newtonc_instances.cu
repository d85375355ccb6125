// divmod.newtonc.u64.q4[.pp.f.w1028[.k4]]: division composed from the
// registry's full products (kernels/block/div_newtonc.hpp has the algorithm
// and its error bounds). One launch = a sequence of batched launches on the
// stream:
//   pass kernels of this file (one block of 64-256 threads per instance on the
//   block primitives of block_ops.cuh, or one warp per instance on
//   block/newtonc_warp_ops.cuh for passes of at most ".w<T>" limbs), and
//   between them the registered full product at each step's precision
//   (newtonc_product below: a table of session 4's mul preferences; ".pp":
//   kernels::preferred_plan's);
// then, for the instances the fast path did not take or finish (short or zero
// divisors, dividends above 2n limbs, the rare fix-up overflow), the block
// shinv kernel on a compacted copy of those instances. Counting them needs one
// device-to-host read, so this launch synchronises its stream once.
// No new template instances beyond the pass kernels (block, warp K = 1 and 4): products and fallback are
// the existing kernels, started through kernels::launch.
#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "kernels/block/block_ops.cuh"
#include "kernels/block/div_fused_layout.hpp"
#include "kernels/block/div_newtonc.hpp"
#include "kernels/block/layout.hpp"
#include "kernels/block/newtonc_warp_ops.cuh"
#include "kernels/preferred_plans.hpp"
#include "kernels/variants/div_newtonc_variant.hpp"
#include "kernels/variants/scan_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {

// The product for p-limb operands (64p bits), with its instances per block.
NewtoncProduct newtonc_product(uint32_t p) {
  const uint64_t bits = 64ull * p;
  if (bits <= 64) return {"mul.comba.u32.q2", 256};
  if (bits <= 128) return {"mul.comba.u32.q4", 256};
  if (bits <= 256) return {"mul.comba.u32.q8", 256};
  if (bits <= 512) return {"mul.blockrot.u32.q4.l4", 128};
  if (bits <= 2048) return {"mul.blockrot.u32.q16.l4", 128};
  if (bits <= 4096) return {"mul.blockrot.u32.q16.l8", 64};
  if (bits <= 8192) return {"mul.blockrot.u32.q16.l16", 32};
  if (bits <= 16384) return {"mul.blockrot.u32.q16.l32", 16};
  if (bits <= 32768) return {"mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l16.r4", 4};
  if (bits <= 40960) return {"mul.karatsuba.u64.q16.k3.blockrot.u32.q16.l16", 32};
  return {"mul.ntt.u64.q1.crt3.m13.t1024", 1};
}
// The same from kernels::preferred_plan (the default full product at 64p
// bits for a batch of `count`: the warp Karatsuba at 2.5-16 Kbit, the CRT NTT
// from 30 Kbit, ...), the table above where it names none.
NewtoncProduct newtonc_product_pp(uint32_t p, uint64_t count) {
  const auto pp = preferred_plan(Op::Mul, 64ull * p, count, DeviceLimits::h100());
  if (pp && pp->variant->op == Op::Mul) return {pp->variant->name.c_str(), pp->ipb};
  return newtonc_product(p);
}
// Upper ends of the table's ranges in limbs, for the scratch bound.
constexpr uint32_t kNewtoncRangeEnds[] = {1, 2, 4, 8, 32, 64, 128, 256, 512, 640};

namespace {

constexpr int kPassQ = 4;
constexpr uint32_t kPassThreads = 256;
constexpr const char* kFallbackName = "divmod.shinv.u64.q4";

// The variant parameter (the name's extra part, bench/notes/div-newtonc-bound.md):
// bit 0 ".pp": products from kernels::preferred_plan (newtonc_product_pp);
// bit 1 ".f": the fused schedule (NewtoncArgs::fused: two passes and two
// product launches per Newton step instead of four and three); bits 8..
// ".w<T>": passes over at most T limbs on the warp backend
// (block/newtonc_warp_ops.cuh, one warp per instance), the others on blocks;
// bit 2 ".k4": its adds take 4 limbs per lane (else 1).
constexpr uint32_t kParamPreferred = 1, kParamFused = 2, kParamWarpK4 = 4;
uint32_t warp_limit(uint32_t param) { return param >> 8; }
constexpr uint32_t kWarpPassThreads = 256;

template <int Q>
struct NewtoncDeviceOps : block::BlockLimbOps<Q> {
  __device__ NewtoncDeviceOps(typename block::BlockLimbOps<Q>::TempStorage& s, uint64_t* tile)
      : block::BlockLimbOps<Q>(s, tile) {}
  template <class F>
  __device__ void map(uint64_t* r, uint32_t n, F f) {
    for (uint32_t j = threadIdx.x; j < n; j += blockDim.x) r[j] = f(j);
    __syncthreads();
  }
};

// One pass over the batch (grid stride). QFix queues the instances it hands
// back (idx, counter) and clears the zero-divisor flag of those it finished.
__global__ void __launch_bounds__(kPassThreads)
    newtonc_pass_kernel(block::NewtoncArgs a, block::NewtoncPhase ph, uint32_t* flags, uint32_t* idx,
                        unsigned long long* counter) {
  using Ops = NewtoncDeviceOps<kPassQ>;
  __shared__ typename Ops::TempStorage storage;
  Ops ops(storage, dynamic_smem<uint64_t>());
  for (uint64_t i = blockIdx.x; i < a.count; i += gridDim.x) {
    const bool ok = block::newtonc_pass(ops, ph, a, i);
    if (threadIdx.x == 0) {
      if (!ok) idx[atomicAdd(counter, 1ull)] = uint32_t(i);
      else if (ph == block::NewtoncPhase::QFix && flags) flags[i] = 0;
    }
  }
}

// The same pass with one warp per instance (NewtoncWarpOps): 8 instances per
// 256-thread block, grid stride over the batch.
template <int K>
__global__ void __launch_bounds__(kWarpPassThreads)
    newtonc_warp_pass_kernel(block::NewtoncArgs a, block::NewtoncPhase ph, uint32_t* flags, uint32_t* idx,
                             unsigned long long* counter) {
  block::NewtoncWarpOps<K> ops;
  const uint32_t wpb = blockDim.x / 32;
  const uint64_t stride = uint64_t(gridDim.x) * wpb;
  for (uint64_t i = uint64_t(blockIdx.x) * wpb + threadIdx.x / 32; i < a.count; i += stride) {
    const bool ok = block::newtonc_pass(ops, ph, a, i);
    if ((threadIdx.x & 31u) == 0) {
      if (!ok) idx[atomicAdd(counter, 1ull)] = uint32_t(i);
      else if (ph == block::NewtoncPhase::QFix && flags) flags[i] = 0;
    }
  }
}

// Compaction of the fallback instances and the scatter of their results.
__global__ void newtonc_gather_kernel(const uint64_t* u, const uint64_t* v, uint64_t* fu, uint64_t* fv,
                                      const uint32_t* idx, uint64_t f, uint32_t m, uint32_t n) {
  for (uint64_t k = blockIdx.x; k < f; k += gridDim.x) {
    const uint64_t i = idx[k];
    for (uint32_t j = threadIdx.x; j < m; j += blockDim.x) fu[k * m + j] = u[i * m + j];
    for (uint32_t j = threadIdx.x; j < n; j += blockDim.x) fv[k * n + j] = v[i * n + j];
  }
}
__global__ void newtonc_scatter_kernel(uint64_t* q, uint64_t* r, uint32_t* flags, const uint64_t* fq,
                                       const uint64_t* fr, const uint32_t* fflags, const uint32_t* idx, uint64_t f,
                                       uint32_t qn, uint32_t rn) {
  for (uint64_t k = blockIdx.x; k < f; k += gridDim.x) {
    const uint64_t i = idx[k];
    for (uint32_t j = threadIdx.x; j < qn; j += blockDim.x) q[i * qn + j] = fq[k * qn + j];
    for (uint32_t j = threadIdx.x; j < rn; j += blockDim.x) r[i * rn + j] = fr[k * rn + j];
    if (threadIdx.x == 0 && flags) flags[i] = fflags[k];
  }
}

const Variant& fallback_variant() {
  static const Variant* f = nullptr;
  static std::once_flag once;
  std::call_once(once, [] { f = find_variant(kFallbackName); });
  return *f;
}

// The passes call no Ops::mul (div_newtonc.hpp: scalar products by
// newtonc_addmul_1), so they need no multiplication tile: no dynamic shared
// memory. Their cost is latency (a few block-synchronised steps per
// instance), so blocks are as narrow as the pass's arrays allow, for more
// resident blocks: 64 threads up to 128 limbs, 128 up to 512, else 256.
uint32_t pass_tile_bytes() { return 0; }
uint32_t pass_threads(uint32_t limbs) { return limbs <= 128 ? 64 : limbs <= 512 ? 128 : kPassThreads; }
uint32_t pass_limbs(block::NewtoncPhase ph, const block::NewtoncArgs& a) {
  switch (ph) {
    case block::NewtoncPhase::Prep: return a.m + 1;
    case block::NewtoncPhase::StepLoad:
    case block::NewtoncPhase::StepSum1:
    case block::NewtoncPhase::StepSum2:
    case block::NewtoncPhase::StepFinish:
    case block::NewtoncPhase::StepSum12: return a.q + 2;
    case block::NewtoncPhase::StepFinishNext: return a.q2 ? a.q + 2 : std::max(a.q + 2, a.n);
    default: return a.n + 2;
  }
}

uint32_t newtonc_threads(const Variant&, uint64_t) { return kPassThreads; }
uint64_t newtonc_smem(const Variant&, uint64_t, uint32_t) { return pass_tile_bytes(); }
// The fallback's and the products' limit (the block shinv kernel: 2^20 bits).
uint64_t newtonc_max_bits(const Variant&) { return block::kDivMaxBits; }

NewtoncProduct product_for(uint32_t param, uint32_t p, uint64_t count) {
  return param & kParamPreferred ? newtonc_product_pp(p, count) : newtonc_product(p);
}

// The largest scratch any product of the schedules for m-limb dividends needs:
// products of count instances at p <= m limbs, and in the fused schedule's
// Newton steps of 2 count at p <= (q + 2) / 2 <= (m + 2) / 2.
// Table products: each range's variant evaluated at its upper end, clipped
// (their scratch grows with the operand size). preferred_plan's: every p,
// once per (m, count) (cached: the launch asks each time).
uint64_t product_scratch(uint32_t param, uint32_t m, uint64_t count) {
  const bool fused = param & kParamFused;
  const uint32_t half = (m + 2) / 2;
  uint64_t best = 0;
  auto at = [&](uint32_t p) {
    for (uint64_t c : {count, 2 * count}) {
      if (c != count && (!fused || p > half)) continue;
      const NewtoncProduct choice = product_for(param, p, c);
      const Variant* v = find_variant(choice.name);
      if (v) best = std::max(best, scratch_bytes(*v, 64ull * p, c));
    }
  };
  if (param & kParamPreferred) {
    static std::mutex mu;
    static std::map<std::pair<uint32_t, uint64_t>, uint64_t> cache;
    std::lock_guard<std::mutex> lock(mu);
    const auto key = std::make_pair(m | (fused ? 0x80000000u : 0u), count);  // m < 2^31
    const auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    for (uint32_t p = 1; p <= m; ++p) at(p);
    cache[key] = best;
    return best;
  }
  for (uint32_t end : kNewtoncRangeEnds) {
    if (end <= m) at(end);
    if (fused && end > half) at(half);
  }
  at(m);
  return best;
}
block::NewtoncLayout layout_for(const Variant& v, uint64_t bits, uint64_t count) {
  const uint32_t m = block::limbs_for_bits(bits, 64);
  return block::newtonc_layout(m, m, count, product_scratch(v.param, m, count),
                               scratch_bytes(fallback_variant(), bits, count));
}
uint64_t newtonc_scratch(const Variant& v, uint64_t bits, uint64_t count) { return layout_for(v, bits, count).total * 8; }

cudaError_t launch_product(uint32_t param, uint32_t p, const uint64_t* pa, const uint64_t* pb, uint64_t* pr,
                           uint64_t count, void* scratch, cudaStream_t stream) {
  const NewtoncProduct choice = product_for(param, p, count);
  const Variant* base = find_variant(choice.name);
  if (base == nullptr) return cudaErrorInvalidDeviceFunction;
  const uint64_t bits = 64ull * p;
  KernelArgs ba{};
  ba.r = pr;
  ba.a = pa;
  ba.b = pb;
  ba.count = count;
  ba.bits = 2 * bits;
  ba.limbs = operand_limbs(*base, bits);
  ba.b_limbs = ba.limbs;
  ba.out_limbs = block::limbs_for_bits(2 * bits, base->limb_bits);
  ba.scratch = scratch_bytes(*base, bits, count) ? scratch : nullptr;
  const Geometry g = geometry(*base, bits, count, choice.ipb, DeviceLimits::h100());
  ba.threads_per_instance = g.threads_per_instance;
  ba.ipb = g.ipb;
  ba.stage_buffers = g.stage_buffers;
  return launch(*base, ba, g, stream);
}

cudaError_t newtonc_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;
  if (args.count == 0) return cudaSuccess;
  if (args.count > 0xffffffffull) return cudaErrorInvalidConfiguration;  // 32-bit fallback indices
  const uint32_t m = args.limbs, n = args.b_limbs;
  const uint64_t bits = 64ull * m, count = args.count;
  const block::NewtoncLayout l = layout_for(v, bits, count);
  uint64_t* s = static_cast<uint64_t*>(args.scratch);
  uint32_t* idx = reinterpret_cast<uint32_t*>(s + l.idx);
  auto* counter = reinterpret_cast<unsigned long long*>(s + l.counter);

  block::NewtoncArgs a{};
  a.u = static_cast<const uint64_t*>(args.a);
  a.v = static_cast<const uint64_t*>(args.b);
  a.qo = static_cast<uint64_t*>(args.r);
  a.ro = static_cast<uint64_t*>(args.r2);
  a.m = m;
  a.n = n;
  a.qn = args.out_limbs;
  a.rn = args.r2_limbs;
  a.count = count;
  a.fast_ok = n >= 1 && m <= 2 * n;
  a.fused = v.param & kParamFused ? 1 : 0;
  block::newtonc_bind_scratch(a, s, l);
  void* prod_scratch = s + l.prod_scratch;

  cudaError_t err = cudaMemsetAsync(counter, 0, sizeof(unsigned long long), stream);
  if (err != cudaSuccess) return err;
  const uint32_t tile = pass_tile_bytes();
  const uint32_t blocks = uint32_t(std::min<uint64_t>(count, block::kDivFusedMaxBlocks));
  const uint32_t warp_blocks =
      uint32_t(std::min<uint64_t>((count + kWarpPassThreads / 32 - 1) / (kWarpPassThreads / 32), block::kDivFusedMaxBlocks));
  struct Backend {
    cudaStream_t stream;
    uint32_t param, tile, blocks, warp_blocks;
    uint32_t* flags;
    uint32_t* idx;
    unsigned long long* counter;
    void* prod_scratch;
    cudaError_t err = cudaSuccess;
    void pass(block::NewtoncPhase ph, const block::NewtoncArgs& a) {
      if (err != cudaSuccess) return;
      const uint32_t limbs = pass_limbs(ph, a);
      if (limbs <= warp_limit(param) && (param & kParamWarpK4))
        newtonc_warp_pass_kernel<4><<<warp_blocks, kWarpPassThreads, 0, stream>>>(a, ph, flags, idx, counter);
      else if (limbs <= warp_limit(param))
        newtonc_warp_pass_kernel<1><<<warp_blocks, kWarpPassThreads, 0, stream>>>(a, ph, flags, idx, counter);
      else
        newtonc_pass_kernel<<<blocks, pass_threads(limbs), tile, stream>>>(a, ph, flags, idx, counter);
      err = cudaGetLastError();
    }
    void product(uint32_t p, const uint64_t* pa, const uint64_t* pb, uint64_t* pr, const block::NewtoncArgs&,
                 uint64_t n_products) {
      if (err != cudaSuccess) return;
      err = launch_product(param, p, pa, pb, pr, n_products, prod_scratch, stream);
    }
  } be{stream, v.param, tile, blocks, warp_blocks, args.flags, idx, counter, prod_scratch};
  block::newtonc_run(be, a);
  if (be.err != cudaSuccess) return be.err;

  // The fallback: read how many instances were handed back (one sync).
  unsigned long long f = 0;
  err = cudaMemcpyAsync(&f, counter, sizeof(f), cudaMemcpyDeviceToHost, stream);
  if (err != cudaSuccess) return err;
  err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return err;
  if (f == 0) return cudaSuccess;
  const uint32_t fblocks = uint32_t(std::min<uint64_t>(f, block::kDivFusedMaxBlocks));
  uint64_t* fu = s + l.fu;
  uint64_t* fv = s + l.fv;
  uint64_t* fq = s + l.fq;
  uint64_t* fr = s + l.fr;
  uint32_t* fflags = reinterpret_cast<uint32_t*>(s + l.fflags);
  newtonc_gather_kernel<<<fblocks, 256, 0, stream>>>(a.u, a.v, fu, fv, idx, f, m, n);
  if ((err = cudaGetLastError()) != cudaSuccess) return err;
  const Variant& fb = fallback_variant();
  KernelArgs fa = args;
  fa.r = fq;
  fa.r2 = fr;
  fa.a = fu;
  fa.b = fv;
  fa.flags = fflags;
  fa.count = f;
  fa.scratch = scratch_bytes(fb, bits, f) ? static_cast<void*>(s + l.fb_scratch) : nullptr;
  const Geometry fg = geometry(fb, bits, f, 1, DeviceLimits::h100());
  fa.threads_per_instance = fg.threads_per_instance;
  fa.ipb = fg.ipb;
  fa.stage_buffers = fg.stage_buffers;
  if ((err = launch(fb, fa, fg, stream)) != cudaSuccess) return err;
  newtonc_scatter_kernel<<<fblocks, 256, 0, stream>>>(a.qo, a.ro, args.flags, fq, fr, fflags, idx, f, a.qn, a.rn);
  return cudaGetLastError();
}

const ShapeRules kNewtoncShape{newtonc_threads, newtonc_smem, newtonc_max_bits, newtonc_scratch, newtonc_launch,
                               false};

}  // namespace

void append_div_newtonc_variants(std::vector<Variant>& out) {
  // The first: session 5's (table products, four passes per step, blocks).
  // div15 (bench/results/2026-11-22-h100-div15.md) measured against it, at
  // 2^14 - 2^20 and 16385 - 32767 bits: .pp (products from preferred_plan)
  // 1.15x at 2^15, .pp.f (fused schedule) 1.21x, .pp.f.w36 / .w132 (warp
  // passes up to 36 / 132 limbs) 1.32x / 1.38x, .pp.f.w1028 (every pass to
  // 2^16 bits on warps) 1.55x; with 4-limb adds (.k4: 75 registers against
  // 48) 0.95x at 2^15, 1.02x at 2^16 - 2^17, equal above. Kept: the two that
  // win somewhere (the default plan's), and the baseline.
  const std::pair<const char*, uint32_t> shapes[] = {
      {"", 0},
      {"pp.f.w1028", kParamPreferred | kParamFused | (1028u << 8)},
      {"pp.f.w1028.k4", kParamPreferred | kParamFused | kParamWarpK4 | (1028u << 8)},
  };
  for (const auto& [extra, param] : shapes)
    out.push_back(make_variant(Op::DivMod, "block", "newtonc", 64, kPassQ, kPassThreads,
                               reinterpret_cast<const void*>(&newtonc_pass_kernel), kNewtoncShape, extra, param));
}

}  // namespace bigtune::kernels::variants
