// mulmod / sqrmod with the limb products on the FP64 pipe
// (kernels/modular/barrett_dfma.cuh): "mulmod.dfma.u64.q16" and
// "sqrmod.dfma.u64.q16", one thread per instance, operands up to 1024 bits;
// ".b4" the same kernel held to 128 registers (four 128-thread blocks an SM
// instead of three, a few spills) and mulmod ".roll4" / ".roll5" with the product
// a b rolled (barrett_dfma.cuh: product_limbs_rolled), for the tuner to
// compare; ".roll4.wtile" the same on warp tiles (dfma_mulmod_tiled_kernel).
//
// The launch: for a modulus shared by the batch, the Barrett constants on the
// host (one read of m, one stream synchronisation, as the warp Barrett
// wbarrett_instances.cu does), passed by value as a kernel parameter, so the
// limb products read mu and m from the constant bank. A modulus per
// instance runs a DFMA Montgomery product instead (dmont_mulmod_kernel: a R
// mod m by one division, then a R b / R); a shared modulus that is even or
// below 2^988 runs the warp Barrett of the same size, wbarrett.u32.q8.l4.
//
// powm: "powm.dfma.u64.q<NW>.w<w>[.sq]" (kernels/modular/dfma_montgomery.cuh)
// for operands of NW words, 2 to 32 (128 to 2048 bits), one thread per
// instance; even moduli by the thread Montgomery powm's even-only pass.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/block/layout.hpp"
#include "kernels/modular/barrett_dfma.cuh"
#include "kernels/modular/dfma_montgomery.cuh"
#include "kernels/thread/warp_tile.cuh"
#include "kernels/variants/mod_kernels.cuh"  // kModThreads, kModEvenOnly: the even-modulus fallback
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/mod_fallback.hpp"  // launch_even_powm_pass
#include "kernels/variants/resident_grid.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {

using modular::BarrettDfma;
using modular::dfma::kWords;

constexpr uint32_t kDfmaThreads = 128;

// U = 0: every product unrolled (products by columns), sqrmod by the squaring;
// U > 0 (registered for mulmod): the product a b rolled, U limbs of b a pass,
// b's limbs in shared memory.
template <int MinBlocks, int U>
__global__ void __launch_bounds__(kDfmaThreads, MinBlocks)
    dfma_mulmod_kernel(KernelArgs args, const __grid_constant__ BarrettDfma c) {
  if (threadIdx.x >= args.ipb) return;
  const uint64_t i = uint64_t(blockIdx.x) * args.ipb + threadIdx.x;
  if (i >= args.count) return;
  uint64_t a[kWords], r[kWords];
  const uint64_t* pa = static_cast<const uint64_t*>(args.a) + i * args.limbs;
#pragma unroll
  for (int j = 0; j < kWords; ++j) a[j] = uint32_t(j) < args.limbs ? pa[j] : 0;
  if (U > 0 || args.b) {
    uint64_t b[kWords];
    const uint64_t* pb = args.b ? static_cast<const uint64_t*>(args.b) + i * args.b_limbs : pa;
    const uint32_t b_limbs = args.b ? args.b_limbs : args.limbs;
#pragma unroll
    for (int j = 0; j < kWords; ++j) b[j] = uint32_t(j) < b_limbs ? pb[j] : 0;
    if constexpr (U > 0) {
      __shared__ uint64_t slots[modular::dfma::kK * kDfmaThreads];
      uint64_t* xb = slots + threadIdx.x;
      double bd[modular::dfma::kK];
      modular::dfma::words_to_limbs(bd, b);
#pragma unroll
      for (int j = 0; j < modular::dfma::kK; ++j) xb[j * kDfmaThreads] = modular::dfma::double_to_bits(bd[j]);
      modular::barrett_dfma_mulmod_rolled<U>(r, a, xb, kDfmaThreads, c);
    } else {
      modular::barrett_dfma_mulmod(r, a, b, c);
    }
  } else {
    modular::barrett_dfma_sqrmod(r, a, c);
  }
  uint64_t* pr = static_cast<uint64_t*>(args.r) + i * args.out_limbs;
#pragma unroll
  for (int j = 0; j < kWords; ++j)
    if (uint32_t(j) < args.out_limbs) pr[j] = r[j];
}

