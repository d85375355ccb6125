// Barrett mulmod / sqrmod / powm for any modulus and any size up to 2^19 bits
// (issue 9; the arithmetic and its bound: kernels/modular/barrett.hpp).
//
// Composition, as Karatsuba composes a base product (karatsuba_instances.cu):
// every big step is a launch of a registered variant, the glue is four small
// warp-per-instance kernels of this file.
//   per call:  prep (normalise m, s)  -> divmod (registered, 2N bits) -> mu
//              (once for a shared modulus, once per instance for powm)
//   mulmod with a modulus per instance: t = a*b -> t mod m by the
//              registered division at 2N bits (no mu: its division would
//              cost the same, and the reduction's two products come on top);
//   mulmod:    [a shorter modulus: check a, b < m, else reduce them first]
//              t = a*b (registered mul/sqr) -> q1 = high half of t << s
//              -> P = q1 * mu_lo (registered mul) -> q = P_hi + q1
//              -> P = q * m' (registered mul) -> r = (t << s) - P, <= 4
//              corrections, r >> s.
//              Where the mul is an unsplit CRT NTT (30721 - 131072 bits),
//              q1 * mu_lo and q * m' multiply by the spectra of mu_lo and
//              m' (session 18): computed once per call for a shared modulus
//              (and per instance for powm), two transforms a product
//              instead of three: 7 a mulmod instead of 9.
//   tcbarrett (a shared modulus, to 64 Kbit; session 19): q1, q1 mu_lo's
//              high half and q = P_hi + q1 in one pass and q m''s low
//              n + 1 words, both on the u8 tensor cores
//              (mul_const_imma_launch.hpp), then the finish (<= 5
//              corrections: P_hi may be one low); up to ~10 Kbit on
//              Hopper the finish of a full-width modulus comes with q m'
//              (launch_barrett_imma_remainder; session 23).
//   powm:      fixed windows of w bits over the exponent's full width, the
//              2^w-entry table in global scratch, one Barrett sqrmod per bit
//              and one mulmod per window, a host loop of launches.
//   tcbarrett powm: the same loop, each step's reduction on the tensor cores
//              where the batch shares its modulus (session 22: a DH group
//              or one RSA key over many messages); moduli per instance run
//              the composed Barrett powm's steps.
// Names: mulmod.barrett.u64.q1, sqrmod.barrett.u64.q1, powm.barrett.u64.q1.w<w>;
// mulmod.tcbarrett.u64.q1, sqrmod.tcbarrett.u64.q1, powm.tcbarrett.u64.q1.w<w>;
// mulmod.rem.u64.q1,
// sqrmod.rem.u64.q1 (the product and the division only, for moduli per
// instance: below).
// Which product and division run is chosen per size from the measured
// preferences (kernels/preferred_plans.hpp, also the runtime's default plans).
// Limit: the division of 2^(2N) - 1 by m' at 2N bits (divmod.shinv, 2^20
// bits) caps N at 2^19 bits.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/block/layout.hpp"
#include "kernels/modular/barrett.hpp"
#include "kernels/modular/barrett_kernels.cuh"
#include "kernels/preferred_plans.hpp"
#include "kernels/variants/barrett_mu_division.hpp"
#include "kernels/variants/barrett_kept_modulus.hpp"
#include "kernels/variants/barrett_variants.hpp"
#include "kernels/variants/mul_const_imma_launch.hpp"
#include "kernels/variants/ntt_cached_launch.hpp"
#include "kernels/variants/resident_grid.hpp"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {

using modular::BarrettDev;
using modular::BarrettLayout;
using modular::barrett_check_kernel;
using modular::barrett_finish_kernel;
using modular::barrett_finish_regs_kernel;
using modular::barrett_finish_regs_words;
using modular::barrett_gather_kernel;
using modular::barrett_mu_kernel;
using modular::barrett_one_kernel;
using modular::barrett_prep_kernel;
using modular::barrett_q1_kernel;
using modular::barrett_qadd_kernel;

