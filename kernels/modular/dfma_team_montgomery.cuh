// Montgomery arithmetic on 52-bit limbs held in doubles, the limb products on
// the FP64 pipe (DFMA pairs, barrett_dfma.cuh), shared by a *team* of T
// consecutive lanes of a warp, and the fixed-window powm on it: the DFMA
// powm of dfma_montgomery.cuh for operands one thread cannot hold (4 and 8
// Kbit: k = 80 / 160 limbs, whose window of column sums alone would take 160
// / 320 registers). Issue 9; bench/notes/dfma-powm-bound.md, "What is left",
// candidate 1.
//
// Layout: rank j of the team (lane j within it) holds limbs [jS, jS + S) of
// the register operand b and of m, and a window of S + 1 column sums; the
// other operand a (k = T S limbs) is in shared memory, read by the whole
// team (one broadcast load a step).
//
// The product (HAC 14.36, CIOS as in dfma_montgomery.cuh, base b = 2^52,
// R = b^k), step i for a's limb a_i, on every rank j at once:
//   1. acc_j += a_i B_j (B_j: rank j's limbs of b) — the window of rank j
//      holds columns [i + jS, i + jS + S];
//   2. rank 0's lowest column is now complete: q_i = t_0 m' mod b there,
//      broadcast to the team (one shuffle);
//   3. acc_j += q_i M_j;
//   4. the window slides one column: rank 0's lowest column (0 mod b)
//      leaves, its carry enters the next; every other rank's lowest column
//      is only a partial sum and moves down to rank j - 1, whose window now
//      reaches that column at its second-highest slot (one shuffle).
// A column thus meets every rank that owns one of its products on its way
// down to rank 0, S steps before rank 0 needs it for its quotient digit: the
// shuffle is off the critical path. After k steps rank j's window holds
// result limbs [jS, jS + S) as unnormalised column sums (below 4k 2^52 <
// 2^64 for k < 1024); the carries cross the ranks in T - 1 rounds (a carry
// of rank j reaches rank j + r in round r; round 1 moves each rank's whole
// carry, later ones a 0 or 1 through all-ones slices). 2 k^2 + k limb
// products a product, (2S + 1) a rank and step. The column sums take the
// halves' raw bit patterns; their exponent fields come off only where a
// carry leaves rank 0 and in normalise (RawColumns, session 12). Where it
// fits (all shapes but 3 Kbit on 4 lanes) the products run modulo the
// Montgomery-friendly multiple m~ = m (-m^-1 mod b) of m, so q_i = t_0 mod b
// needs no product (friendly_modulus; session 12: 1.03-1.10x).
//
// mont_sqr (session 12) squares by half the pairs, tiles of S x S limbs
// balanced over the ranks into column sums in shared memory, then reduces
// them with the same window: k (k + 1) / 2 + k^2 + k limb products. The
// whole powm runs 1.02-1.05x mont_mul's at 16 Kbit, 0.998-1.009x at 8 Kbit
// and 0.98x at 4 Kbit (H100, bench/results/2026-11-27-h100-session12.md),
// not the ~1.3x its limb products promise: the per-step work it removes is
// not what bounds a step.
//
// Lazy reduction as in dfma_montgomery.cuh: values stay below 2m (4m < R;
// 2 m~ with the friendly multiple), reduced mod m once at the end.
//
// Conversions (x R mod m by one Knuth division, out of Montgomery form, the
// final v mod m by a short one and the 52-to-64-bit repacking) run on rank
// 0 alone, serially through shared memory, with no k-limb register arrays (which
// would raise the whole kernel's register count). The division is the big
// one: (52k / 32) x 2 NW multiply-subtracts, 2.7e5 at 16 Kbit; with its
// region in local memory (missing L1) it took ~5 % of a 16 Kbit powm with a
// full exponent (session 13), hence a shared region where it fits.
//
// Device code that also runs on the host in the warp emulation of the CPU
// tests (tests/unit/dfma_team_emulation_test.cpp): it uses only the
// intrinsics tests/support/warp_emulation.hpp provides.
#pragma once
#include <cstdint>

#include "kernels/modular/barrett_dfma.cuh"     // dfma_split, to_double, the limb constants
#include "kernels/modular/dfma_montgomery.cuh"  // neg_inverse52, region_limbs, digit_at
#include "kernels/thread/divmod_knuth.cuh"

