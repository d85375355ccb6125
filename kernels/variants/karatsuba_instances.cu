// Karatsuba full product and square (kernels/block/karatsuba.hpp) over a base
// variant of the registry: three launches, prep -> base -> combine.
// Names: "<op>.karatsuba.u64.q<base Q>.k<levels>.<base name without its op>",
// e.g. "mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l8" = two Karatsuba levels
// over the warp sum-rotate product with 16 limbs per lane and 8 lanes.
// A plan's instances per block is the base variant's; its geometry and limits
// are the base's at the leaf size (h = ceil(words / 2^L) words), plus the
// prep/combine passes' shared memory. No new template instances: the two pass
// kernels are plain functions, the base kernels are the existing ones.
#include <algorithm>
#include <mutex>
#include <string>

#include "kernels/block/karatsuba.cuh"
#include "kernels/block/layout.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {

struct KaraSpec {
  Op op;
  uint32_t levels;
  const char* base;  // a registry variant of the same op
};

// Which bases: the fastest half/quarter/eighth-size products of
// bench/results/2026-11-22-h100-warpmul.md and -h100.md (warp block-rotate
// with 16 limbs per lane up to 16 Kbit, 1.2-1.3x the sum-rotate the first
// Karatsuba runs were measured on; block classical u64 beyond), each at the
// levels that bring 2^14 - 2^16-bit operands onto it (bench/notes/karatsuba.md).
constexpr KaraSpec kSpecs[] = {
    {Op::Mul, 1, "mul.blockrot.u32.q16.l32"}, {Op::Mul, 1, "mul.blockrot.u32.q16.l16"},
    {Op::Mul, 1, "mul.classical.u64.q4"}, {Op::Mul, 2, "mul.blockrot.u32.q16.l8"},
    {Op::Mul, 2, "mul.blockrot.u32.q16.l16"}, {Op::Mul, 2, "mul.classical.u64.q4"},
    {Op::Mul, 3, "mul.blockrot.u32.q16.l4"}, {Op::Mul, 3, "mul.blockrot.u32.q16.l8"},
    {Op::Mul, 3, "mul.blockrot.u32.q16.l16"}, {Op::Mul, 4, "mul.blockrot.u32.q16.l4"},
    {Op::Mul, 4, "mul.blockrot.u32.q16.l8"}, {Op::Sqr, 1, "sqr.blockrot.u32.q16.l32"},
    {Op::Sqr, 1, "sqr.blockrot.u32.q16.l16"}, {Op::Sqr, 1, "sqr.classical.u64.q4"},
    {Op::Sqr, 2, "sqr.blockrot.u32.q16.l8"}, {Op::Sqr, 2, "sqr.blockrot.u32.q16.l16"},
    {Op::Sqr, 2, "sqr.classical.u64.q4"}, {Op::Sqr, 3, "sqr.blockrot.u32.q16.l4"},
    {Op::Sqr, 3, "sqr.blockrot.u32.q16.l8"}, {Op::Sqr, 3, "sqr.blockrot.u32.q16.l16"},
    {Op::Sqr, 4, "sqr.blockrot.u32.q16.l4"}, {Op::Sqr, 4, "sqr.blockrot.u32.q16.l8"},
    // The 8-Kbit block-rotate product in rounds (kernels/variants/warp_mul_rounds.cuh).
    {Op::Mul, 1, "mul.blockrot.u32.q16.l16.r4"}, {Op::Mul, 2, "mul.blockrot.u32.q16.l16.r4"},
    // The warp Karatsuba at 8 Kbit (kernels/variants/warp_kara.cuh), two
    // levels: the mul default from 20480 bits to 2^15 (8.95e6/s at 2^15 against
    // 7.53e6 over the rounds product). Measured and dropped
    // (bench/results/2026-11-22-h100-warpkara.md): k1 over the 16-Kbit wkara
    // (mul 8.56e6/s at 2^15; sqr 8.90e6 against the NTT's 1.15e7).
    {Op::Mul, 2, "mul.wkara.u32.q16.l8.k1"},
};