constexpr uint64_t kMaxBits = uint64_t(1) << 19;
constexpr uint32_t kWarpsPerBlock = 8;  // one instance per warp in the glue kernels

// ---- host side -------------------------------------------------------------

uint64_t align256(uint64_t x) { return (x + 255) / 256 * 256; }

// Consecutive 256-byte aligned parts of one call's scratch.
struct ScratchParts {
  uint64_t end = 0;
  uint64_t take(uint64_t bytes) {
    const uint64_t here = end;
    end += align256(bytes);
    return here;
  }
};
uint32_t words_of(uint64_t bits) { return block::limbs_for_bits(bits, 64); }

struct Choice {
  const Variant* v = nullptr;
  uint32_t ipb = 1;
};

// The full product (op Mul or Sqr) at N = 64 n bits for `count` instances:
// the measured preference (kernels/preferred_plans.hpp), else the CRT NTT,
// which holds every size here. Squares up to 2 Kbit go through the mul with
// b = a.
Choice choose_product(Op op, uint64_t big_n, uint64_t count) {
  const DeviceLimits limits = DeviceLimits::h100();
  const Op use = op == Op::Sqr && big_n <= 2048 ? Op::Mul : op;
  if (const auto p = preferred_plan(use, big_n, count, limits)) return {p->variant, p->ipb};
  const Variant* ntt = find_variant(use == Op::Sqr ? "sqr.ntt.u64.q1.crt3.m13.t1024" : "mul.ntt.u64.q1.crt3.m13.t1024");
  if (ntt && why_invalid(*ntt, big_n, count, 1, limits).empty()) return {ntt, 1};
  return {};
}

// Scratch of the products choose_product picks (the larger of mul's and sqr's).
uint64_t product_scratch_bytes(uint64_t big_n, uint64_t count) {
  const Choice mc = choose_product(Op::Mul, big_n, count), sc = choose_product(Op::Sqr, big_n, count);
  return std::max(mc.v ? scratch_bytes(*mc.v, big_n, count) : 0, sc.v ? scratch_bytes(*sc.v, big_n, count) : 0);
}

uint32_t window_of(const Variant& v) { return v.op == Op::PowM ? v.param : 0; }

BarrettLayout layout_of(const Variant& v, uint64_t bits, uint64_t count) {
  const uint64_t n = words_of(bits), big_n = 64 * n, unit = align256(count * n * 8);
  BarrettLayout l{};
  ScratchParts parts;
  const auto take = [&](uint64_t bytes) { return parts.take(bytes); };
  l.shift = take(count * 4);
  l.d = take(count * 4);
  l.flag = take(4);
  l.div_flags = take(count * 4);
  l.mprime = take(unit);
  l.mu = take(unit);
  l.mu2 = take((uint64_t(n) + 1) * 8);
  l.t = take(2 * unit);
  l.p = take(2 * unit);
  l.alt = take(2 * unit);
  l.q = take(unit);
  l.ared = take(unit);
  l.bred = take(unit);
  l.dividend = take(2 * unit);
  l.divisor = take(2 * unit);
  l.quot = take(2 * unit);
  l.rem = take(2 * unit);
  const BarrettDivision dc = barrett_mu_division(2 * big_n, count);  // barrett_mu_division.hpp
  l.div_scratch = take(dc.v ? scratch_bytes(*dc.v, 2 * big_n, count) : 0);
  l.prod_scratch = take(product_scratch_bytes(big_n, count));
  const uint32_t w = window_of(v);
  l.table = take(w ? (uint64_t(1) << w) * unit : 0);
  l.gathered = take(w ? unit : 0);
  // The spectra of mu_lo and m' and their twiddle tables, where the product
  // is an unsplit CRT NTT (ntt_cached_launch.hpp): one pair for a shared
  // modulus; a pair per instance for powm (moduli per instance: the launch
  // does not say which here).
  const Choice mc = choose_product(Op::Mul, big_n, count);
  const bool cached = mc.v && ntt_cached_supported(*mc.v, big_n);
  const uint64_t spectra = cached ? (v.op == Op::PowM ? count : 1) * ntt_spectrum_bytes(*mc.v, big_n) : 0;
  l.ntt_tables = take(cached ? ntt_cached_table_bytes(*mc.v, big_n) : 0);
  l.mu_hat = take(spectra);
  l.mp_hat = take(spectra);
  l.total = parts.end;
  return l;
}

