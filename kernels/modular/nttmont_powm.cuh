// NTT Montgomery powm on R = 2^N' + 1 (issue 9, session 14): the whole
// exponentiation of one instance in one thread block, every product of half
// the length the Barrett powm (nttbarrett_powm.cuh) transforms.
//
// Montgomery's reduction (HAC 14.32) needs only R > m, gcd(R, m) = 1 and the
// two residues of u = (t + q m) / R; with R = 2^N' + 1 (not a power of two)
// every residue a step needs is a product modulo 2^N' + 1 or 2^N' - 1, i.e. a
// negacyclic or cyclic convolution of M = N'/32 points (32-bit digits), the
// two halves of the 2M-point transform of a full product (the D = 2 split of
// ntt_layout.hpp, one sub-product each: t = 1 negacyclic, t = 0 cyclic). The
// same idea as GMP's mpn_mulmod_bnm1 (products mod B^n - 1 from half-length
// convolutions); here R's oddness is what Montgomery needs. Per step, with a,
// b < m and constants per modulus (nttmont_prep.hpp): mu = -m^-1 mod R:
//   T+ = a b mod R             negacyclic a·b (square: 2 transforms of M)
//   q  = T+ mu mod R           negacyclic, mu's spectrum cached (2 of M)
//   V  = a b + q m mod (2^N' - 1): cyclic, m's spectrum cached, one inverse
//        transform of the sum of both pointwise products (a's spectrum kept
//        from the start of the step: 3 of M for a square, nm_cached_plus)
//   v  = (t + q m) / R mod (2^N' - 1) = V / 2 (R = 2 mod 2^N' - 1): a
//        rotation by one bit
//   u  = v + k (2^N' - 1) with k = v0 - u0 mod 2^64, u0 = u mod 2^64 =
//        a0 b0 + q0 m0 (R = 1 mod 2^64): u < 2m, so k in [-1, 2]
//   r  = u - m if u >= m, else u              (one block borrow scan)
// = 7 transforms of M = 2^(log L - 1) points and 3 carry scans per squaring
// against the Barrett powm's 6 of L = 2M and its 3 product scans plus 2-5
// subtraction scans (bench/notes/nttpowm-bound.md, session 14): ~0.6x the
// butterflies, in blocks of M/8 threads with half the shared memory.
// Values: T+, q in [0, 2^N'] (2^N' = -1 mod R: a flag, handled by a rare
// serial path on thread 0: T+ = -1 gives q = R - mu; q = 2^N' is 1 modulo
// 2^N' - 1 and 0 modulo 2^64); V, v in [0, 2^N') (any representative).
// Negacyclic coefficients are signed: a bias vector with sum D·R = 0 mod R
// (D = M (2^32 - 1)) added to them keeps every one in [0, 2^77) before the
// carry scan. The carry out C of a scan over nw = M/2 words folds back as
// +C (mod 2^N' - 1) or -C (mod 2^N' + 1) on thread 0 (it ripples past word 0
// with probability ~2^-20).
// Moduli must be odd, > 1 and prime to R (nttmont_prep.hpp checks; the
// launch runs the Barrett powm for a batch with any other modulus).
#pragma once
#include <cstdint>

#include "kernels/arith/crt3_field.cuh"
#include "kernels/block/ntt_cached.cuh"
#include "kernels/modular/nttbarrett_powm.cuh"  // NbScan, NbTables, nb_exponent_bits
#include "kernels/modular/nttmont_layout.hpp"
#include "kernels/variants/kernel_args.hpp"
#include "kernels/variants/scan_kernels.cuh"