// The same on warp tiles (thread/warp_tile.cuh): rows of 16 words, every
// 16-byte aligned; each warp loops over tiles of 32 instances (a grid of one
// wave, dfma_tiled_launch), fetching its next tile's a and b by cp.async
// while it computes, and stores its results through its own share of the
// product's shared region (free once the reduction has read it; each warp's
// share is contiguous here: limb j of lane l at j·32 + l).
template <int MinBlocks, int U>
__global__ void __launch_bounds__(kDfmaThreads, MinBlocks)
    dfma_mulmod_tiled_kernel(KernelArgs args, const __grid_constant__ BarrettDfma c) {
  static_assert(U > 0, "the rolled product: b's limbs in the region");
  using Tile = thread::WarpTile<kWords>;
  using modular::dfma::kK;
  constexpr uint32_t kWarps = kDfmaThreads / 32;
  static_assert(kK * 32 >= Tile::kTileWords, "a warp's region holds its result tile");
  extern __shared__ uint4 dfma_operand_tiles[];  // a warp's a and b tiles, 2 x 4 KB
  __shared__ __align__(16) uint64_t regions[kK * kDfmaThreads];
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint4* const ta = dfma_operand_tiles + 2 * warp * Tile::kTileUnits;
  uint4* const tb = ta + Tile::kTileUnits;
  uint64_t* const region = regions + warp * kK * 32;
  const auto* pa = static_cast<const uint64_t*>(args.a);
  const auto* pb = args.b ? static_cast<const uint64_t*>(args.b) : pa;  // null: a square
  auto* pr = static_cast<uint64_t*>(args.r);
  const uint64_t tiles = (args.count + 31) / 32, stride = uint64_t(gridDim.x) * kWarps;
  const auto rows_of = [&](uint64_t t) { return uint32_t(t + 1 < tiles ? 32 : args.count - 32 * t); };
  const auto fetch = [&](uint64_t t) {
    if (t < tiles) {
      Tile::load_async(ta, pa + t * Tile::kTileWords, rows_of(t), lane);
      Tile::load_async(tb, pb + t * Tile::kTileWords, rows_of(t), lane);
    }
    __pipeline_commit();
  };
  uint64_t t = uint64_t(blockIdx.x) * kWarps + warp;
  fetch(t);
  for (; t < tiles; t += stride) {
    const uint32_t rows = rows_of(t);
    __pipeline_wait_prior(0);
    __syncwarp();
    uint64_t a[kWords], b[kWords], r[kWords];
    Tile::read_row(a, ta, lane);
    Tile::read_row(b, tb, lane);
    if (lane >= rows) {  // past the batch (last tile): rows not fetched
#pragma unroll
      for (int j = 0; j < kWords; ++j) a[j] = b[j] = 0;
    }
    __syncwarp();  // every lane has its rows: the tiles take the next ones
    fetch(t + stride);
    uint64_t* const xb = region + lane;
    {
      double bd[kK];
      modular::dfma::words_to_limbs(bd, b);
#pragma unroll
      for (int j = 0; j < kK; ++j) xb[j * 32] = modular::dfma::double_to_bits(bd[j]);
    }
    modular::barrett_dfma_mulmod_rolled<U>(r, a, xb, 32, c);
    __syncwarp();  // the region is the result tile now
    uint4* const out = reinterpret_cast<uint4*>(region);
    Tile::write_row(out, lane, r);
    __syncwarp();
    Tile::store(pr + t * Tile::kTileWords, out, rows, lane);
    __syncwarp();  // the region is the next product's
  }
}