namespace bigtune::kernels::modular {

namespace dteam {
using dfma::kHiBits;
using dfma::kLoBits;
using dfma::kMask52;

// T consecutive lanes of one warp; shuffles and barriers stay inside the team
// (its own mask), so a team whose instance is past the batch may leave early.
template <int T>
struct Team {
  static_assert(T == 2 || T == 4 || T == 8 || T == 16 || T == 32, "a team is a power-of-two slice of a warp");
  uint32_t mask;
  int rank;

  __device__ __forceinline__ Team() {
    const uint32_t lane = threadIdx.x & 31u;
    rank = int(lane & uint32_t(T - 1));
    mask = T == 32 ? 0xffffffffu : ((1u << T) - 1u) << (lane & ~uint32_t(T - 1));
  }
  __device__ __forceinline__ uint64_t from_rank(uint64_t v, int src) const {
    const uint32_t lo = __shfl_sync(mask, uint32_t(v), src, T);
    const uint32_t hi = __shfl_sync(mask, uint32_t(v >> 32), src, T);
    return uint64_t(hi) << 32 | lo;
  }
  // Rank j + 1's v (the top rank gets its own).
  __device__ __forceinline__ uint64_t from_above(uint64_t v) const {
    const uint32_t lo = __shfl_down_sync(mask, uint32_t(v), 1, T);
    const uint32_t hi = __shfl_down_sync(mask, uint32_t(v >> 32), 1, T);
    return uint64_t(hi) << 32 | lo;
  }
  // Rank j - 1's v (rank 0 gets its own).
  __device__ __forceinline__ uint64_t from_below(uint64_t v) const {
    const uint32_t lo = __shfl_up_sync(mask, uint32_t(v), 1, T);
    const uint32_t hi = __shfl_up_sync(mask, uint32_t(v >> 32), 1, T);
    return uint64_t(hi) << 32 | lo;
  }
  // Orders the team's shared-memory accesses (a is rewritten between products).
  __device__ __forceinline__ void sync() const { __syncwarp(mask); }
};

// Word w of an n-word number (0 past its end).
__device__ __forceinline__ uint64_t word_at(const uint64_t* p, uint32_t n, uint32_t w) { return w < n ? p[w] : 0; }

// 52-bit limb l of an n-word number.
__device__ __forceinline__ uint64_t limb_of_words(const uint64_t* p, uint32_t n, uint32_t l) {
  const uint32_t word = 52 * l / 64, off = 52 * l % 64;
  uint64_t v = word_at(p, n, word) >> off;
  if (off > 12) v |= word_at(p, n, word + 1) << (64 - off);
  return v & kMask52;
}

// The window's column sums take the limb products' halves as raw bit
// patterns (add_row_raw): each carries its double's exponent field (kLoBits
// or kHiBits, both 0 in the low 52 bits), and no step spends instructions
// taking it off. What a column holds is known from its index and the step:
// rank 0's leaving column i has had the low halves of the pairs (i', i - i')
// and the high halves of the pairs (i', i - 1 - i'), i' <= i, from each of
// the Rows rows a step; a column c >= k at the end of the product the pairs
// with i' in [c - k + 1, k) and [c - k, k). Only bits 52-63 differ from the
// true sum, and a true sum is below 2^64: its carry is (raw >> 52) less the
// exponent fields' sum, mod 2^12.
template <int K, int Rows>
struct RawColumns {
  static constexpr uint32_t kLoExp = uint32_t(dfma::kLoBits >> 52), kHiExp = uint32_t(dfma::kHiBits >> 52);
  // The exponent fields' sum (bits 52-63) in rank 0's column at step 0, and
  // its growth a step.
  static constexpr uint32_t kFirstStep = Rows * kLoExp, kPerStep = Rows * (kLoExp + kHiExp);
  // In column c >= K after the K steps, as a 64-bit word.
  __device__ __forceinline__ static uint64_t final_bias(int c) {
    const uint32_t f = uint32_t(Rows) * (uint32_t(2 * K - 1 - c) * kLoExp + uint32_t(2 * K - c) * kHiExp);
    return uint64_t(f & 0xfff) << 52;
  }
};

// acc[0 .. N] += x y (y of N limbs) by rows, the halves as raw bit patterns.
template <int N>
__device__ __forceinline__ void add_row_raw(uint64_t* acc, double x, const double* y) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < N; ++j) {
    uint64_t hi, lo;
    dfma::dfma_split(x, y[j], hi, lo);
    acc[j] += lo;
    acc[j + 1] += hi;
  }
}