namespace bigtune::kernels::modular {

#if defined(__CUDACC__)
using NmElem = arith::Crt3::Elem;

// The sub-product's coefficients as exact integers, two per 64-bit word:
// x holds s = conv / 2 (the 2M-point plan's N^-1 = 1 / 2M), doubled here;
// negacyclic ones (bias != 0) get the bias vector (bias0 for coefficient 0).
struct NmParts {
  const NmElem* x;
  NmElem bias0, bias;
  bool neg;
  uint32_t m;  // coefficients (M)
  __device__ void coeff(uint32_t k, uint64_t& lo, uint64_t& hi) const {
    NmElem e = x[block::ntt_phys(k)];
    e = arith::Crt3::add(e, e);
    if (neg) {
      // Chosen word by word: a choice between the two members' addresses
      // put this struct in local memory (STL / LDL per coefficient, ncu
      // session 15 run B).
      NmElem b = bias;
#pragma unroll
      for (int i = 0; i < 3; ++i) b.v[i] = k == 0 ? bias0.v[i] : bias.v[i];
      e = arith::Crt3::add(e, b);
    }
    arith::Crt3::to_integer(e, lo, hi);
  }
  __device__ void operator()(uint64_t j, uint64_t& lo, uint64_t& hi) const {
    lo = hi = 0;
    if (2 * j >= m) return;  // past the top word: only the carry flows there
    uint64_t c_lo, c_hi;
    coeff(uint32_t(2 * j), lo, hi);
    coeff(uint32_t(2 * j + 1), c_lo, c_hi);
    const uint64_t part = c_lo << 32;
    lo += part;
    hi += (c_lo >> 32) + (c_hi << 32) + (lo < part ? 1 : 0);
  }
};

// out = the sub-product's coefficients (x) carried into nw words, plus
// word j of add_of where non-null (read before the scan; never out's row);
// returns the carry out of word nw - 1 (to every thread). Ends with a block
// barrier.
template <int kRegs>
__device__ __noinline__ uint64_t nm_carry(uint64_t* out, const uint64_t* add_of, bool neg, uint32_t nw,
                                          const NmElem* x, uint64_t* carry_words, NbScan& scan) {
  const uint32_t m = 2 * nw;
  // D (2^32 - 1) and D (2^32 + 1), D = M (2^32 - 1): sum over k of bias_k 2^(32k) = D R.
  const NmElem b_m1 = arith::Crt3::from_digit(0xffffffffull);
  const NmElem d = arith::Crt3::mul(arith::Crt3::from_digit(m), b_m1);
  const NmElem bias = arith::Crt3::mul(d, b_m1);
  const NmElem bias0 = arith::Crt3::mul(d, arith::Crt3::add(b_m1, arith::Crt3::from_digit(2)));
  const NmParts parts{x, bias0, bias, neg, m};
  block::ntt_carry_phase_parts(
      nw, nw, parts, carry_words, scan,
      [=](uint64_t j, uint64_t& lo, uint64_t& hi) {
        if (add_of == nullptr || j >= nw) return;
        const uint64_t w = add_of[j];
        lo += w;
        hi += lo < w ? 1 : 0;
      },
      [=](uint64_t j, uint64_t v) { out[j] = v; });
  return carry_words[block::kNttCarryLimbs * blockDim.x];
}

// One radix-8 pass out of line: every transform of the step runs these two
// copies (ntt.cuh, NttBarrierOwnsPasses) instead of one inlined copy each.
// The pass reads only log_m and one stage table.
template <bool kInverse>
__device__ __noinline__ void nm_pass(NmElem* x, uint32_t log_m, const arith::Crt3::Twiddle* stages, uint32_t s_lo) {
  block::NttPlan p{};
  p.log_m = log_m;
  NbTables tw{};
  if (kInverse) tw.stage_inv = stages;
  else tw.stage_fwd = stages;
  block::ntt_pass<arith::Crt3, block::kNttPassLog, kInverse>(x, p, tw, s_lo, threadIdx.x, blockDim.x);
}

// Transforms of up to 2^kNmSharedPassMaxLog points (blocks of up to 128
// threads, four an SM) run nm_pass; longer ones the inlined pass. Measured
// (H200, session 15 run E): out of line 1.022x at 2^15 bits (M = 2^10) and
// 0.958x at 2^16 (M = 2^11, two 256-thread blocks an SM).
constexpr uint32_t kNmSharedPassMaxLog = 10;

// The block's barrier for the NTT phases (ntt.cuh, "Barriers"): a warp
// barrier where they allow one; it owns the radix-8 passes and asks for the
// input phase's prefetch.
struct NmBarrier {
  static constexpr bool kOwnsPasses = true;
  static constexpr bool kPrefetchesInput = true;  // ntt.cuh, NttBarrierPrefetchesInput
  __device__ void operator()(bool warp_local) const {
    if (warp_local) __syncwarp();
    else __syncthreads();
  }
  template <class F, bool kInverse>
  __device__ void pass(NmElem* x, const block::NttPlan& p, const NbTables& tw, uint32_t s_lo, uint32_t tid,
                       uint32_t threads) const {
    if (p.log_m <= kNmSharedPassMaxLog)
      nm_pass<kInverse>(x, p.log_m, kInverse ? tw.stage_inv : tw.stage_fwd, s_lo);
    else
      block::ntt_pass<F, block::kNttPassLog, kInverse>(x, p, tw, s_lo, tid, threads);
  }
};

// Register copies: the plan and the twiddle tables reach these __noinline__
// functions by reference, i.e. in the caller's local memory, and every
// generic store into the shared buffer may alias them, so the inlined
// transform loops reloaded their fields (p.log_m, the table pointers) after
// each store: an LDL ahead of every twiddle address and loop bound (ncu,
// session 15 run B: ~30 % of the long-scoreboard stalls at 32 Kbit). Each
// function copies both once into locals whose address never escapes.
// One sub-product t of a·b (b null: a^2) into x, nw-word operands; b_hat:
// M global elements for b's spectrum.
template <int kRegs>
__device__ __noinline__ void nm_product(const uint64_t* a, const uint64_t* b, uint32_t nw, uint32_t t,
                                        const block::NttPlan& p_ref, const NbTables& tw_ref, NmElem* x, NmElem* b_hat) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nm_product
  const NbTables tw = tw_ref;
  const NmBarrier barrier;
  if (b == nullptr)
    block::ntt_sub_product<arith::Crt3, true>(x, nullptr, nullptr, p, tw, a, nw, a, nw, t, threadIdx.x, blockDim.x,
                                              barrier);
  else
    block::ntt_sub_product<arith::Crt3, false>(x, b_hat, nullptr, p, tw, a, nw, b, nw, t, threadIdx.x, blockDim.x,
                                               barrier);
}
// Sub-product t of a and a cached spectrum into x.
template <int kRegs>
__device__ __noinline__ void nm_cached(const uint64_t* a, const NmElem* hat, uint32_t nw, uint32_t t,
                                       const block::NttPlan& p_ref, const NbTables& tw_ref, NmElem* x) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nm_product
  const NbTables tw = tw_ref;
  block::ntt_cached_coefficients<arith::Crt3>(
      x, hat, p, tw, a, nw, threadIdx.x, blockDim.x,
      NmBarrier{},
      t);
}
// hat = the spectrum of sub-product t of b (nw words), scaled by N^-1 for
// a pointwise product (kScaled) or unscaled (a's in V's sum below).
template <int kRegs, bool kScaled = true>
__device__ __noinline__ void nm_cache(NmElem* hat, const uint64_t* b, uint32_t nw, uint32_t t,
                                      const block::NttPlan& p_ref, const NbTables& tw_ref, NmElem* x) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nm_product
  const NbTables tw = tw_ref;
  block::ntt_cache_operand<arith::Crt3, kScaled>(hat, x, p, tw, b, nw, threadIdx.x, blockDim.x, NmBarrier{}, t);
}

