// Explicit instances of the warp Newton-reciprocal divmod
// (kernels/variants/warp_divnewton_kernels.cuh). Named
// "divmod.newton.u32.q<Q>.l<L>.c<chunks>[.sp]" (".sp": the small products
// on mul_small, div14), param = L; an instance holds a
// dividend of 2N = 2 L Q digits (the divisor's N digits plus the quotient's
// N), so the limit is 64 L Q bits. Two launches: the Newton kernel, then the
// warp Knuth kernel on 2N digits (an existing template: divmod.knuth's with
// L2 Q2 = 2N) for the instances the first one marked in the scratch (zero
// divisors, divisors of more than N digits, quotients of more than N + 1
// digits). The chunk count (quotient digits per Barrett step = N / chunks)
// is a run-time value: all chunk counts of one (L, Q) share one kernel.
//
// Which (L, Q, chunks): the products inside are N x N (n/2 bits for an
// n-bit dividend); N = 64, 128, 256 digits for dividends up to 4, 8 and
// 16 Kbit, Q = 8, with the chunk count that measured best at each size
// (bench/results/2026-11-22-h100-wdiv.md, H100: every (L, Q) with N = 32 ..
// 256, Q = 8 and 16, 2 .. 16 chunks, also Q = 8 at three blocks per SM, were
// timed; the ones that won nowhere were dropped, among them N = 32, which
// reaches 4.6e8 at 2 Kbit against the thread Knuth kernel's 7.45e8).
#include <initializer_list>
#include <string>

#include "kernels/variants/variant_factory.hpp"
#include "kernels/variants/warp_divnewton_variants.hpp"
#include "kernels/variants/warp_divmod_kernels.cuh"
#include "kernels/variants/warp_divnewton_kernels.cuh"

namespace bigtune::kernels::variants {
namespace {

struct NewtonSet {
  const void* fast;
  const void* knuth;  // warp_divmod_kernel<L2, Q2>, L2 Q2 = 2 L Q
  uint32_t knuth_lanes;
};

template <int L, int Q, int L2, int Q2, int T = int(kWarpDivNewtonThreads), int B = 1>
NewtonSet newton_set() {
  static_assert(L2 * Q2 == 2 * L * Q, "the Knuth pass must hold the whole dividend");
  return {reinterpret_cast<const void*>(&warp_divnewton_kernel<L, Q, T, B>),
          reinterpret_cast<const void*>(&warp_divmod_kernel<L2, Q2>), uint32_t(L2)};
}

const NewtonSet& set_of(const Variant& v);

// The name's ".c<chunks>" suffix: quotient digits per Barrett step = N / chunks.
uint32_t chunks_of(const Variant& v) {
  const size_t at = v.name.rfind(".c");
  return at == std::string::npos ? 2u : uint32_t(std::stoul(v.name.substr(at + 2)));
}

// The ".sp" suffix (div14): the small products on mul_small
// (kernels/warp/divmod_newton.cuh), the same kernel instance.
bool small_products(const Variant& v) {
  return v.name.size() > 3 && v.name.compare(v.name.size() - 3, 3, ".sp") == 0;
}

uint32_t lanes(const Variant& v, uint64_t) { return v.param; }
uint64_t no_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t dividend_cap(const Variant& v) { return 2ull * v.param * v.q * 32; }
uint64_t mark_bytes(const Variant&, uint64_t, uint64_t count) { return count * sizeof(uint32_t); }

cudaError_t newton_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the runtime allocates mark_bytes
  if (args.count == 0) return cudaSuccess;
  const NewtonSet& set = set_of(v);
  KernelArgs a = args;
  a.shift = chunks_of(v);  // divmod has no shift: the kernel reads its chunk count there
  if (small_products(v)) a.shift |= kSmallProducts;
  void* params[] = {&a};
  cudaError_t e = cudaLaunchKernel(set.fast, dim3(g.grid), dim3(g.block), params, 0, stream);
  if (e != cudaSuccess) return e;
  // The Knuth pass: its own geometry (kWarpMaxThreads threads, 2N-digit
  // segments); warps without a marked instance leave after the marks.
  KernelArgs k = args;
  k.threads_per_instance = set.knuth_lanes;
  k.ipb = kWarpMaxThreads / set.knuth_lanes;
  const uint64_t grid = (args.count + k.ipb - 1) / k.ipb;
  if (grid > 0x7fffffffu) return cudaErrorInvalidConfiguration;
  void* kparams[] = {&k};
  return cudaLaunchKernel(set.knuth, dim3(uint32_t(grid)), dim3(kWarpMaxThreads), kparams, 0, stream);
}

const ShapeRules kNewtonShape{lanes, no_smem, dividend_cap, mark_bytes, newton_launch, false};

// T threads per block at most (the variant's max_threads), B blocks per SM
// for ptxas (__launch_bounds__); shapes other than 256/1 are named
// ".t<T>.b<B>" before the chunk suffix (chunks_of reads the last ".c").
template <int L, int Q, int T = int(kWarpDivNewtonThreads), int B = 1>
void one(std::vector<Variant>& out, std::initializer_list<uint32_t> chunks, const char* suffix = "") {
  const std::string shape =
      T == int(kWarpDivNewtonThreads) && B == 1 ? "" : ".t" + std::to_string(T) + ".b" + std::to_string(B);
  for (uint32_t c : chunks)
    out.push_back(make_variant(Op::DivMod, "warp", "newton", 32, Q, T,
                               reinterpret_cast<const void*>(&warp_divnewton_kernel<L, Q, T, B>), kNewtonShape,
                               "l" + std::to_string(L) + shape + ".c" + std::to_string(c) + suffix, L));
}

const NewtonSet& set_of(const Variant& v) {
  static const NewtonSet sets[] = {newton_set<8, 8, 16, 8>(), newton_set<16, 8, 32, 8>(), newton_set<32, 8, 32, 16>()};
  for (const NewtonSet& s : sets)
    if (s.fast == v.kernel) return s;
  return sets[0];  // unreachable: every variant below has its set
}

}  // namespace