// powm, fixed windows of W bits (dfma_montgomery.cuh): one thread per
// instance, any odd modulus up to 64 NW bits, shared or per instance; NW = 16
// on 128-thread blocks (CIOS forms), NW = 32 on 64-thread blocks (SOS forms:
// 2k = 80 slots a thread, 40 KB a block). An even modulus sets scratch word
// 0 and leaves its instance to the thread Montgomery family's fallback pass
// (mod_kernels.cuh, kModEvenOnly).
template <int NW, int W, modular::dmont::Form F, int Threads, int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks) dfma_powm_kernel(KernelArgs args) {
  using namespace modular::dmont;
  constexpr int kK = limbs_for_words<NW>();
  if (threadIdx.x >= args.ipb) return;
  const uint64_t i = uint64_t(blockIdx.x) * args.ipb + threadIdx.x;
  if (i >= args.count) return;
  uint64_t x[NW], m[NW], r[NW];
  const uint64_t* px = static_cast<const uint64_t*>(args.a) + i * args.limbs;
  const uint64_t* pm = static_cast<const uint64_t*>(args.m) + (args.m_shared ? 0 : i * args.m_limbs);
#pragma unroll
  for (int j = 0; j < NW; ++j) {
    x[j] = uint32_t(j) < args.limbs ? px[j] : 0;
    m[j] = uint32_t(j) < args.m_limbs ? pm[j] : 0;
  }
  if ((m[0] & 1) == 0) {
    atomicOr(static_cast<uint32_t*>(args.scratch), 1u);
    return;
  }
  const uint64_t* e = static_cast<const uint64_t*>(args.e) + (args.e_shared ? 0 : i * args.e_limbs);
  __shared__ uint64_t slots[slots_for<kK, F>() * Threads];
  double table[(1 << W) * kK], m_mem[kK];
  uint32_t region[region_limbs<kK, NW>()];
  constexpr int kPass = kK % 2 == 0 ? 2 : kK;  // limbs a rolled pass: two, or all of an odd k (k = 3, 5)
  powm<NW, W, kPass, F>(r, x, e, args.e_limbs, m, slots + threadIdx.x, Threads, table, region, m_mem);
  uint64_t* pr = static_cast<uint64_t*>(args.r) + i * args.out_limbs;
#pragma unroll
  for (int j = 0; j < NW; ++j)
    if (uint32_t(j) < args.out_limbs) pr[j] = r[j];
}

// mulmod / sqrmod (args.b null) with a modulus per instance, the DFMA
// variants' path for it (dfma_launch): dmont::mulmod on 20 limbs, one thread
// an instance. An even modulus sets scratch word 0 and leaves its instance to
// the thread Montgomery kernel's even-only pass.
__global__ void __launch_bounds__(kDfmaThreads, 3) dmont_mulmod_kernel(KernelArgs args) {
  using namespace modular::dmont;
  constexpr int kK = limbs_for_words<kWords>();
  if (threadIdx.x >= args.ipb) return;
  const uint64_t i = uint64_t(blockIdx.x) * args.ipb + threadIdx.x;
  if (i >= args.count) return;
  uint64_t a[kWords], b[kWords], m[kWords], r[kWords];
  const uint64_t* pa = static_cast<const uint64_t*>(args.a) + i * args.limbs;
  const uint64_t* pb = args.b ? static_cast<const uint64_t*>(args.b) + i * args.b_limbs : pa;
  const uint32_t b_limbs = args.b ? args.b_limbs : args.limbs;
  const uint64_t* pm = static_cast<const uint64_t*>(args.m) + i * args.m_limbs;
#pragma unroll
  for (int j = 0; j < kWords; ++j) {
    a[j] = uint32_t(j) < args.limbs ? pa[j] : 0;
    b[j] = uint32_t(j) < b_limbs ? pb[j] : 0;
    m[j] = uint32_t(j) < args.m_limbs ? pm[j] : 0;
  }
  if ((m[0] & 1) == 0) {
    atomicOr(static_cast<uint32_t*>(args.scratch), 1u);
    return;
  }
  __shared__ uint64_t slots[kK * kDfmaThreads];
  uint32_t region[region_limbs<kK, kWords>()];
  mulmod<kWords, 2>(r, a, b, m, slots + threadIdx.x, kDfmaThreads, region);
  uint64_t* pr = static_cast<uint64_t*>(args.r) + i * args.out_limbs;
#pragma unroll
  for (int j = 0; j < kWords; ++j)
    if (uint32_t(j) < args.out_limbs) pr[j] = r[j];
}