// Adds the window's carries across the ranks: r = the team's normalised
// limbs of sum_j sum_l acc_j[l] b^(jS + l), a value below b^k (the top
// rank's carry out is 0 and dropped).
// Rows: the rows of limb products each step added (2 in mont_mul, 1 in
// mont_sqr's reduction) as raw bit patterns (RawColumns): their exponent
// fields are taken off here.
template <int T, int S, int Rows>
__device__ __forceinline__ void normalise(double (&r)[S], const uint64_t (&acc)[S + 1], const Team<T>& team) {
  uint64_t limb[S], c = 0;
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) {
    const uint64_t v = acc[l] - RawColumns<T * S, Rows>::final_bias(T * S + team.rank * S + l) + c;
    limb[l] = v & kMask52;
    c = v >> 52;
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int round = 1; round < T; ++round) {
    uint64_t cin = team.from_below(c);
    if (team.rank == 0) cin = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) {
      const uint64_t v = limb[l] + cin;
      limb[l] = v & kMask52;
      cin = v >> 52;
    }
    c = cin;
  }
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) r[l] = dfma::to_double(limb[l]);
}

// Steps 2-4 of a product step (above): q_i = t_0 m' mod b from rank 0's
// lowest column, broadcast; acc += q_i M_j; the window slides one column
// (the new top slot acc[S] is 0). Raw column sums (RawColumns): exp_sum is
// the exponent fields' sum in rank 0's leaving column, advanced a step here.
// Friendly: m is Montgomery-friendly (friendly_modulus: m = -1 mod b), so
// q = t_0 mod b, no product (mp unused).
template <int T, int S, int Rows, bool Friendly>
__device__ __forceinline__ void reduce_and_slide(uint64_t (&acc)[S + 1], const double* m, double mp, bool bottom,
                                                 bool top, uint32_t& exp_sum, const Team<T>& team) {
  using namespace dfma;
  // q = t_0 m' mod b on rank 0, as the bit pattern of the double 2^52 + q
  // (the low half of dfma_split's product).
  uint64_t qlo;
  if constexpr (Friendly) {
    qlo = (acc[0] & kMask52) | kLoBits;
  } else {
    uint64_t qhi;
    dfma_split(to_double(acc[0] & kMask52), mp, qhi, qlo);
  }
  const double q = bits_to_double(team.from_rank(qlo, 0)) - 0x1p52;
  add_row_raw<S>(acc, q, m);
  const uint64_t out = acc[0];
  const uint64_t down = team.from_above(out);
  // rank 0: the carry of the column that left (its low 52 bits are 0)
  const uint64_t carry = ((uint32_t(out >> 52) - exp_sum) & 0xfffu);
  exp_sum += RawColumns<T * S, Rows>::kPerStep;
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) acc[l] = acc[l + 1];
  acc[S] = 0;
  acc[0] += bottom ? carry : 0;
  acc[S - 1] += top ? 0 : down;  // the partial column from rank j + 1
}

// r = a b / R mod m, r < 2m, for a, b < 2m: a's k limbs (doubles) in
// a_sh[0 .. k) (shared memory, read only), b and m this rank's S limbs in
// registers, mp = -m^-1 mod b. r may alias b. U steps a pass of the rolled
// loop (U divides k).
template <int T, int S, int U, bool Friendly = false>
__device__ __forceinline__ void mont_mul(double (&r)[S], const double* a_sh, const double (&b)[S],
                                         const double* m, double mp, const Team<T>& team) {
  using namespace dfma;
  constexpr int kK = T * S;
  static_assert(kK % U == 0, "whole passes");
  uint64_t acc[S + 1];
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l <= S; ++l) acc[l] = 0;
  const bool bottom = team.rank == 0, top = team.rank == T - 1;
  uint32_t exp_sum = RawColumns<kK, 2>::kFirstStep;
  BIGTUNE_MOD_NO_UNROLL
  for (int i0 = 0; i0 < kK; i0 += U) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) {
      const double ai = a_sh[i0 + u];
      add_row_raw<S>(acc, ai, b);
      reduce_and_slide<T, S, 2, Friendly>(acc, m, mp, bottom, top, exp_sum, team);
    }
  }
  normalise<T, S, 2>(r, acc, team);
}