uint32_t barrett_threads(const Variant&, uint64_t) { return 32; }
uint64_t barrett_smem(const Variant&, uint64_t, uint32_t) { return 0; }
uint64_t barrett_max_bits(const Variant&) { return kMaxBits; }
uint64_t barrett_scratch(const Variant& v, uint64_t bits, uint64_t count) { return layout_of(v, bits, count).total; }

// One call's state on the host.
struct Call {
  BarrettDev dev;
  uint64_t big_n;
  Choice mul, sqr;
  // With an unsplit CRT NTT product, a shared modulus (or a powm's moduli,
  // used ~1.2 E times each): the reduction's two products by the cached
  // spectra of mu_lo and m' (two transforms each instead of three), one
  // pair for the batch (hat_shared) or one per instance; cached.v null
  // otherwise.
  NttCachedCall cached;
  const void *mu_hat, *mp_hat;
  bool hat_shared;
  // `tcbarrett` with a shared modulus: the reduction's two products by the
  // one mu_lo and m' on the u8 tensor cores (mul_const_imma_launch.hpp).
  bool tensor;
  char* scratch;
  BarrettLayout l;
  cudaStream_t stream;
  dim3 grid, block;
};

template <class T>
T* at(const Call& c, uint64_t offset) {
  return reinterpret_cast<T*>(c.scratch + offset);
}

// A call's products (the measured preferences at N = 64 n bits), stream and
// scratch; the caller adds its layout.
Call start_call(const KernelArgs& args, cudaStream_t stream) {
  Call c{};
  c.big_n = 64ull * args.limbs;
  c.stream = stream;
  c.scratch = static_cast<char*>(args.scratch);
  c.mul = choose_product(Op::Mul, c.big_n, args.count);
  c.sqr = choose_product(Op::Sqr, c.big_n, args.count);
  c.dev.count = args.count;
  c.dev.n = args.limbs;
  return c;
}

// r (2n words) = a * b with a registered full product (b = a: square).
cudaError_t product(const Call& c, bool square, const uint64_t* a, const uint64_t* b, uint64_t* r) {
  const Choice& ch = square ? c.sqr : c.mul;
  const Variant& v = *ch.v;
  KernelArgs pa{};
  pa.r = r;
  pa.a = a;
  pa.b = square ? a : b;
  pa.count = c.dev.count;
  pa.bits = 2 * c.big_n;
  pa.limbs = operand_limbs(v, c.big_n);
  pa.b_limbs = pa.limbs;
  pa.out_limbs = block::limbs_for_bits(2 * c.big_n, v.limb_bits);
  pa.scratch = scratch_bytes(v, c.big_n, c.dev.count) ? c.scratch + c.l.prod_scratch : nullptr;
  const Geometry g = geometry(v, c.big_n, c.dev.count, ch.ipb, DeviceLimits::h100());
  pa.threads_per_instance = g.threads_per_instance;
  pa.ipb = g.ipb;
  pa.stage_buffers = g.stage_buffers;
  return launch(v, pa, g, c.stream);
}

// r (2n words) = a * b for b = mu_lo or m': by its cached spectrum where
// there is one, else the registered product (tcbarrett's products: reduce).
cudaError_t reduction_product(const Call& c, const uint64_t* a, const uint64_t* b, const void* b_hat, uint64_t* r) {
  if (!c.cached.v) return product(c, false, a, b, r);
  return launch_ntt_cached_mul(c.cached, r, 2 * c.dev.n, 2 * c.big_n, a, c.dev.count, b_hat, c.hat_shared);
}