// x = sub-product t of a·y plus s·s2 (s2 null: s·s / 2M): the inverse
// transform of the sum of two pointwise products, y and s2 scaled spectra,
// s unscaled (nm_cache). The cyclic half of a step: t + q m modulo
// 2^N' - 1 with one inverse transform and one carry scan instead of two
// each (ntt_cached_coefficients' pointwise product widened by the second
// term).
template <int kRegs>
__device__ __noinline__ void nm_cached_plus(const uint64_t* a, const NmElem* y, const NmElem* sp, const NmElem* s2,
                                            uint32_t nw, uint32_t t, const block::NttPlan& p_ref,
                                            const NbTables& tw_ref, NmElem* x) {
  const block::NttPlan p = p_ref;  // copies: see "Register copies" above nm_product
  const NbTables tw = tw_ref;
  using F = arith::Crt3;
  const NmElem n_inv = F::inverse_pow2(int(p.log_n));
  const uint32_t stride = p.log_m >= 8 ? block::kNttBhatStride : 1;
  block::ntt_transform_pointwise<F>(x, p, tw, a, nw, threadIdx.x, blockDim.x, NmBarrier{}, t,
                                    [&](uint32_t g, NmElem(&v)[8]) {
                                      const uint32_t base = block::ntt_bhat_base(p, g);
#pragma unroll
                                      for (uint32_t j = 0; j < 8; ++j) {
                                        const uint32_t k = base + j * stride;
                                        const NmElem sv = F::load(sp + k);
                                        const NmElem extra = s2 ? F::mul(sv, F::load(s2 + k))
                                                                : F::mul(F::mul(sv, sv), n_inv);
                                        v[j] = F::add(F::mul(v[j], F::load(y + k)), extra);
                                      }
                                    });
}