// The column sums of a square in shared memory (mont_sqr): 2k columns in
// `main`, and the columns [k/2, 3k/2) once more in `wrapped` for the tiles
// of the ranks whose partner block wrapped around (below). Column c sits in
// slot c + c / (2S): one pad slot every 2S columns, so windows 2S columns
// apart (the ranks' in one round) start in different banks.
template <int T, int S>
struct SquareColumns {
  static constexpr int kK = T * S;
  static constexpr int kMainSlots = 2 * kK + T;
  static constexpr int kWrapSlots = kK + T / 2 + 2;  // + the half round's zero row (odd S)
  static constexpr int kSlots = kMainSlots + kWrapSlots;
  __device__ __forceinline__ static int slot(int c) { return c + c / (2 * S); }
  __device__ __forceinline__ static int block_slot(int block) { return block * S + block / 2; }
};

// buf[slot(c)] += 2 acc[c - c0] for the N columns from c0: the pairs i < j
// of a square count twice.
template <int T, int S, int N>
__device__ __forceinline__ void add_doubled(uint64_t* buf, int c0, const uint64_t (&acc)[N]) {
  BIGTUNE_MOD_UNROLL_ALL
  for (int j = 0; j < N; ++j) buf[SquareColumns<T, S>::slot(c0 + j)] += acc[j] << 1;
}