// out (n words) = x mod m, where x = t << s < 2^(2N) (t of t_words words).
cudaError_t reduce(const Call& c, const uint64_t* t, uint32_t t_words, uint64_t* out) {
  cudaError_t e = cudaSuccess;
  BarrettDev dev = c.dev;
  if (c.tensor) {
    // q = floor(q1' mu2 / 2^(N+32+32g)) in one pass (barrett.hpp: guard
    // words), then q m', and where the wgmma kernel takes it, the finish of
    // full-width moduli with it; at 2-4 Kbit both in one kernel, q on chip.
    // (p, the q m' product's 2N bits an instance, is free until that
    // product: the quotient's scratch where it runs in parts.)
    bool finished = false;
    const uint32_t w = 2 * c.dev.n;
    e = launch_barrett_imma_reduction(reinterpret_cast<uint32_t*>(out), reinterpret_cast<uint32_t*>(c.dev.p),
                                      reinterpret_cast<uint32_t*>(c.dev.q), c.dev.d,
                                      reinterpret_cast<const uint32_t*>(t), 2 * t_words, c.dev.count, c.dev.mu2,
                                      reinterpret_cast<const uint32_t*>(c.dev.mprime), c.dev.shift, w,
                                      reinterpret_cast<uint32_t*>(c.dev.p), 4 * c.dev.n, &finished, c.stream);
    dev.finished_full_width = finished ? 1 : 0;
  } else {
    barrett_q1_kernel<<<c.grid, c.block, 0, c.stream>>>(c.dev, t, t_words);
    e = reduction_product(c, c.dev.q, c.dev.mu, c.mu_hat, c.dev.p);
    if (e != cudaSuccess) return e;
    barrett_qadd_kernel<<<c.grid, c.block, 0, c.stream>>>(c.dev);
    e = reduction_product(c, c.dev.q, c.dev.mprime, c.mp_hat, c.dev.p);
  }
  if (e != cudaSuccess) return e;
  if (barrett_finish_regs_words(dev.n))
    barrett_finish_regs_kernel<<<c.grid, c.block, 0, c.stream>>>(dev, t, t_words, out);
  else
    barrett_finish_kernel<<<c.grid, c.block, 0, c.stream>>>(dev, t, t_words, out);
  return cudaGetLastError();
}

// out = a * b mod m for reduced a, b (b = nullptr: a^2). out may alias a or b.
cudaError_t mulmod(const Call& c, const uint64_t* a, const uint64_t* b, uint64_t* out) {
  uint64_t* t = at<uint64_t>(c, c.l.t);
  const cudaError_t e = product(c, b == nullptr, a, b ? b : a, t);
  if (e != cudaSuccess) return e;
  return reduce(c, t, 2 * c.dev.n, out);
}

// r = (a b) mod m (square: a^2) with m per instance (n words each): the
// product t (2n words) by c's registered product, then t divided by m with
// the registered division at 2N bits, its remainder written to args.r (quot
// takes the quotient, 2n words). Any a, b < 2^N, any nonzero m.
cudaError_t product_rem(const Call& c, bool square, const KernelArgs& args, const uint64_t* m, uint64_t* t,
                        uint64_t* quot, uint32_t* div_flags, void* div_scratch, const BarrettDivision& div) {
  const auto* a = static_cast<const uint64_t*>(args.a);
  const cudaError_t e = product(c, square, a, square ? a : static_cast<const uint64_t*>(args.b), t);
  if (e != cudaSuccess) return e;
  return launch_barrett_mu_division(div, c.big_n, args.count, t, m, quot, static_cast<uint64_t*>(args.r), div_flags,
                                    div_scratch, c.stream);
}