// A modulus per instance: dmont_mulmod_kernel, then the even moduli's pass
// (the thread Montgomery mulmod of 32 limbs, "even only", gated on scratch
// word 0; mod_kernels.cuh).
cudaError_t per_instance_launch(const Variant& v, const KernelArgs& args, cudaStream_t stream) {
  const Variant* even = find_variant(std::string(op_name(v.op)) + ".mont.u32.q32");
  if (!args.scratch || !even) return cudaErrorInvalidValue;
  cudaError_t e = cudaMemsetAsync(args.scratch, 0, 4, stream);
  KernelArgs k = args;
  k.ipb = kDfmaThreads;
  k.threads_per_instance = 1;
  const uint64_t blocks = (args.count + kDfmaThreads - 1) / kDfmaThreads;
  if (blocks > 0x7fffffffull) return cudaErrorInvalidConfiguration;
  void* params[] = {&k};
  if (e == cudaSuccess)
    e = cudaLaunchKernel(reinterpret_cast<const void*>(&dmont_mulmod_kernel), dim3(uint32_t(blocks)),
                         dim3(kDfmaThreads), params, 0, stream);
  if (e != cudaSuccess) return e;
  KernelArgs fb = args;  // the same batches as 32-bit limbs
  fb.limbs *= 2, fb.b_limbs *= 2, fb.out_limbs *= 2, fb.m_limbs *= 2;
  fb.ipb = kModThreads;
  fb.threads_per_instance = 1;
  fb.shift = kModEvenOnly;
  void* fb_params[] = {&fb};
  const uint64_t fb_blocks = (args.count + fb.ipb - 1) / fb.ipb;
  return cudaLaunchKernel(even->kernel, dim3(uint32_t(fb_blocks)), dim3(fb.ipb), fb_params, 0, stream);
}

const Variant* fallback_of(const Variant& v) {
  return find_variant(std::string(op_name(v.op)) + ".wbarrett.u32.q8.l4");
}

uint32_t one_thread(const Variant&, uint64_t) { return 1; }
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t dfma_max_bits(const Variant& v) { return 64ull * v.q; }
uint64_t dfma_scratch(const Variant& v, uint64_t bits, uint64_t count) {
  const Variant* f = fallback_of(v);
  return f ? scratch_bytes(*f, bits, count) : 0;
}

// A shared modulus: its constants, then run(c); a modulus that is even or
// below 2^988 runs the warp Barrett fallback instead, and a modulus per
// instance the DFMA Montgomery kernel (per_instance_launch).
template <class Run>
cudaError_t dfma_launch_with(const Variant& v, const KernelArgs& args, cudaStream_t stream, Run run) {
  if (args.count == 0) return cudaSuccess;
  if (!args.m_shared) return per_instance_launch(v, args, stream);
  BarrettDfma c{};
  {
    uint32_t m32[2 * kWords] = {};
    const size_t words = std::min<size_t>(args.m_limbs, kWords);
    cudaError_t e = cudaMemcpyAsync(m32, args.m, words * 8, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) return e;
    modular::barrett_dfma_setup(c, m32);
  }
  if (!c.usable) {
    const Variant* f = fallback_of(v);
    if (!f) return cudaErrorInvalidConfiguration;
    KernelArgs k = args;  // the same batches seen as 32-bit limbs
    k.limbs *= 2, k.b_limbs *= 2, k.out_limbs *= 2, k.m_limbs *= 2;
    // The fallback's own geometry (its lanes, ~128 threads a block), which
    // its kernels also read from the arguments.
    const uint64_t bits = args.bits ? args.bits : 64ull * args.limbs;
    const uint32_t lanes = threads_per_instance(*f, bits);
    const Geometry fg = geometry(*f, bits, args.count, std::max(1u, kDfmaThreads / lanes), DeviceLimits::h100());
    k.ipb = fg.ipb;
    k.threads_per_instance = fg.threads_per_instance;
    return launch(*f, k, fg, stream);
  }
  return run(c);
}

cudaError_t dfma_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  return dfma_launch_with(v, args, stream, [&](BarrettDfma& c) {
    KernelArgs k = args;
    k.ipb = g.ipb;
    void* params[] = {&k, &c};
    return cudaLaunchKernel(v.kernel, dim3(g.grid), dim3(g.block), params, 0, stream);
  });
}