// r = a^2 / R mod m, r < 2m, for a < 2m: a's limbs in a_sh and this rank's S
// of them in a, m and mp as in mont_mul; cols: SquareColumns<T, S>::kSlots
// words of shared memory for the team. r may alias a. Squaring by half the
// pairs (HAC 14.16) and then a separate reduction (SOS):
//   1. a^2's pairs i < j by tiles of S x S limbs, balanced over the ranks:
//      rank j squares its own block (the pairs inside it, then the squares),
//      and multiplies its block by blocks j + 1, ..., j + T/2 - 1 (mod T,
//      read from a_sh) in T/2 - 1 rounds, each tile's 2S column sums added
//      to shared memory. In one round the windows of the ranks whose
//      partner did not wrap are disjoint (2S columns apart), as are those of
//      the ranks whose partner wrapped; the two sets may meet, so the second
//      adds into `wrapped`. The pair of blocks T/2 apart is split by rows
//      between its two ranks. Every rank forms (S^2 T + S) / 2 limb products,
//      the lanes in lock step.
//   2. the reduction: mont_mul's window and steps without the a_i B_j rows,
//      the top rank feeding the square's columns k + i into its new top
//      slot, one a step.
// k (k + 1) / 2 + k^2 + k limb products against mont_mul's 2k^2 + k.
template <int T, int S, int U, bool Friendly = false>
__device__ __forceinline__ void mont_sqr(double (&r)[S], const double (&a)[S], const double* a_sh, uint64_t* cols,
                                         const double* m, double mp, const Team<T>& team) {
  using namespace dfma;
  using Cols = SquareColumns<T, S>;
  constexpr int kK = T * S, kHalf = T / 2, kRows = (S + 1) / 2;
  static_assert(kK % U == 0, "whole passes");
  uint64_t* wrapped = cols + Cols::kMainSlots;
  const int rank = team.rank;
  BIGTUNE_MOD_NO_UNROLL
  for (int s = rank; s < Cols::kWrapSlots; s += T) wrapped[s] = 0;
  {  // Own block: the pairs l < x, doubled, and the squares, stored (the
     // ranks' windows, blocks 2j and 2j + 1, tile all 2k columns).
    uint64_t acc[2 * S];
    BIGTUNE_MOD_UNROLL_ALL
    for (int c = 0; c < 2 * S; ++c) acc[c] = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int x = 1; x < S; ++x) {
      BIGTUNE_MOD_UNROLL_ALL
      for (int l = 0; l < x; ++l) {
        uint64_t hi, lo;
        dfma_split(a[x], a[l], hi, lo);
        acc[x + l] += lo - kLoBits;
        acc[x + l + 1] += hi - kHiBits;
      }
    }
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) {
      uint64_t hi, lo;
      dfma_split(a[l], a[l], hi, lo);
      acc[2 * l] = (acc[2 * l] << 1) + (lo - kLoBits);
      acc[2 * l + 1] = (acc[2 * l + 1] << 1) + (hi - kHiBits);
    }
    uint64_t* p0 = cols + Cols::block_slot(2 * rank);
    uint64_t* p1 = cols + Cols::block_slot(2 * rank + 1);
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) p0[l] = acc[l], p1[l] = acc[S + l];
  }
  team.sync();
  BIGTUNE_MOD_NO_UNROLL
  for (int d = 1; d < kHalf; ++d) {  // own block times block rank + d (mod T)
    const int partner = (rank + d) & (T - 1);
    const bool wrap = rank + d >= T;
    const double* rows = a_sh + partner * S;
    uint64_t acc[2 * S];
    BIGTUNE_MOD_UNROLL_ALL
    for (int c = 0; c < 2 * S; ++c) acc[c] = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int x = 0; x < S; ++x) add_row<S>(acc + x, rows[x], a);
    // The window: blocks rank + partner and the next (in `wrapped`, from
    // block T/2 on).
    const int block = rank + partner - (wrap ? kHalf : 0);
    uint64_t* buf = wrap ? wrapped : cols;
    uint64_t* p0 = buf + Cols::block_slot(block);
    uint64_t* p1 = buf + Cols::block_slot(block + 1);
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) p0[l] += acc[l] << 1, p1[l] += acc[S + l] << 1;
    team.sync();
  }
  {  // Blocks P = rank mod T/2 and Q = P + T/2: rank P takes Q's first
     // ceil(S/2) limbs as rows, rank Q the rest (a zero row where S is odd),
     // both against block P (rank Q reads it from a_sh), into cols / wrapped.
    const int p = rank & (kHalf - 1), q = p + kHalf;
    const bool upper = rank >= kHalf;
    const int x0 = upper ? kRows : 0;
    double y[S];
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) y[l] = upper ? a_sh[p * S + l] : a[l];
    uint64_t acc[kRows + S];
    BIGTUNE_MOD_UNROLL_ALL
    for (int c = 0; c < kRows + S; ++c) acc[c] = 0;
    BIGTUNE_MOD_UNROLL_ALL
    for (int x = 0; x < kRows; ++x) {
      const double row = x0 + x < S ? a_sh[q * S + x0 + x] : 0.0;
      add_row<S>(acc + x, row, y);
    }
    const int c0 = (p + q) * S + x0;
    add_doubled<T, S>(upper ? wrapped : cols, upper ? c0 - kHalf * S : c0, acc);
  }
  team.sync();
  // cols += wrapped: rank j adds block j of `wrapped` (column block T/2 + j).
  {
    uint64_t* dst = cols + Cols::block_slot(kHalf + rank);
    const uint64_t* src = wrapped + Cols::block_slot(rank);
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) dst[l] += src[l];
  }
  team.sync();
  // The reduction: rank j's window starts at columns [jS, jS + S] (the top
  // slot is column (j + 1) S, which rank j + 1 holds; the top rank's is
  // column k).
  const bool bottom = rank == 0, top = rank == T - 1;
  uint64_t acc[S + 1];
  {
    const uint64_t* own = cols + Cols::block_slot(rank);
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) acc[l] = own[l];
    acc[S] = top ? cols[Cols::slot(kK)] : 0;
  }
  uint32_t exp_sum = RawColumns<kK, 1>::kFirstStep;
  BIGTUNE_MOD_NO_UNROLL
  for (int i0 = 0; i0 < kK; i0 += U) {
    BIGTUNE_MOD_UNROLL_ALL
    for (int u = 0; u < U; ++u) {
      reduce_and_slide<T, S, 1, Friendly>(acc, m, mp, bottom, top, exp_sum, team);
      const int c = i0 + u + 1 + kK;  // the top rank's new top column
      if (top && c < 2 * kK) acc[S] = cols[Cols::slot(c)];
    }
  }
  normalise<T, S, 1>(r, acc, team);
}

// This rank's S limbs of v into a_sh (after the team is done reading it).
template <int T, int S>
__device__ __forceinline__ void to_shared(double* a_sh, const double (&v)[S], const Team<T>& team) {
  team.sync();
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) a_sh[team.rank * S + l] = v[l];
  team.sync();
}

