// Warp-level modular kernels (issue 9): mulmod, sqrmod and powm on L lanes
// per instance, Q 32-bit limbs per lane (kernels/warp/montgomery.cuh). Index
// math, blocked loads, the Montgomery core, store.
//
// Conventions of this family (set by its launch, warp_mod_instances_*.cu):
// - R = 2^(32S), S = the operand or modulus limbs rounded up to a multiple of
//   Q (blocks of Q limbs), so a 3072-bit batch on a 4096-bit variant does
//   3/4 of the steps.
// - args.scratch: kWarpModHeaderWords header words, then (shared modulus)
//   m, R mod m and R^2 mod m, N = L Q limbs each, written by
//   warp_mod_prepare_kernel. Header word 0 is zeroed by the launch and set by
//   any instance whose modulus is even (or zero): those instances are left to
//   the thread family's CRT path (kernels/modular/modexp.cuh), which the
//   launch runs after this kernel, gated on that word. Word 1: -m^-1 mod 2^32,
//   word 2: the shared modulus' kind (kOdd, kOne, kEven).
// - powm: args.shift carries the window w (fixed window; 2^w table entries).
//   The table lives in shared memory, not registers: 2^w entries of Q limbs
//   per lane outgrow the registers for w >= 3 at Q >= 8, and an entry is
//   picked by a run-time digit, which registers cannot be indexed by (the
//   compiler would put the array in local memory). Each lane reads and writes
//   only its own limbs of the table, so no barrier is needed.
//   Layout per instance: word (entry Q + k) L + lane, and instances are
//   warp_mod_table_stride words apart (E N + L, kernels/warp/warp_mod_layout.hpp): the L-word skew puts the
//   segments of one warp on different banks (conflict-free for Q L >= 32).
// - Every loop trip count is the same for the whole warp (segments hold
//   different instances but share full-mask shuffles): the exponent length
//   is the warp's longest, the Montgomery setup starts from the warp's
//   smallest modulus length, and absent instances, even moduli and m = 1 run
//   on a stand-in odd modulus (all ones) whose results are dropped.
#pragma once
#include <cstdint>
#include <type_traits>

#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/warp_kernels.cuh"  // WarpIndex
#include "kernels/warp/blocked_io.cuh"
#include "kernels/warp/montgomery.cuh"
#include "kernels/warp/montgomery_block.cuh"
#include "kernels/warp/montgomery_sqr.cuh"
#include "kernels/warp/warp_mod_layout.hpp"

namespace bigtune::kernels::variants {

// __launch_bounds__ of the family: 256 threads leave up to 255 registers per
// thread for Q = 16 (a, m, the window and a table entry: 4 x 16 limbs).
constexpr uint32_t kWarpModMaxThreads = 256;
using warp::kWarpModHeaderWords;
using warp::warp_mod_table_stride;
enum WarpModKind : uint32_t { kOdd = 0, kOne = 1, kEven = 2 };

namespace warp_mod_detail {

template <int L, int Q>
struct Modulus {
  uint32_t m[Q], one[Q], r2[Q];
  uint32_t minv;
  uint32_t kind;  // WarpModKind of this segment's modulus (absent instances: kEven)
  bool use;       // active and odd m > 1: the Montgomery result is the answer
};

// Blocks of Q limbs that hold the operands and the modulus.
__device__ __forceinline__ uint32_t blocks_for(const KernelArgs& args, int q) {
  const uint32_t limbs = args.m_limbs > args.limbs ? args.m_limbs : args.limbs;
  return (limbs + uint32_t(q) - 1) / uint32_t(q);
}

// The kind of the segment's modulus x (on every lane).
template <int L, int Q>
__device__ __forceinline__ uint32_t kind_of(const uint32_t (&x)[Q]) {
  const uint32_t lane = threadIdx.x & uint32_t(L - 1);
  const uint32_t low = __shfl_sync(0xffffffffu, x[0], 0, L);
  bool rest_zero = true;
#pragma unroll
  for (int k = 0; k < Q; ++k)
    if (!(lane == 0 && k == 0) && x[k] != 0) rest_zero = false;
  const uint32_t base = (threadIdx.x & 31u) & ~uint32_t(L - 1);
  const uint32_t seg_mask = uint32_t((uint64_t(1) << L) - 1) << base;
  const bool all_rest_zero = (__ballot_sync(0xffffffffu, rest_zero) & seg_mask) == seg_mask;
  if ((low & 1u) == 0) return kEven;
  return all_rest_zero && low == 1u ? kOne : kOdd;
}

// Smallest value of v over the warp (all 32 lanes).
__device__ __forceinline__ uint32_t warp_min(uint32_t v) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const uint32_t o = __shfl_xor_sync(0xffffffffu, v, d, 32);
    v = o < v ? o : v;
  }
  return v;
}
__device__ __forceinline__ uint32_t warp_max(uint32_t v) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const uint32_t o = __shfl_xor_sync(0xffffffffu, v, d, 32);
    v = o > v ? o : v;
  }
  return v;
}