void append_warp_divnewton_variants(std::vector<Variant>& out) {
  // div14 (bench/results/2026-11-22-h100-div14.md, H100): the small products
  // (the chunk's W_t x I, the Newton steps) on mul_small, ".sp": 1.89e8 /
  // 7.57e7 / 2.67e7 at 4 / 8 / 16 Kbit against 1.84e8 / 6.58e7 / 2.24e7 for
  // the same kernels with every product on mul_full (the names without
  // ".sp", measured in the same run, dropped: they lose everywhere; one<L,
  // 8>(out, {c}) registers them again). Measured and dropped as well: l32.c16.sp
  // (2.09e7 at 16 Kbit: 16 chunks' fixed cost).
  one<8, 8>(out, {4}, ".sp");    // 2-4 Kbit dividends: 1.89e8 inst/s at 4 Kbit
  one<16, 8>(out, {4}, ".sp");   // to 8 Kbit: 7.57e7
  one<32, 8>(out, {8}, ".sp");   // to 16 Kbit: 2.67e7
  // wdiv / wdiv2 / div15 on the mul_full kernel: q8.l8.c4 1.82e8-1.86e8,
  // q8.l16.c4 6.51e7-6.62e7, q8.l32.c8 2.19e7-2.28e7; at 16 Kbit c4 2.23e7,
  // c16 2.06e7 (bench/results/2026-11-22-h100-div15.md).
  // Measured and dropped (bench/results/2026-11-22-h100-wdiv2.md): the same
  // kernels on 128-thread blocks held to 5, 6 and 7 blocks per SM (one<L,
  // 8, 128, B>: 91-96, 80 and 72 registers, 20-28 resident warps against
  // 16), c4 and c8: 0.83-0.91x the 256-thread shapes above at 4-16 Kbit.
}

}  // namespace bigtune::kernels::variants