// tensor: the reduction products on the tensor cores where the modulus is
// shared (the tcbarrett variants).
cudaError_t barrett_run(const Variant& v, const KernelArgs& args, cudaStream_t stream, bool tensor) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the runtime allocates barrett_scratch
  if (args.count == 0) return cudaSuccess;
  const uint32_t n = args.limbs;
  Call c = start_call(args, stream);
  c.l = layout_of(v, c.big_n, args.count);
  const BarrettDivision div = barrett_mu_division(2 * c.big_n, args.m_shared ? 1 : args.count);
  if (!c.mul.v || !c.sqr.v || !div.v) return cudaErrorInvalidConfiguration;
  BarrettDev& d = c.dev;
  d.count_m = args.m_shared ? 1 : args.count;  // count and n: start_call
  d.shift = at<uint32_t>(c, c.l.shift);
  d.d = at<uint32_t>(c, c.l.d);
  d.flag = at<uint32_t>(c, c.l.flag);
  d.mprime = at<uint64_t>(c, c.l.mprime);
  d.mu = at<uint64_t>(c, c.l.mu);
  d.mu2 = at<uint32_t>(c, c.l.mu2);
  d.q = at<uint64_t>(c, c.l.q);
  d.p = at<uint64_t>(c, c.l.p);
  d.alt = at<uint64_t>(c, c.l.alt);
  d.dividend = at<uint64_t>(c, c.l.dividend);
  d.divisor = at<uint64_t>(c, c.l.divisor);
  d.quot = at<uint64_t>(c, c.l.quot);
  c.block = dim3(32 * kWarpsPerBlock);
  // The glue kernels loop over their instances (BARRETT_FOR_EACH), so two
  // waves of resident blocks do the work of a block every 8 instances. Where
  // an instance has nothing to do the launch itself is the cost: with a
  // full-width shared modulus the operand checks, and after the q m' pass
  // with the finish (tcbarrett) the finish, are ~45 us each at 8 Kbit for a
  // block every 8 of 2^19 instances (ncu, session 23), ~4x that at 2 Kbit.
  uint64_t blocks = std::min<uint64_t>(block::ceil_div(args.count, kWarpsPerBlock), 1u << 20);
  const uint64_t wave = resident_blocks(reinterpret_cast<const void*>(&barrett_finish_kernel), c.block.x, 0);
  if (wave) blocks = std::min(blocks, 2 * wave);
  c.grid = dim3(uint32_t(blocks));
  const dim3 grid_m(uint32_t(std::min<uint64_t>(block::ceil_div(d.count_m, kWarpsPerBlock), 1u << 20)));
  const uint64_t* m = static_cast<const uint64_t*>(args.m);

  // mulmod / sqrmod with a modulus per instance: r = (a b) mod m by the same
  // division at 2N bits that mu would take, its remainder written to r. One
  // product and one division per instance instead of that division and three
  // products (session 18); any a, b < 2^N, so no operand check either.
  if (v.op != Op::PowM && !args.m_shared)
    return product_rem(c, v.op == Op::SqrMod, args, m, at<uint64_t>(c, c.l.t), at<uint64_t>(c, c.l.quot),
                       at<uint32_t>(c, c.l.div_flags), c.scratch + c.l.div_scratch, div);

  // The tensor cores and the glue read the one copy of a shared modulus;
  // the registered products multiply instance by instance (copies for all).
  c.tensor = tensor && args.m_shared && mul_const_imma_fits(2 * n + modular::barrett_x_guard_words(2 * n), 2 * n + 1);
  d.corrections = modular::kBarrettMaxCorrections + (c.tensor ? 1 : 0);  // a cap: the tensor q is at most one short
  // mulmod / sqrmod on the tensor cores: s, m' and mu live in the stream's
  // kept region (barrett_kept_modulus.hpp), made again only when the
  // modulus differs from the one they were made from. A one-warp Newton
  // division of 2N bits (48 us at 2 Kbit, ncu, session 25) is most of a
  // call on a small batch.
  BarrettKept kept;
  const bool keep = c.tensor && v.op != Op::PowM && barrett_kept_region(stream, n, &kept);
  if (keep) d.shift = kept.shift, d.mprime = kept.mprime, d.mu = kept.mu, d.mu2 = kept.mu2;
  // s, m' and mu = floor((2^(2N) - 1) / m') by the registered division at 2N
  // bits (kept: m's copy with them).
  const auto prepare = [&]() -> cudaError_t {
    barrett_prep_kernel<<<grid_m, c.block, 0, stream>>>(d, m);
    cudaError_t pe = launch_barrett_mu_division(div, c.big_n, d.count_m, d.dividend, d.divisor,
                                                at<uint64_t>(c, c.l.quot), at<uint64_t>(c, c.l.rem),
                                                at<uint32_t>(c, c.l.div_flags), c.scratch + c.l.div_scratch, stream);
    if (pe != cudaSuccess) return pe;
    barrett_mu_kernel<<<c.tensor ? dim3(1) : c.grid, c.block, 0, stream>>>(d, c.tensor ? 1 : args.count);
    if (c.tensor) modular::barrett_mu_guard_kernel<<<1, 256, 0, stream>>>(d, at<uint64_t>(c, c.l.rem));
    if ((pe = cudaGetLastError()) != cudaSuccess) return pe;
    if (keep && ((pe = cudaMemcpyAsync(kept.m, m, uint64_t(n) * 8, cudaMemcpyDeviceToDevice, stream)) != cudaSuccess ||
                 (pe = cudaMemsetAsync(kept.valid, 0xff, 8, stream)) != cudaSuccess))
      return pe;
    return cudaSuccess;
  };
  cudaError_t e = keep ? cudaSuccess : prepare();
  if (e != cudaSuccess) return e;
  // The spectra of mu_lo and m': of instance 0's copies for a shared
  // modulus, of every instance's for a powm with moduli per instance (a
  // mulmod would spend on them the two transforms they save).
  if (!c.tensor && (args.m_shared || v.op == Op::PowM) && ntt_cached_supported(*c.mul.v, c.big_n)) {
    c.cached = NttCachedCall{c.mul.v, c.big_n, n, c.scratch + c.l.ntt_tables, stream};
    c.mu_hat = c.scratch + c.l.mu_hat;
    c.mp_hat = c.scratch + c.l.mp_hat;
    c.hat_shared = args.m_shared != 0;
    const uint64_t moduli = c.hat_shared ? 1 : args.count;
    if ((e = launch_ntt_cached_tables(c.cached)) != cudaSuccess ||
        (e = launch_ntt_spectra(c.cached, d.mu, moduli, c.scratch + c.l.mu_hat)) != cudaSuccess ||
        (e = launch_ntt_spectra(c.cached, d.mprime, moduli, c.scratch + c.l.mp_hat)) != cudaSuccess)
      return e;
  }

  const uint64_t* a = static_cast<const uint64_t*>(args.a);
  uint64_t* r = static_cast<uint64_t*>(args.r);
  uint64_t* ared = at<uint64_t>(c, c.l.ared);
  if (v.op != Op::PowM) {
    const bool square = v.op == Op::SqrMod;
    const uint64_t* b = square ? nullptr : static_cast<const uint64_t*>(args.b);
    // Operands >= m (bigtune.hpp: reduced as documented): with a modulus of
    // N bits (s = 0) any a, b < 2^N give a b < 2^(2N), within Barrett's
    // bound, so nothing is done; a shorter modulus needs a, b < m, and
    // instances with one >= m are reduced first (Barrett, two products an
    // operand). The check reads only the instances with s > 0, then a
    // read-back of its flag.
    // Kept constants: the comparison's bit comes back with the check's, and
    // only where the modulus changed do mu's division and the check run
    // again (the first call on a stream, or a new modulus).
    uint32_t flag = 0;
    const auto check = [&](bool compare) -> cudaError_t {
      cudaError_t ce = cudaMemsetAsync(d.flag, 0, 4, stream);
      if (ce != cudaSuccess) return ce;
      if (compare)
        modular::barrett_modulus_compare_kernel<<<1, 256, 0, stream>>>(m, kept.m, kept.valid, n, d.flag);
      barrett_check_kernel<<<c.grid, c.block, 0, stream>>>(d, a, m);
      if (b) barrett_check_kernel<<<c.grid, c.block, 0, stream>>>(d, b, m);
      ce = cudaMemcpyAsync(&flag, d.flag, 4, cudaMemcpyDeviceToHost, stream);
      return ce == cudaSuccess ? cudaStreamSynchronize(stream) : ce;
    };
    if ((e = check(keep)) != cudaSuccess) return e;
    if (flag & modular::kBarrettModulusChanged) {
      if ((e = prepare()) != cudaSuccess || (e = check(false)) != cudaSuccess) return e;
    }
    if (flag & modular::kBarrettOperandTooLarge) {
      if ((e = reduce(c, a, n, ared)) != cudaSuccess) return e;
      a = ared;
      if (b) {
        uint64_t* bred = at<uint64_t>(c, c.l.bred);
        if ((e = reduce(c, b, n, bred)) != cudaSuccess) return e;
        b = bred;
      }
    }
    return mulmod(c, a, b, r);
  }

  // powm: fixed windows of w bits from the top of the exponent's words.
  const uint32_t w = v.param;
  const uint64_t unit = uint64_t(n) * args.count;
  uint64_t* table = at<uint64_t>(c, c.l.table);
  uint64_t* g = at<uint64_t>(c, c.l.gathered);
  barrett_one_kernel<<<c.grid, c.block, 0, stream>>>(d, table);
  if ((e = reduce(c, a, n, table + unit)) != cudaSuccess) return e;
  for (uint32_t k = 2; k < (1u << w); ++k)
    if ((e = mulmod(c, table + (k - 1) * unit, table + unit, table + k * unit)) != cudaSuccess) return e;
  const uint64_t e_bits = 64ull * args.e_limbs;
  const uint64_t windows = (e_bits + w - 1) / w;
  const uint64_t* ex = static_cast<const uint64_t*>(args.e);
  for (uint64_t k = windows; k-- > 0;) {
    if (k + 1 == windows) {
      barrett_gather_kernel<<<c.grid, c.block, 0, stream>>>(d, table, ex, args.e_limbs, args.e_shared, k * w, w, r);
      continue;
    }
    for (uint32_t j = 0; j < w; ++j)
      if ((e = mulmod(c, r, nullptr, r)) != cudaSuccess) return e;
    barrett_gather_kernel<<<c.grid, c.block, 0, stream>>>(d, table, ex, args.e_limbs, args.e_shared, k * w, w, g);
    if ((e = mulmod(c, r, g, r)) != cudaSuccess) return e;
  }
  return cudaGetLastError();
}