// Loads (or computes, per instance) the modulus constants. `present`: the
// segment holds a real modulus (an active instance, or the prep kernel's
// segment 0). Per-instance even moduli raise the fallback word.
template <int L, int Q>
__device__ __forceinline__ void prepare(Modulus<L, Q>& p, const KernelArgs& args, bool shared_from_scratch,
                                        bool present, uint64_t instance, uint32_t blocks) {
  const uint32_t lane = threadIdx.x & uint32_t(L - 1), first = lane * Q;
  constexpr uint32_t N = uint32_t(L * Q);
  if (shared_from_scratch) {
    const uint32_t* s = static_cast<const uint32_t*>(args.scratch);
    p.minv = s[1];
    p.kind = s[2];
    warp::load_blocked<Q>(p.m, s + kWarpModHeaderWords, first, N, true);
    warp::load_blocked<Q>(p.one, s + kWarpModHeaderWords + N, first, N, true);
    warp::load_blocked<Q>(p.r2, s + kWarpModHeaderWords + 2 * N, first, N, true);
    p.use = present && p.kind == kOdd;
    return;
  }
  const uint32_t* src = static_cast<const uint32_t*>(args.m) + (args.m_shared ? 0 : instance * args.m_limbs);
  warp::load_blocked<Q>(p.m, src, first, args.m_limbs, present);
  const uint32_t kind = kind_of<L, Q>(p.m);  // shuffles: every segment calls it, absent ones too
  p.kind = present ? kind : uint32_t(kEven);
  p.use = present && p.kind == kOdd;
  if (present && p.kind == kEven && lane == 0) atomicOr(static_cast<uint32_t*>(args.scratch), 1u);
  if (!p.use) {  // the stand-in: all ones over the S limbs (odd, > 1)
#pragma unroll
    for (int k = 0; k < Q; ++k) p.m[k] = first + k < blocks * Q ? ~0u : 0u;
  }
  const warp::WarpMontgomery<L, Q> mont;
  p.minv = warp::neg_inv32(__shfl_sync(0xffffffffu, p.m[0], 0, L));
  const uint32_t start = warp_min(mont.bit_length(p.m) - 1);
  mont.setup(p.one, p.r2, p.m, p.minv, blocks, start);
}

// Mont::kHasSqr: the product class has a squaring, sqr(r, a, m, minv,
// blocks) (warp::WarpMontgomerySqr, task powmsqr); the others square with mul.
template <class M, class = void>
struct has_sqr : std::false_type {};
template <class M>
struct has_sqr<M, std::void_t<decltype(M::kHasSqr)>> : std::true_type {};

template <int Q, class Mont>
__device__ __forceinline__ void square(const Mont& mont, uint32_t (&r)[Q], const uint32_t (&a)[Q],
                                       const uint32_t (&m)[Q], uint32_t minv, uint32_t blocks) {
  if constexpr (has_sqr<Mont>::value)
    mont.sqr(r, a, m, minv, blocks);
  else
    mont.mul(r, a, a, m, minv, blocks);
}

template <int Q>
__device__ __forceinline__ void copy(uint32_t (&r)[Q], const uint32_t (&a)[Q]) {
#pragma unroll
  for (int k = 0; k < Q; ++k) r[k] = a[k];
}

// Stores the segment's result (zeros for m = 1); nothing for even moduli
// (the fallback writes those) or absent instances.
template <int L, int Q>
__device__ __forceinline__ void store_result(const KernelArgs& args, const WarpIndex<L>& t, const Modulus<L, Q>& p,
                                             uint32_t (&r)[Q]) {
  const bool write = t.active && p.kind != kEven;
  if (p.kind == kOne) {
#pragma unroll
    for (int k = 0; k < Q; ++k) r[k] = 0;
  }
  uint32_t* dst = static_cast<uint32_t*>(args.r) + (t.active ? t.instance * args.out_limbs : 0);
  warp::store_blocked<Q>(dst, r, t.lane * Q, args.out_limbs, write);
  for (uint32_t j = uint32_t(L * Q) + t.lane; j < args.out_limbs; j += L)
    if (write) dst[j] = 0;
}

}  // namespace warp_mod_detail