// The warp-tile kernel's operand tiles: a and b for each of a block's warps.
constexpr uint32_t kDfmaTileBytes =
    (kDfmaThreads / 32) * 2 * thread::WarpTile<kWords>::kTileUnits * uint32_t(sizeof(uint4));
uint64_t tile_smem(const Variant&, uint64_t, uint32_t) { return kDfmaTileBytes; }

// dfma_mulmod_tiled_kernel on one wave of blocks where every row is 16
// words and 16-byte aligned (the runtime's batches), else the untiled
// kernel of the same parameters on the geometry.
template <int MinBlocks, int U>
cudaError_t dfma_tiled_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  const auto aligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; };
  const bool tiled = args.limbs == kWords && args.out_limbs == kWords && (!args.b || args.b_limbs == kWords) &&
                     aligned(args.a) && aligned(args.b) && aligned(args.r);
  return dfma_launch_with(v, args, stream, [&](BarrettDfma& c) {
    KernelArgs k = args;
    void* params[] = {&k, &c};
    if (!tiled) {
      k.ipb = g.ipb;
      const void* untiled = reinterpret_cast<const void*>(&dfma_mulmod_kernel<MinBlocks, U>);
      return cudaLaunchKernel(untiled, dim3(g.grid), dim3(g.block), params, 0, stream);
    }
    const void* kernel = reinterpret_cast<const void*>(&dfma_mulmod_tiled_kernel<MinBlocks, U>);
    const cudaError_t e =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kDfmaTileBytes));
    if (e != cudaSuccess) return e;
    const uint64_t tiles = (args.count + 31) / 32, needed = (tiles + kDfmaThreads / 32 - 1) / (kDfmaThreads / 32);
    const uint64_t resident = resident_blocks(kernel, kDfmaThreads, kDfmaTileBytes);
    // Warps loop over the tiles: any grid is correct, one wave is fastest.
    const uint64_t blocks = std::min<uint64_t>(resident != 0 && resident < needed ? resident : needed, 0x7fffffff);
    k.ipb = kDfmaThreads;
    return cudaLaunchKernel(kernel, dim3(uint32_t(blocks)), dim3(kDfmaThreads), params, kDfmaTileBytes, stream);
  });
}

const ShapeRules kDfmaModShape{one_thread, no_smem, dfma_max_bits, dfma_scratch, dfma_launch, false};
template <int MinBlocks, int U>
const ShapeRules kDfmaTiledShape{one_thread, tile_smem, dfma_max_bits, dfma_scratch, dfma_tiled_launch<MinBlocks, U>,
                                 false};

// The even moduli's pass: the thread Montgomery powm (fixed window 4) of the
// smallest register array that holds the operands (4 to 64 limbs), in "even
// only" mode.
const Variant* even_fallback_of(const KernelArgs& args) {
  const uint32_t limbs = 2 * std::max(args.limbs, args.m_limbs);
  for (uint32_t n : {4u, 8u, 16u, 32u, 64u})
    if (limbs <= n) return find_variant("powm.fixed.u32.q" + std::to_string(n) + ".w4");
  return nullptr;
}

uint64_t powm_scratch(const Variant&, uint64_t, uint64_t) { return 16; }  // word 0: "an even modulus"

cudaError_t dfma_powm_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (args.count == 0) return cudaSuccess;
  const Variant* f = even_fallback_of(args);
  if (!args.scratch || !f) return cudaErrorInvalidValue;
  cudaError_t e = cudaMemsetAsync(args.scratch, 0, 4, stream);
  KernelArgs k = args;
  k.ipb = g.ipb;
  void* params[] = {&k};
  if (e == cudaSuccess) e = cudaLaunchKernel(v.kernel, dim3(g.grid), dim3(g.block), params, 0, stream);
  if (e != cudaSuccess) return e;
  return launch_even_powm_pass(f->kernel, args, stream);
}

const ShapeRules kDfmaPowmShape{one_thread, no_smem, dfma_max_bits, powm_scratch, dfma_powm_launch, false};

}  // namespace