const KaraSpec& spec(const Variant& v) { return kSpecs[v.param]; }
// Looked up on first use (after the registry is built), never during it.
const Variant& base_of(const Variant& v) {
  static const Variant* bases[sizeof(kSpecs) / sizeof(kSpecs[0])] = {};
  static std::once_flag once;
  std::call_once(once, [] {
    for (size_t i = 0; i < sizeof(kSpecs) / sizeof(kSpecs[0]); ++i) bases[i] = find_variant(kSpecs[i].base);
  });
  return *bases[v.param];
}

uint32_t words_of(uint64_t bits) { return block::limbs_for_bits(bits, 64); }
uint64_t leaf_bits(const Variant& v, uint64_t bits) {
  return 64ull * block::kara_leaf_words(words_of(bits), spec(v).levels);
}
uint64_t leaf_count(const Variant& v, uint64_t count) { return uint64_t(block::kara_pow3(spec(v).levels)) * count; }

uint32_t kara_threads(const Variant& v, uint64_t bits) { return threads_per_instance(base_of(v), leaf_bits(v, bits)); }
// Dynamic shared memory of the passes; pass_smem_total adds their static part
// (exchange arrays) for the validity check.
uint64_t prep_smem(const Variant& v, uint64_t bits) {
  return 8 * block::kara_prep_words(words_of(bits), spec(v).levels, v.op == Op::Sqr);
}
uint64_t combine_smem(const Variant& v, uint64_t bits) {
  return 8 * block::kara_combine_words(words_of(bits), spec(v).levels);
}
// The largest of the three launches' dynamic shared memory: the registry's
// validity check then covers the prep and combine blocks too.
uint64_t kara_smem(const Variant& v, uint64_t bits, uint32_t ipb) {
  const uint64_t passes = std::max(prep_smem(v, bits), combine_smem(v, bits)) + sizeof(block::KaraStatic);
  return std::max(smem_bytes(base_of(v), leaf_bits(v, bits), ipb), passes);
}
// The base's register-array cap on the leaves: operands up to 2^L times it.
uint64_t kara_max_bits(const Variant& v) {
  const Variant& b = base_of(v);
  const uint64_t cap = b.shape->fixed_max_bits ? b.shape->fixed_max_bits(b) : 0;
  return cap / 64 * 64 << spec(v).levels;
}

// Scratch: leaves of a (and b), the leaf products, the sign words, then the
// base's own scratch; each part 256-byte aligned.
struct KaraScratch {
  uint64_t leaf_a, leaf_b, prods, neg, base, total;
};
uint64_t align256(uint64_t x) { return (x + 255) / 256 * 256; }
KaraScratch scratch_layout(const Variant& v, uint64_t bits, uint64_t count) {
  const uint64_t leaves = leaf_count(v, count), h = leaf_bits(v, bits) / 64;
  const bool sq = v.op == Op::Sqr;
  KaraScratch s{};
  s.leaf_a = 0;
  s.leaf_b = align256(s.leaf_a + leaves * h * 8);
  s.prods = sq ? s.leaf_b : align256(s.leaf_b + leaves * h * 8);
  s.neg = align256(s.prods + leaves * 2 * h * 8);
  s.base = align256(s.neg + count * 8);
  s.total = s.base + scratch_bytes(base_of(v), leaf_bits(v, bits), leaves);
  return s;
}
uint64_t kara_scratch(const Variant& v, uint64_t bits, uint64_t count) { return scratch_layout(v, bits, count).total; }

// The 48 KB default covers static + dynamic shared memory: opt in above it.
cudaError_t set_smem(const void* kernel, uint64_t bytes) {
  if (bytes + sizeof(block::KaraStatic) <= 48 * 1024) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
}