// The shared modulus' constants, once per launch, into args.scratch: one
// warp; segment 0 holds the modulus, the others a stand-in.
template <int L, int Q>
__device__ __forceinline__ void warp_mod_prepare_body(const KernelArgs& args) {
  const uint32_t lane = threadIdx.x & uint32_t(L - 1);
  const bool seg0 = threadIdx.x < uint32_t(L);
  const uint32_t blocks = warp_mod_detail::blocks_for(args, Q);
  warp_mod_detail::Modulus<L, Q> p;
  warp_mod_detail::prepare<L, Q>(p, args, false, seg0, 0, blocks);
  if (!seg0) return;
  constexpr uint32_t N = uint32_t(L * Q);
  uint32_t* s = static_cast<uint32_t*>(args.scratch);
  warp::store_blocked<Q>(s + kWarpModHeaderWords, p.m, lane * Q, N, true);
  warp::store_blocked<Q>(s + kWarpModHeaderWords + N, p.one, lane * Q, N, true);
  warp::store_blocked<Q>(s + kWarpModHeaderWords + 2 * N, p.r2, lane * Q, N, true);
  if (lane == 0) {
    s[1] = p.minv;
    s[2] = p.kind;
    if (p.kind == kEven) s[0] = 1;
  }
}

// mulmod (args.b set) and sqrmod (args.b null): r = a b mod m, two
// Montgomery products (the second by R^2 mod m converts back and reduces).
// Mont: the product, warp::WarpMontgomery (digit-serial CIOS) or
// warp::WarpMontgomeryBlock (Q x Q column blocks); the modulus setup is the
// base class's in both.
template <int L, int Q, class Mont = warp::WarpMontgomery<L, Q>>
__device__ __forceinline__ void mulmod_warp_body(const KernelArgs& args) {
  const WarpIndex<L> t(args);
  const uint32_t first = t.lane * Q, blocks = warp_mod_detail::blocks_for(args, Q);
  uint32_t a[Q], b[Q], r[Q];
  warp::load_blocked<Q>(a, static_cast<const uint32_t*>(args.a) + (t.active ? t.instance * args.limbs : 0), first,
                        args.limbs, t.active);
  if (args.b)
    warp::load_blocked<Q>(b, static_cast<const uint32_t*>(args.b) + (t.active ? t.instance * args.b_limbs : 0),
                          first, args.b_limbs, t.active);
  else
    warp_mod_detail::copy<Q>(b, a);
  warp_mod_detail::Modulus<L, Q> p;
  warp_mod_detail::prepare<L, Q>(p, args, args.m_shared != 0, t.active, t.instance, blocks);
  const Mont mont;
  if (args.b)
    mont.mul(r, a, b, p.m, p.minv, blocks);
  else
    warp_mod_detail::square<Q>(mont, r, a, p.m, p.minv, blocks);
  mont.mul(r, r, p.r2, p.m, p.minv, blocks);
  warp_mod_detail::store_result<L, Q>(args, t, p, r);
}