cudaError_t barrett_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  return barrett_run(v, args, stream, false);
}
const ShapeRules kBarrettShape{barrett_threads, barrett_smem, barrett_max_bits, barrett_scratch, barrett_launch, false};

// ---- tcbarrett: the same Barrett, reduction products on the tensor cores --
// With a shared modulus q1 mu_lo and q m' multiply every instance by one
// number: a u8 matrix product (kernels/block/mul_const_imma.cuh). Up to 64
// Kbit (the kernel's shared memory); moduli per instance take the rem path
// (mulmod, sqrmod) or the composed Barrett's registered products (powm).
constexpr uint64_t kTensorMaxBits = uint64_t(1) << 16;
uint64_t tcbarrett_max_bits(const Variant&) { return kTensorMaxBits; }
cudaError_t tcbarrett_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  return barrett_run(v, args, stream, true);
}
const ShapeRules kTcBarrettShape{barrett_threads, barrett_smem, tcbarrett_max_bits, barrett_scratch, tcbarrett_launch,
                                 false};

// ---- mulmod.rem / sqrmod.rem: the product and its remainder --------------
// What a modulus per instance costs least (session 18): no mu (the 2N-bit
// division that would compute it is as dear as dividing a b itself) and no
// reduction products. The runtime's default for moduli per instance above
// 64 bits (runtime/context_ops.cpp); a shared modulus is copied to every
// instance first (the Barrett variants above are the ones for it).
struct RemLayout {
  uint64_t t, quot, m_copies, div_flags, div_scratch, prod_scratch, total;
};
RemLayout rem_layout_of(uint64_t bits, uint64_t count) {
  const uint64_t n = words_of(bits), big_n = 64 * n, unit = align256(count * n * 8);
  RemLayout l{};
  ScratchParts parts;
  const auto take = [&](uint64_t bytes) { return parts.take(bytes); };
  l.t = take(2 * unit);
  l.quot = take(2 * unit);
  l.m_copies = take(unit);
  l.div_flags = take(count * 4);
  const BarrettDivision dc = barrett_mu_division(2 * big_n, count);
  l.div_scratch = take(dc.v ? scratch_bytes(*dc.v, 2 * big_n, count) : 0);
  l.prod_scratch = take(product_scratch_bytes(big_n, count));
  l.total = parts.end;
  return l;
}
uint64_t rem_scratch(const Variant&, uint64_t bits, uint64_t count) { return rem_layout_of(bits, count).total; }