// x R mod m (x of x_words words, m odd of m_words words, both below
// 2^(64 NW)) as this rank's S limbs. Rank 0 runs Knuth's Algorithm D on
// x b^k against m in `region` (dmont::region_limbs<k, NW>() 32-bit limbs)
// and hands the remainder to the team through a_sh.
template <int NW, int T, int S>
__device__ __forceinline__ void to_montgomery(double (&xr)[S], const uint64_t* x, uint32_t x_words,
                                              const uint64_t* m, uint32_t m_words, double* a_sh, uint32_t* region,
                                              const Team<T>& team) {
  constexpr int kK = T * S;
  constexpr uint32_t n = dmont::div_limbs<kK, NW>(), ws = 52 * kK / 32, bs = 52 * kK % 32;
  uint32_t* rem = reinterpret_cast<uint32_t*>(a_sh);  // 2 NW words fit in k doubles
  team.sync();
  if (team.rank == 0) {
    BIGTUNE_MOD_NO_UNROLL
    for (uint32_t j = 0; j < 2 * n + 1; ++j) region[j] = 0;
    BIGTUNE_MOD_NO_UNROLL
    for (uint32_t t = 0; t < 2 * NW; ++t) {  // x << 52k: ws limbs and bs bits
      const uint32_t v = uint32_t(word_at(x, x_words, t / 2) >> (32 * (t % 2)));
      region[t + ws] |= v << bs;
      if (bs != 0) region[t + ws + 1] |= v >> ((32 - bs) % 32);
    }
    uint32_t* v = region + n + 1;
    BIGTUNE_MOD_NO_UNROLL
    for (uint32_t t = 0; t < 2 * NW; ++t) v[t] = uint32_t(word_at(m, m_words, t / 2) >> (32 * (t % 2)));
    thread::divmod_knuth(region, n, 2 * NW);
    BIGTUNE_MOD_NO_UNROLL
    for (uint32_t t = 0; t < 2 * NW; ++t) rem[t] = v[t];
  }
  team.sync();
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) {
    const uint32_t bit = 52 * uint32_t(team.rank * S + l), w = bit / 32, off = bit % 32;
    // limb bits [bit, bit + 52) from up to three 32-bit words
    const auto rem_at = [&](uint32_t t) -> uint64_t { return t < 2 * NW ? rem[t] : 0; };
    uint64_t v = (rem_at(w) | rem_at(w + 1) << 32) >> off;
    if (off > 12) v |= rem_at(w + 2) << (64 - off);
    xr[l] = dfma::to_double(v & kMask52);
  }
  team.sync();
}

// The 128-bit product a b as lo (returned) and hi.
__device__ __forceinline__ uint64_t mul_wide(uint64_t a, uint64_t b, uint64_t& hi) {
#if defined(__CUDA_ARCH__)
  hi = __umul64hi(a, b);
  return a * b;
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  hi = uint64_t(p >> 64);
  return uint64_t(p);
#endif
}

// A Montgomery-friendly multiple of m (session 12): m~ = m mp with mp =
// -m^-1 mod b is -1 mod b, so a product step's quotient digit is t_0 mod b
// (no q = t_0 m' on the step's chain, one limb product less a rank and
// step). Products mod m~ are congruent mod m, so inputs need only be
// reduced mod m; values stay below 2 m~ (4 m~ < R: 64 NW + 54 <= 52 k) and
// store_result_mod takes the result mod m at the end. Rank 0 forms m~'s k
// limbs in a_sh; every rank takes its S as doubles.
template <int T, int S>
__device__ __forceinline__ void friendly_modulus(double (&ml)[S], const uint64_t* m, uint32_t m_words, uint64_t mp,
                                                 double* a_sh, const Team<T>& team) {
  constexpr int kK = T * S;
  uint64_t* limbs = reinterpret_cast<uint64_t*>(a_sh);
  team.sync();
  if (team.rank == 0) {
    uint64_t c = 0;
    BIGTUNE_MOD_NO_UNROLL
    for (int l = 0; l < kK; ++l) {
      uint64_t hi, lo = mul_wide(limb_of_words(m, m_words, uint32_t(l)), mp, hi);
      lo += c;
      hi += lo < c;
      limbs[l] = lo & kMask52;
      c = lo >> 52 | hi << 12;
    }
  }
  team.sync();
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) ml[l] = dfma::to_double(limbs[team.rank * S + l]);
  team.sync();
}