// Thread 0's folds of a scan's carry out C (rarely past word 0).
// w + c modulo 2^N' - 1 (2^N' = 1): any representative below 2^N'.
__device__ inline void nm_fold_add(uint64_t* w, uint32_t nw, uint64_t c) {
  while (c != 0) {  // at most twice: after a wrap the sum is below 2^45
    for (uint32_t j = 0; j < nw && c != 0; ++j) {
      const uint64_t s = w[j] + c;
      c = s < c ? 1 : 0;
      w[j] = s;
    }
  }
}
// w - c modulo R = 2^N' + 1, canonical in [0, 2^N']: returns 1 for 2^N'
// (w all zero then).
__device__ inline uint32_t nm_fold_sub(uint64_t* w, uint32_t nw, uint64_t c) {
  for (uint32_t j = 0; j < nw && c != 0; ++j) {
    const uint64_t d = w[j] - c;
    c = w[j] < c ? 1 : 0;
    w[j] = d;
  }
  if (c == 0) return 0;
  // Negative: the words hold X + 2^N', and X + R is one more.
  uint32_t k = 1;
  for (uint32_t j = 0; j < nw && k != 0; ++j) k = ++w[j] == 0 ? 1 : 0;
  return k;
}

// d = v - m over nw = Q·threads words (one block borrow scan); returns the
// borrow out to every thread. Ends with a block barrier.
template <uint32_t Q>
__device__ uint32_t nm_sub_m(uint64_t* d, const uint64_t* v, const uint64_t* m, NbScan& scan, uint32_t* flag) {
  const uint32_t tid = threadIdx.x;
  uint64_t av[Q], bv[Q];
#pragma unroll
  for (uint32_t k = 0; k < Q; ++k) av[k] = v[tid * Q + k], bv[k] = m[tid * Q + k];
  const uint64_t borrow = block::BlockAddSub<uint64_t, Q, true>(scan).run(
      av, [&](int k) { return bv[k]; }, tid == 0, [&](int k, uint64_t r) { d[tid * Q + uint32_t(k)] = r; });
  if (tid == blockDim.x - 1) *flag = uint32_t(borrow);
  __syncthreads();
  return *flag;
}