void append_dfma_mod_variants(std::vector<Variant>& out) {
  const auto k = [](auto f) { return reinterpret_cast<const void*>(f); };
  for (Op op : {Op::MulMod, Op::SqrMod}) {
    out.push_back(make_variant(op, "thread", "dfma", 64, kWords, kDfmaThreads, k(&dfma_mulmod_kernel<3, 0>),
                               kDfmaModShape));
    out.push_back(make_variant(op, "thread", "dfma", 64, kWords, kDfmaThreads, k(&dfma_mulmod_kernel<4, 0>),
                               kDfmaModShape, "b4"));
  }
  // The rolled product (a smaller loop body against the instruction caches):
  // 4 or 5 limbs of b a pass.
  out.push_back(make_variant(Op::MulMod, "thread", "dfma", 64, kWords, kDfmaThreads, k(&dfma_mulmod_kernel<3, 4>),
                             kDfmaModShape, "roll4"));
  out.push_back(make_variant(Op::MulMod, "thread", "dfma", 64, kWords, kDfmaThreads, k(&dfma_mulmod_kernel<3, 5>),
                             kDfmaModShape, "roll5"));
  // ".wtile": on warp tiles (coalesced, the next tile fetched during the
  // product) on one wave of blocks: 1.12-1.15x roll4 at 1 Kbit (H100,
  // bench/results/2026-11-28-h100-session16.md, runs A and B). Measured and
  // dropped there: roll5 on tiles (equal), roll4 on tiles at 128 registers
  // (four blocks an SM, 92 bytes spilled: 0.89x) and the unrolled square on
  // tiles (0.88x sqrmod.dfma.u64.q16).
  out.push_back(make_variant(Op::MulMod, "thread", "dfma", 64, kWords, kDfmaThreads,
                             k(&dfma_mulmod_tiled_kernel<3, 4>), kDfmaTiledShape<3, 4>, "roll4.wtile"));
  // powm on the Montgomery form (dfma_montgomery.cuh), windows of 4 and 5
  // bits; ".sq": squarings by the square's half of the pairs. 2048 bits
  // (q32): the SOS forms on 64-thread blocks, windows of 5 and 6.
  using modular::dmont::Form;
  const ShapeRules& p = kDfmaPowmShape;
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 16, 128, k(&dfma_powm_kernel<16, 4, Form::kCios, 128, 3>),
                             p, "w4", 4));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 16, 128, k(&dfma_powm_kernel<16, 5, Form::kCios, 128, 3>),
                             p, "w5", 5));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 16, 128,
                             k(&dfma_powm_kernel<16, 4, Form::kCiosSquare, 128, 3>), p, "w4.sq", 4));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 16, 128,
                             k(&dfma_powm_kernel<16, 5, Form::kCiosSquare, 128, 3>), p, "w5.sq", 5));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 32, 64, k(&dfma_powm_kernel<32, 6, Form::kSos, 64, 4>),
                             p, "w6", 6));
  // 128, 256, 512 and 1536 bits: k = 3, 5, 10 and 30 limbs.
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 2, 128,
                             k(&dfma_powm_kernel<2, 3, Form::kCiosSquare, 128, 3>), p, "w3.sq", 3));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 4, 128,
                             k(&dfma_powm_kernel<4, 4, Form::kCiosSquare, 128, 3>), p, "w4.sq", 4));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 8, 128,
                             k(&dfma_powm_kernel<8, 4, Form::kCiosSquare, 128, 3>), p, "w4.sq", 4));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 8, 128,
                             k(&dfma_powm_kernel<8, 5, Form::kCiosSquare, 128, 3>), p, "w5.sq", 5));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 24, 64, k(&dfma_powm_kernel<24, 6, Form::kSos, 64, 4>),
                             p, "w6", 6));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 24, 128,
                             k(&dfma_powm_kernel<24, 5, Form::kCiosSquare, 128, 2>), p, "w5.sq", 5));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 32, 64,
                             k(&dfma_powm_kernel<32, 6, Form::kSosSquare, 64, 4>), p, "w6.sq", 6));
  out.push_back(make_variant(Op::PowM, "thread", "dfma", 64, 32, 64,
                             k(&dfma_powm_kernel<32, 5, Form::kSosSquare, 64, 4>), p, "w5.sq", 5));
}

}  // namespace bigtune::kernels::variants