// copies[i n + j] = m[j] for i < count, j < n.
__global__ void __launch_bounds__(256) rem_copy_modulus_kernel(uint64_t* copies, const uint64_t* m, uint32_t n,
                                                               uint64_t count) {
  const uint64_t words = count * n;
  for (uint64_t k = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < words; k += uint64_t(gridDim.x) * blockDim.x)
    copies[k] = m[k % n];
}

cudaError_t rem_launch(const Variant& v, const KernelArgs& args, const Geometry&, cudaStream_t stream) {
  if (args.scratch == nullptr) return cudaErrorInvalidValue;  // the runtime allocates rem_scratch
  if (args.count == 0) return cudaSuccess;
  const uint32_t n = args.limbs;
  Call c = start_call(args, stream);
  const RemLayout l = rem_layout_of(c.big_n, args.count);
  c.l.prod_scratch = l.prod_scratch;  // product() reads its scratch there
  const BarrettDivision div = barrett_mu_division(2 * c.big_n, args.count);
  if (!c.mul.v || !c.sqr.v || !div.v) return cudaErrorInvalidConfiguration;
  const uint64_t* m = static_cast<const uint64_t*>(args.m);
  if (args.m_shared) {
    uint64_t* copies = at<uint64_t>(c, l.m_copies);
    const uint64_t blocks = std::min<uint64_t>(block::ceil_div(args.count * n, 256), 1u << 16);
    rem_copy_modulus_kernel<<<uint32_t(blocks), 256, 0, stream>>>(copies, m, n, args.count);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    m = copies;
  }
  return product_rem(c, v.op == Op::SqrMod, args, m, at<uint64_t>(c, l.t), at<uint64_t>(c, l.quot),
                     at<uint32_t>(c, l.div_flags), c.scratch + l.div_scratch, div);
}