// r (out_words words) = v mod m for v < 2 m~ (friendly_modulus), or v < 2m
// where the products ran mod m itself (the team's limbs of v): rank 0
// divides v (below 2^(64 NW + 53)) by m with Knuth's Algorithm D in region
// (a quotient below 2^53: a few steps) and repacks the remainder into words.
template <int NW, int T, int S>
__device__ __forceinline__ void store_result_mod(uint64_t* r, uint32_t out_words, const double (&v)[S],
                                                 const uint64_t* m, uint32_t m_words, double* a_sh, uint32_t* region,
                                                 const Team<T>& team) {
  constexpr int kK = T * S;
  constexpr uint32_t n = 2 * NW + 2;  // v's 32-bit limbs
  uint64_t* limbs = reinterpret_cast<uint64_t*>(a_sh);
  team.sync();
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) limbs[team.rank * S + l] = dmont::to_integer(v[l]);
  team.sync();
  if (team.rank != 0) return;
  BIGTUNE_MOD_NO_UNROLL
  for (uint32_t j = 0; j < 2 * n + 1; ++j) region[j] = 0;
  BIGTUNE_MOD_NO_UNROLL
  for (uint32_t l = 0; l < uint32_t(kK) && 52 * l < 32 * n; ++l) {
    const uint64_t x = limbs[l];
    const uint32_t w = 52 * l / 32, off = 52 * l % 32;
    region[w] |= uint32_t(x << off);
    if (w + 1 < n) region[w + 1] |= uint32_t(x >> (32 - off));
    if (off > 12 && w + 2 < n) region[w + 2] |= uint32_t(x >> (64 - off));
  }
  uint32_t* d = region + n + 1;
  BIGTUNE_MOD_NO_UNROLL
  for (uint32_t t = 0; t < 2 * NW; ++t) d[t] = uint32_t(word_at(m, m_words, t / 2) >> (32 * (t % 2)));
  thread::divmod_knuth(region, n, 2 * NW);
  BIGTUNE_MOD_NO_UNROLL
  for (uint32_t w = 0; w < out_words; ++w) r[w] = w < NW ? uint64_t(d[2 * w + 1]) << 32 | d[2 * w] : 0;
}