// powm: r = x^e mod m, fixed window w = args.shift (see the file comment).
// `table`: this block's dynamic shared memory.
// kGlobalTable: the table lives in global memory (args.scratch past the
// header, warp_mod_global_table_words per instance, written and read by the
// instance's own lanes only) instead of shared memory, so that it no longer
// caps the instances resident per SM (the registers do); each window's entry
// is loaded before its squarings, which hide the load (task modfast).
template <int L, int Q, class Mont = warp::WarpMontgomery<L, Q>, bool kGlobalTable = false>
__device__ __forceinline__ void powm_warp_body(const KernelArgs& args, uint32_t* table) {
  const WarpIndex<L> t(args);
  const uint32_t first = t.lane * Q, blocks = warp_mod_detail::blocks_for(args, Q);
  const uint32_t window = uint32_t(args.shift & 0xff), entries = 1u << window;
  uint32_t acc[Q], b[Q];
  warp::load_blocked<Q>(b, static_cast<const uint32_t*>(args.a) + (t.active ? t.instance * args.limbs : 0), first,
                        args.limbs, t.active);
  warp_mod_detail::Modulus<L, Q> p;
  warp_mod_detail::prepare<L, Q>(p, args, args.m_shared != 0, t.active, t.instance, blocks);
  const Mont mont;

  // Table: entry k = x^k R mod m (entry 0 = R mod m); word (k Q + limb) L +
  // lane of the instance's table. `own`: this segment has a table (in global
  // memory only active instances have one; their results alone are stored).
  uint32_t* tab;
  bool own = true;
  if constexpr (kGlobalTable) {
    own = t.active;
    tab = static_cast<uint32_t*>(args.scratch) + warp::warp_mod_global_table_offset(L, Q) +
          (own ? t.instance : 0) * warp::warp_mod_global_table_words(L, Q, window) + t.lane;
  } else {
    tab = table + uint64_t(threadIdx.x / L) * warp_mod_table_stride(L, Q, window) + t.lane;
  }
  mont.mul(b, b, p.r2, p.m, p.minv, blocks);  // x R mod m, reduced even for x >= m
  if (own) {
#pragma unroll
    for (int k = 0; k < Q; ++k) tab[k * L] = p.one[k], tab[(Q + k) * L] = b[k];
  }
  warp_mod_detail::copy<Q>(acc, b);
  for (uint32_t e = 2; e < entries; ++e) {
    mont.mul(acc, acc, b, p.m, p.minv, blocks);
    if (own) {
#pragma unroll
      for (int k = 0; k < Q; ++k) tab[(e * Q + k) * L] = acc[k];
    }
  }

  // The exponent: this instance's length, the warp's longest.
  const uint32_t* e = static_cast<const uint32_t*>(args.e) + (args.e_shared || !t.active ? 0 : t.instance * args.e_limbs);
  uint32_t ebits = 0;
  if (t.active)
    for (int j = int(args.e_limbs) - 1; j >= 0; --j)
      if (e[j]) {
        ebits = 32u * uint32_t(j) + 32u - uint32_t(__clz(e[j]));
        break;
      }
  const uint32_t windows = (warp_mod_detail::warp_max(ebits) + window - 1) / window;
  const auto digit = [&](uint32_t w) -> uint32_t {
    if (!t.active) return 0;
    const uint32_t bit = w * window, word = bit / 32;
    const uint32_t lo = word < args.e_limbs ? e[word] : 0u;
    const uint32_t hi = word + 1 < args.e_limbs ? e[word + 1] : 0u;
    return uint32_t(((uint64_t(hi) << 32 | lo) >> (bit % 32)) & (entries - 1));
  };
  const auto load_entry = [&](uint32_t (&x)[Q], uint32_t d) {
#pragma unroll
    for (int k = 0; k < Q; ++k) x[k] = own ? tab[(d * Q + k) * L] : 0u;
  };
  if (windows == 0) {
    warp_mod_detail::copy<Q>(acc, p.one);
  } else {
    load_entry(acc, digit(windows - 1));
    for (uint32_t w = windows - 1; w-- > 0;) {
      // Global table: the entry is loaded first, its latency under the
      // squarings (the exponent digit is known in advance).
      if constexpr (kGlobalTable) load_entry(b, digit(w));
      for (uint32_t k = 0; k < window; ++k) warp_mod_detail::square<Q>(mont, acc, acc, p.m, p.minv, blocks);
      // Also for digit 0 (entry 0 = R mod m): the same instruction stream for
      // every exponent, as in the thread family (modexp.cuh).
      if constexpr (!kGlobalTable) load_entry(b, digit(w));
      mont.mul(acc, acc, b, p.m, p.minv, blocks);
    }
  }
#pragma unroll
  for (int k = 0; k < Q; ++k) b[k] = (t.lane == 0 && k == 0) ? 1u : 0u;
  mont.mul(acc, acc, b, p.m, p.minv, blocks);  // out of Montgomery form: < m
  warp_mod_detail::store_result<L, Q>(args, t, p, acc);
}

#if !defined(BIGTUNE_WARP_EMULATION)
template <int L, int Q>
__global__ void __launch_bounds__(32) warp_mod_prepare_kernel(KernelArgs args) {
  warp_mod_prepare_body<L, Q>(args);
}

template <int L, int Q, class Mont = warp::WarpMontgomery<L, Q>>
__global__ void __launch_bounds__(kWarpModMaxThreads) mulmod_warp_kernel(KernelArgs args) {
  mulmod_warp_body<L, Q, Mont>(args);
}

template <int L, int Q, class Mont = warp::WarpMontgomery<L, Q>>
__global__ void __launch_bounds__(kWarpModMaxThreads) powm_warp_kernel(KernelArgs args) {
  extern __shared__ uint32_t warp_mod_table[];
  powm_warp_body<L, Q, Mont>(args, warp_mod_table);
}

// powm with the table in global memory (no shared memory).
template <int L, int Q, class Mont = warp::WarpMontgomery<L, Q>>
__global__ void __launch_bounds__(kWarpModMaxThreads) powm_warp_global_kernel(KernelArgs args) {
  powm_warp_body<L, Q, Mont, true>(args, nullptr);
}
#endif

}  // namespace bigtune::kernels::variants
