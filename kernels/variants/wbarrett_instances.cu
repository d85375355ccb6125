// Fused warp Barrett mulmod / sqrmod (kernels/warp/barrett_fused.cuh; issue 9,
// task mulmodfast): "<op>.wbarrett.u32.q8.l<L>", L = 4, 8, 16, 32 lanes of
// Q = 8 limbs (1, 2, 4, 8 Kbit). Few instantiations: one kernel per L, shared
// by mulmod and sqrmod (args.b null).
//
// The launch: for a modulus shared by the batch, the reciprocal and the
// normalised modulus on the host (kernels/modular/wbarrett_prep.hpp: one read
// of m, one stream synchronisation, one small upload), then one kernel. With
// a modulus per instance it runs the composed Barrett path
// (mulmod.barrett.u64.q1, barrett_instances.cu: a registered division per
// instance for mu, then three registered products), whose scratch is taken
// with cudaMallocAsync: ShapeRules::scratch_bytes does not know whether the
// modulus is shared, and the composed path's ~20 batch-sized buffers would
// otherwise be allocated for every shared-modulus call too.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/block/layout.hpp"
#include "kernels/modular/wbarrett_prep.hpp"
#include "kernels/variants/barrett_variants.hpp"
#include "kernels/variants/variant_factory.hpp"
#include "kernels/warp/barrett_fused.cuh"

namespace bigtune::kernels::variants {
namespace {

static_assert(modular::kWBarrettHeaderWords == warp::kWBarrettHeader, "one scratch layout");

uint32_t wb_lanes(const Variant& v, uint64_t) { return v.param; }
uint64_t wb_smem(const Variant&, uint64_t, uint32_t) { return 0; }  // static shared memory (~9 KB a block)
uint64_t wb_max_bits(const Variant& v) { return uint64_t(v.param) * v.q * 32; }
uint64_t wb_scratch(const Variant& v, uint64_t, uint64_t) {
  return (warp::kWBarrettHeader + 3ull * v.param * v.q) * 4;
}

// Per-instance moduli: the composed Barrett variant, 64-bit words.
cudaError_t composed_launch(const Variant& v, const KernelArgs& args, cudaStream_t stream) {
  const Variant* c = find_variant(v.op == Op::SqrMod ? "sqrmod.barrett.u64.q1" : "mulmod.barrett.u64.q1");
  if (!c) return cudaErrorInvalidConfiguration;
  KernelArgs k = args;
  k.limbs = args.limbs / 2;
  k.b_limbs = args.b_limbs / 2;
  k.m_limbs = args.m_limbs / 2;
  k.out_limbs = args.out_limbs / 2;
  const uint64_t bytes = scratch_bytes(*c, 64ull * k.limbs, args.count);
  void* p = nullptr;
  cudaError_t e = cudaMallocAsync(&p, bytes, stream);
  if (e != cudaSuccess) return e;
  k.scratch = p;
  e = launch(*c, k, Geometry{}, stream);
  const cudaError_t f = cudaFreeAsync(p, stream);
  return e != cudaSuccess ? e : f;
}

cudaError_t wb_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  if (args.count == 0) return cudaSuccess;
  if (!args.m_shared) return composed_launch(v, args, stream);
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the runtime allocates wb_scratch
  const uint32_t lanes = v.param, q = v.q;
  std::vector<uint32_t> m(args.m_limbs);
  cudaError_t e = cudaMemcpyAsync(m.data(), args.m, m.size() * 4, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return e;
  const std::vector<uint32_t> c = modular::wbarrett_constants(m.data(), args.m_limbs, args.limbs, lanes * q, q);
  // Pageable source: staged before the call returns, so c may go.
  e = cudaMemcpyAsync(args.scratch, c.data(), c.size() * 4, cudaMemcpyHostToDevice, stream);
  if (e != cudaSuccess) return e;
  KernelArgs k = args;
  k.ipb = warp::kWBarrettThreads / lanes;
  k.threads_per_instance = lanes;
  const uint64_t grid = block::ceil_div(args.count, k.ipb);
  if (grid > 0x7fffffffull) return cudaErrorInvalidConfiguration;
  void* params[] = {&k};
  return cudaLaunchKernel(v.kernel, dim3(uint32_t(grid)), dim3(warp::kWBarrettThreads), params, 0, stream);
}

const ShapeRules kWBarrettShape{wb_lanes, wb_smem, wb_max_bits, wb_scratch, wb_launch, false};

template <int L>
void append_for(std::vector<Variant>& out) {
  const void* kernel = reinterpret_cast<const void*>(&warp::wbarrett_mulmod_kernel<L, 8>);
  const std::string lanes = "l" + std::to_string(L);
  out.push_back(make_variant(Op::MulMod, "warp", "wbarrett", 32, 8, warp::kWBarrettThreads, kernel, kWBarrettShape,
                             lanes, L));
  out.push_back(make_variant(Op::SqrMod, "warp", "wbarrett", 32, 8, warp::kWBarrettThreads, kernel, kWBarrettShape,
                             lanes, L));
}

}  // namespace

void append_wbarrett_variants(std::vector<Variant>& out) {
  append_for<4>(out);
  append_for<8>(out);
  append_for<16>(out);
  append_for<32>(out);
}

}  // namespace bigtune::kernels::variants