// r = x^e mod m, windows of W bits: m odd of m_words words below 2^(64 NW),
// x any value of x_words words (reduced by the conversion), e of e_words
// words (0 gives 1 mod m). Every rank of the team calls it with the same
// arguments. Fixed windows: every W bits W squarings and a product by
// T[d] = x^d R mod m; Sliding (session 13): windows that start and end on a
// one bit, T[d] = x^(2d + 1) R, about E / (W + 1) products for an E-bit
// exponent against E / W, and half the table (a warp's teams must share
// the exponent's pattern, or the window loops diverge: one team a warp).
// a_sh: k doubles of shared memory for the team; table: 2^W S doubles, or
// 2^(W-1) S sliding (this rank's slices of the entries, local memory); region:
// dmont::region_limbs<k, NW>() 32-bit limbs for rank 0's divisions (the
// kernels give it shared memory); used only before the first and after the
// last product, so it may alias sq_cols.
// Sqr: the squarings by mont_sqr, with sq_cols (SquareColumns<T, S>::kSlots
// words of shared memory for the team); otherwise by mont_mul (sq_cols
// unused).
template <int NW, int T, int S, int W, int U, bool Sqr = false, bool Sliding = false>
__device__ __forceinline__ void powm(uint64_t* r, uint32_t out_words, const uint64_t* x, uint32_t x_words,
                                     const uint64_t* e, uint32_t e_words, const uint64_t* m, uint32_t m_words,
                                     double* a_sh, double* table, uint32_t* region, const Team<T>& team,
                                     uint64_t* sq_cols = nullptr) {
  int64_t top = int64_t(e_words) * 64 - 1;
  while (top >= 0 && ((e[top / 64] >> (top % 64)) & 1) == 0) --top;
  if (top < 0) {  // e = 0: 1 mod m (0 for m = 1)
    if (team.rank != 0) return;
    bool m_is_one = word_at(m, m_words, 0) == 1;
    for (uint32_t w = 1; w < m_words; ++w) m_is_one = m_is_one && m[w] == 0;
    for (uint32_t w = 0; w < out_words; ++w) r[w] = w == 0 && !m_is_one ? 1 : 0;
    return;
  }
  // A Montgomery-friendly multiple of m where it fits (friendly_modulus).
  constexpr bool kFriendly = 64 * NW + 54 <= 52 * T * S;
  const uint64_t mp_bits = dmont::neg_inverse52(word_at(m, m_words, 0) & kMask52);
  const double mp = double(mp_bits);
  double ml[S];
  if constexpr (kFriendly) {
    friendly_modulus<T, S>(ml, m, m_words, mp_bits, a_sh, team);
  } else {
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) ml[l] = dfma::to_double(limb_of_words(m, m_words, uint32_t(team.rank * S + l)));
  }
  double acc[S];
  to_montgomery<NW, T, S>(acc, x, x_words, m, m_words, a_sh, region, team);
  const auto square = [&] {
    to_shared<T, S>(a_sh, acc, team);
    if constexpr (Sqr)
      mont_sqr<T, S, U, kFriendly>(acc, acc, a_sh, sq_cols, ml, mp, team);
    else
      mont_mul<T, S, U, kFriendly>(acc, a_sh, acc, ml, mp, team);
  };
  // acc = acc T[d] / R, and T[d] = T[d - 1] a_sh / R.
  const auto multiply_by_entry = [&](uint32_t d) {
    double t[S];
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) t[l] = table[d * S + l];
    to_shared<T, S>(a_sh, acc, team);
    mont_mul<T, S, U, kFriendly>(acc, a_sh, t, ml, mp, team);
  };
  const auto next_entry = [&](uint32_t d) {
    double t[S];
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) t[l] = table[(d - 1) * S + l];
    mont_mul<T, S, U, kFriendly>(t, a_sh, t, ml, mp, team);
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) table[d * S + l] = t[l];
  };
  if constexpr (Sliding) {
    static_assert(W >= 2, "sliding windows of 2 bits and more");
    const auto bit = [&](int64_t i) { return uint32_t(e[i / 64] >> (i % 64)) & 1u; };
    // T[d] = x^(2d + 1) R, d < 2^(W-1): T[0] = x R; a first T[1] = x^2 R
    // (x R in a_sh) goes to a_sh, then T[d] = T[d - 1] x^2. One call site
    // for each kind of product, as in the fixed windows: three inlined
    // copies of mont_sqr made the kernel 0.76x (session 13, run C).
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) table[l] = acc[l];
    to_shared<T, S>(a_sh, acc, team);
    for (uint32_t step = 0; step < (1u << (W - 1)); ++step) {
      next_entry(step == 0 ? 1 : step);
      if (step == 0) {
        double x2[S];
        BIGTUNE_MOD_UNROLL_ALL
        for (int l = 0; l < S; ++l) x2[l] = table[S + l];
        to_shared<T, S>(a_sh, x2, team);
      }
    }
    // Windows of at most W bits that start and end on a one bit (HAC
    // 14.85), a zero bit between them one squaring; the top window's entry
    // is acc's start.
    bool started = false;
    for (int64_t i = top; i >= 0;) {
      int64_t j = i;
      uint32_t value = 0;
      if (bit(i)) {
        j = i - W + 1 > 0 ? i - W + 1 : 0;
        while (!bit(j)) ++j;
        for (int64_t k = i; k >= j; --k) value = 2 * value + bit(k);
      }
      const int64_t squarings = started ? i - j + 1 : 0;
      for (int64_t k = 0; k < squarings; ++k) square();
      if (!started) {
        BIGTUNE_MOD_UNROLL_ALL
        for (int l = 0; l < S; ++l) acc[l] = table[(value >> 1) * S + l];
        started = true;
      } else if (value) {
        multiply_by_entry(value >> 1);
      }
      i = j - 1;
    }
  } else {
    // T[1] = x R; T[d] = T[d - 1] x R / R, with x R in a_sh throughout.
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) table[S + l] = acc[l];
    to_shared<T, S>(a_sh, acc, team);
    for (uint32_t d = 2; d < (1u << W); ++d) next_entry(d);
    const uint64_t windows = uint64_t(top) / W + 1;
    uint64_t pos = (windows - 1) * W;
    const uint32_t first = dmont::digit_at(e, e_words, pos, W);  // nonzero: it holds e's top bit
    BIGTUNE_MOD_UNROLL_ALL
    for (int l = 0; l < S; ++l) acc[l] = table[first * S + l];
    while (pos > 0) {
      pos -= W;
      for (int s = 0; s < W; ++s) square();
      const uint32_t d = dmont::digit_at(e, e_words, pos, W);
      if (d) multiply_by_entry(d);
    }
  }
  // Out of Montgomery form: acc 1 / R (below 2m or 2 m~), then mod m.
  double one[S];
  BIGTUNE_MOD_UNROLL_ALL
  for (int l = 0; l < S; ++l) one[l] = team.rank == 0 && l == 0 ? 1.0 : 0.0;
  to_shared<T, S>(a_sh, acc, team);
  mont_mul<T, S, U, kFriendly>(acc, a_sh, one, ml, mp, team);
  store_result_mod<NW, T, S>(r, out_words, acc, m, m_words, a_sh, region, team);
}

}  // namespace dteam
}  // namespace bigtune::kernels::modular