const ShapeRules kRemShape{barrett_threads, barrett_smem, barrett_max_bits, rem_scratch, rem_launch, false};

}  // namespace

void append_barrett_variants(std::vector<Variant>& out) {
  const void* kernel = reinterpret_cast<const void*>(&barrett_finish_kernel);
  out.push_back(make_variant(Op::MulMod, "block", "barrett", 64, 1, 256, kernel, kBarrettShape));
  out.push_back(make_variant(Op::SqrMod, "block", "barrett", 64, 1, 256, kernel, kBarrettShape));
  for (uint32_t w : {4u, 5u, 6u})
    out.push_back(make_variant(Op::PowM, "block", "barrett", 64, 1, 256, kernel, kBarrettShape,
                               "w" + std::to_string(w), w));
  out.push_back(make_variant(Op::MulMod, "block", "tcbarrett", 64, 1, 256, kernel, kTcBarrettShape));
  out.push_back(make_variant(Op::SqrMod, "block", "tcbarrett", 64, 1, 256, kernel, kTcBarrettShape));
  for (uint32_t w : {5u, 6u, 7u})
    out.push_back(make_variant(Op::PowM, "block", "tcbarrett", 64, 1, 256, kernel, kTcBarrettShape,
                               "w" + std::to_string(w), w));
  const void* copy_kernel = reinterpret_cast<const void*>(&rem_copy_modulus_kernel);
  out.push_back(make_variant(Op::MulMod, "block", "rem", 64, 1, 256, copy_kernel, kRemShape));
  out.push_back(make_variant(Op::SqrMod, "block", "rem", 64, 1, 256, copy_kernel, kRemShape));
}

}  // namespace bigtune::kernels::variants