template <int kRegs>
__device__ __forceinline__ void nttmont_powm_body(const KernelArgs& args, const NttMontParams& prm) {
  using Field = arith::Crt3;
  __shared__ NbScan scan_storage;
  __shared__ uint32_t s_flag, s_tp, s_q;
  __shared__ int64_t s_top;
  const uint32_t n = args.limbs, tid = threadIdx.x;
  const block::NttPlan p = nttmont_plan(n);
  const uint32_t nw = p.m() / 2;
  unsigned char* smem = variants::dynamic_smem<unsigned char>();
  NmElem* x = reinterpret_cast<NmElem*>(smem);
  uint64_t* carry_words = reinterpret_cast<uint64_t*>(smem + block::ntt_carry_offset(p, sizeof(NmElem)));
  uint64_t* rows = reinterpret_cast<uint64_t*>(smem + block::ntt_smem_bytes(p, sizeof(NmElem)));
  const auto tw = block::NttTables<Field>::over(prm.twiddles, p.log_n);
  NmElem* mu_hat = reinterpret_cast<NmElem*>(prm.slots + blockIdx.x * prm.slot_bytes);
  NmElem* m_hat = mu_hat + p.m();
  NmElem* b_hat = m_hat + p.m();
  NmElem* a_hat = b_hat + p.m();
  uint64_t* table = reinterpret_cast<uint64_t*>(a_hat + p.m());

  for (uint64_t i = blockIdx.x; i < args.count; i += gridDim.x) {
    const uint64_t* cst = prm.consts + (prm.m_shared ? 0 : i) * kNttMontConstRows * nw;
    const uint64_t *mw = cst, *mu = cst + nw, *r_mod_m = cst + 2 * nw, *r2_mod_m = cst + 3 * nw;
    // The four shared rows: cur (the step's operand) and three free ones.
    uint64_t* cur = rows;
    uint64_t* f[3] = {rows + nw, rows + 2 * nw, rows + 3 * nw};

    // cur = a·b·R^-1 mod m for a = cur, b (null: a^2; `one`: b = 1, the
    // conversion out). Rows: T+ and then V = t + q m mod 2^N' - 1 in f[0],
    // v = V / 2 in f[1], q and then v - m in f[2]; afterwards cur is v or
    // v - m and the old cur, f[0] and the other are free.
    const auto mont = [&](const uint64_t* b, bool one) {
      uint64_t *const tp = one ? cur : f[0], *const vv = f[0], *const v = f[1], *const qr = f[2];
      const uint64_t a0b0 = one ? cur[0] : cur[0] * (b == nullptr ? cur[0] : b[0]);
      uint64_t c;
      if (one) {  // t = a < m < R: T+ = a
        if (tid == 0) s_tp = 0;
      } else {
        // T+ = a b mod R (negacyclic); the cyclic half's spectra for V.
        nm_product<kRegs>(cur, b, nw, 1, p, tw, x, b_hat);
        c = nm_carry<kRegs>(tp, nullptr, true, nw, x, carry_words, scan_storage);
        if (tid == 0) s_tp = nm_fold_sub(tp, nw, c);
        nm_cache<kRegs, false>(a_hat, cur, nw, 0, p, tw, x);
        if (b != nullptr) nm_cache<kRegs>(b_hat, b, nw, 0, p, tw, x);
      }
      __syncthreads();
      // q = T+ mu mod R.
      if (s_tp == 0) {
        nm_cached<kRegs>(tp, mu_hat, nw, 1, p, tw, x);
        c = nm_carry<kRegs>(qr, nullptr, true, nw, x, carry_words, scan_storage);
        if (tid == 0) s_q = nm_fold_sub(qr, nw, c);
      } else if (tid == 0) {  // T+ = -1: q = R - mu = ~mu + 2 (mu >= 2 for odd m > 1)
        uint64_t k = 2;
        for (uint32_t j = 0; j < nw; ++j) {
          const uint64_t s = ~mu[j] + k;
          k = s < k ? 1 : 0;
          qr[j] = s;
        }
        s_q = 0;
      }
      __syncthreads();
      // q = 2^N' (s_q): 1 modulo 2^N' - 1, the only residue V uses (the
      // k-fix takes q0 = 0).
      if (s_q != 0)
        for (uint32_t j = tid; j < nw; j += blockDim.x) qr[j] = j == 0 ? 1 : 0;
      // V = t + q m mod 2^N' - 1: one inverse transform of both products
      // (the one: t = a, added in the carry scan).
      if (one) {
        nm_cached<kRegs>(qr, m_hat, nw, 0, p, tw, x);
        c = nm_carry<kRegs>(vv, cur, false, nw, x, carry_words, scan_storage);
      } else {
        nm_cached_plus<kRegs>(qr, m_hat, a_hat, b != nullptr ? b_hat : nullptr, nw, 0, p, tw, x);
        c = nm_carry<kRegs>(vv, nullptr, false, nw, x, carry_words, scan_storage);
      }
      if (tid == 0) nm_fold_add(vv, nw, c);
      __syncthreads();
      // v = V / R = V / 2 mod 2^N' - 1: a rotation right by one bit.
      for (uint32_t j = tid; j < nw; j += blockDim.x) v[j] = (vv[j] >> 1) | (vv[j + 1 == nw ? 0 : j + 1] << 63);
      __syncthreads();
      // u = v + k (2^N' - 1) = (v - k) + k 2^N', k = v0 - u0 (mod 2^64).
      if (tid == 0) {
        const uint64_t q0 = s_q ? 0 : qr[0];
        const int64_t k = int64_t(v[0] - (a0b0 + q0 * mw[0]));
        int64_t top = k;
        if (k > 0) {
          uint64_t br = uint64_t(k);
          for (uint32_t j = 0; j < nw && br != 0; ++j) {
            const uint64_t d = v[j] - br;
            br = v[j] < br ? 1 : 0;
            v[j] = d;
          }
          top -= int64_t(br);
        } else if (k < 0) {
          uint64_t cr = uint64_t(-k);
          for (uint32_t j = 0; j < nw && cr != 0; ++j) {
            const uint64_t s = v[j] + cr;
            cr = s < cr ? 1 : 0;
            v[j] = s;
          }
          top += int64_t(cr);
        }
        s_top = top;
      }
      __syncthreads();
      // r = u - m where u >= m (into q's row), else u.
      const uint32_t borrow = nw == 4 * blockDim.x ? nm_sub_m<4>(qr, v, mw, scan_storage, &s_flag)
                                                   : nm_sub_m<2>(qr, v, mw, scan_storage, &s_flag);
      uint64_t* const r = s_top - int64_t(borrow) >= 0 ? qr : v;
      uint64_t* const other = r == qr ? v : qr;
      f[0] = cur, f[1] = vv, f[2] = other;
      cur = r;
    };
    const auto copy_rows = [&](uint64_t* dst, const uint64_t* src, uint32_t words) {
      for (uint32_t j = tid; j < nw; j += blockDim.x) dst[j] = j < words ? src[j] : 0;
      __syncthreads();
    };

    // The modulus' two spectra, once per instance.
    nm_cache<kRegs>(mu_hat, mu, nw, 1, p, tw, x);
    nm_cache<kRegs>(m_hat, mw, nw, 0, p, tw, x);

    // Montgomery forms (~ : times R mod m): x~ = x (R^2 mod m) / R (any x <
    // 2^N: below 2m, reduced once). Fixed windows: table[k] = x~^k, k < 2^w
    // (table[0] = R mod m, the one). Sliding windows (HAC 14.85): table[k] =
    // x~^(2k+1), k < 2^(w-1), x~^2 in entry 2^(w-1).
    const uint32_t w = prm.w;
    const bool sliding = prm.sliding != 0;
    copy_rows(cur, static_cast<const uint64_t*>(args.a) + i * n, n);
    mont(r2_mod_m, false);
    uint64_t* const x1 = sliding ? table : table + nw;
    copy_rows(x1, cur, nw);
    if (sliding) {
      uint64_t* const x2 = table + (uint64_t(1) << (w - 1)) * nw;
      mont(nullptr, false);
      copy_rows(x2, cur, nw);
      copy_rows(cur, x1, nw);
      for (uint32_t k = 1; k < (1u << (w - 1)); ++k) {
        mont(x2, false);
        copy_rows(table + uint64_t(k) * nw, cur, nw);
      }
    } else {
      copy_rows(table, r_mod_m, nw);
      for (uint32_t k = 2; k < (1u << w); ++k) {
        mont(x1, false);
        copy_rows(table + uint64_t(k) * nw, cur, nw);
      }
    }

    // The exponent from its highest one (every thread computes the same:
    // the loop is block-uniform). One call site for every product of the
    // loop (inlined copies of the step cost registers): the squarings still
    // owed, then the window's table entry (entry >= 0), then the next window.
    const uint64_t* ei = static_cast<const uint64_t*>(args.e) + (args.e_shared ? 0 : i) * args.e_limbs;
    const uint64_t e_bits = nb_exponent_bits(ei, args.e_limbs);
    // len bits of e from bit lo (len <= 32; past the exponent: 0).
    const auto bits_at = [&](uint64_t lo, uint32_t len) -> uint32_t {
      const uint64_t word = lo / 64, off = lo % 64;
      uint64_t d = word < args.e_limbs ? ei[word] >> off : 0;
      if (off + len > 64 && word + 1 < args.e_limbs) d |= ei[word + 1] << (64 - off);
      return uint32_t(d & ((uint64_t(1) << len) - 1));
    };
    // The next window below bit `top` (exclusive): its low bit and the
    // table entry (-1: none, squarings only).
    const auto next_window = [&](uint64_t top, uint64_t& low, int32_t& entry) {
      if (!sliding) {
        low = top - w;  // fixed windows: top is a multiple of w
        const uint32_t d = bits_at(low, w);
        entry = d ? int32_t(d) : -1;
      } else if (bits_at(top - 1, 1) == 0) {
        low = top - 1, entry = -1;
      } else {
        low = top > w ? top - w : 0;
        while (bits_at(low, 1) == 0) ++low;  // the window ends in a one
        entry = int32_t(bits_at(low, uint32_t(top - low)) >> 1);
      }
    };
    uint64_t top = sliding ? e_bits : (e_bits + w - 1) / w * w, low = 0;
    int32_t entry = -1;
    if (top == 0) {
      copy_rows(cur, r_mod_m, nw);  // e = 0: the one
    } else {
      next_window(top, low, entry);  // the first window: its entry, no squarings
      copy_rows(cur, sliding || entry >= 0 ? table + uint64_t(entry < 0 ? 0 : entry) * nw : r_mod_m, nw);
      top = low;
    }
    uint64_t owed = 0;
    entry = -1;
    for (;;) {
      const uint64_t* b = nullptr;
      if (owed == 0 && entry >= 0) {
        b = table + uint64_t(entry) * nw;
        entry = -1;
      } else if (owed == 0) {
        if (top == 0) break;
        next_window(top, low, entry);
        owed = top - low;
        top = low;
        continue;
      } else {
        --owed;
      }
      mont(b, false);
    }
    mont(nullptr, true);  // out of Montgomery form: cur / R mod m
    uint64_t* ri = static_cast<uint64_t*>(args.r) + i * n;
    for (uint32_t j = tid; j < n; j += blockDim.x) ri[j] = cur[j];
    __syncthreads();  // the rows are the next instance's
  }
}

// kMinBlocks blocks of up to kMaxThreads threads per SM: the register
// budget. (256, 2): 128 registers, the registered build (2 blocks per SM at
// 2^16 bits, 4 at 2^15). Measured and dropped (session 14, runs B, C, E):
// (256, 3), 80 registers, 0.78x at 2^15 and 0.87x at 2^16; (128, 5), 96
// registers for M <= 2^10, 0.90x at 2^15: both spill 0.6-0.8 KB in the
// kernel body around the products' calls.
template <int kMaxThreads, int kMinBlocks>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks) nttmont_powm_kernel(KernelArgs args, NttMontParams prm) {
  nttmont_powm_body<kMaxThreads * 16 + kMinBlocks>(args, prm);
}
#endif  // __CUDACC__

}  // namespace bigtune::kernels::modular