cudaError_t kara_launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the runtime allocates kara_scratch
  if (args.count == 0) return cudaSuccess;
  if (args.count > 0x7fffffffu) return cudaErrorInvalidConfiguration;  // one block per instance in the passes
  const Variant& base = base_of(v);
  const uint32_t n = args.limbs;  // 64-bit limbs (the variant's limb type)
  const uint64_t bits = uint64_t(n) * 64;
  const KaraScratch s = scratch_layout(v, bits, args.count);
  char* scratch = static_cast<char*>(args.scratch);

  block::KaraPassArgs p{};
  p.a = static_cast<const uint64_t*>(args.a);
  p.b = static_cast<const uint64_t*>(args.b);
  p.r = static_cast<uint64_t*>(args.r);
  p.leaf_a = reinterpret_cast<uint64_t*>(scratch + s.leaf_a);
  p.leaf_b = reinterpret_cast<uint64_t*>(scratch + s.leaf_b);
  p.prods = reinterpret_cast<uint64_t*>(scratch + s.prods);
  p.neg = reinterpret_cast<uint64_t*>(scratch + s.neg);
  p.n = n;
  p.levels = spec(v).levels;
  p.square = v.op == Op::Sqr;
  p.out_words = args.out_limbs;
  const uint32_t threads = block::kara_pass_threads(n);
  const dim3 grid(uint32_t(args.count));
  void* params[] = {&p};

  // 1. prep
  const uint64_t ps = prep_smem(v, bits);
  cudaError_t e = set_smem(reinterpret_cast<const void*>(&block::kara_prep_kernel), ps);
  if (e != cudaSuccess) return e;
  e = cudaLaunchKernel(reinterpret_cast<const void*>(&block::kara_prep_kernel), grid, dim3(threads), params, ps, stream);
  if (e != cudaSuccess) return e;

  // 2. the base product on the leaves, with this plan's instances per block
  const uint64_t lbits = leaf_bits(v, bits), leaves = leaf_count(v, args.count);
  KernelArgs ba{};
  ba.r = p.prods;
  ba.a = p.leaf_a;
  ba.b = p.square ? p.leaf_a : p.leaf_b;
  ba.count = leaves;
  ba.bits = 2 * lbits;
  ba.limbs = operand_limbs(base, lbits);
  ba.out_limbs = block::limbs_for_bits(2 * lbits, base.limb_bits);
  ba.b_limbs = ba.limbs;
  ba.scratch = scratch_bytes(base, lbits, leaves) ? scratch + s.base : nullptr;
  const Geometry bg = geometry(base, lbits, leaves, g.ipb, DeviceLimits::h100());  // limits: unused for mul/sqr
  ba.threads_per_instance = bg.threads_per_instance;
  ba.ipb = bg.ipb;
  ba.stage_buffers = bg.stage_buffers;
  e = launch(base, ba, bg, stream);
  if (e != cudaSuccess) return e;

  // 3. combine
  const uint64_t cs = combine_smem(v, bits);
  e = set_smem(reinterpret_cast<const void*>(&block::kara_combine_kernel), cs);
  if (e != cudaSuccess) return e;
  return cudaLaunchKernel(reinterpret_cast<const void*>(&block::kara_combine_kernel), grid, dim3(threads), params, cs,
                          stream);
}

const ShapeRules kKaraShape{kara_threads, kara_smem, kara_max_bits, kara_scratch, kara_launch, false};

}  // namespace

void append_karatsuba_variants(std::vector<Variant>& out) {
  for (uint32_t i = 0; i < sizeof(kSpecs) / sizeof(kSpecs[0]); ++i) {
    const KaraSpec& k = kSpecs[i];
    // The base's name without its op: "blockrot.u32.q16.l8".
    const std::string base = k.base;
    const std::string suffix = "k" + std::to_string(k.levels) + "." + base.substr(base.find('.') + 1);
    // Q is the base's: a plan's instances per block means what it means for
    // the base. Family "block": the passes run one block per instance (and
    // the warp family's rules, param = lanes, do not hold here).
    uint32_t q = 0, max_threads = 0;
    for (const Variant& b : out)
      if (b.name == base) q = b.q, max_threads = b.max_threads;
    if (q == 0) continue;  // base not registered (before this call): no variant
    out.push_back(make_variant(k.op, "block", "karatsuba", 64, q, max_threads,
                               reinterpret_cast<const void*>(&block::kara_prep_kernel), kKaraShape, suffix, i));
  }
}

}  // namespace bigtune::kernels::variants
