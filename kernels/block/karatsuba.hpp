// Karatsuba full product and square over any registered base product
// (issues 2 and 3: "Karatsuba or Toom-3 on top of the block classical kernel,
// kept only where it wins"; bench/notes/karatsuba.md has the bound).
//
// A product of n-word operands (64-bit words) takes L levels of the
// *subtractive* Karatsuba split in one pass (seed 002's Karatsuba section; the
// subtractive form needs no extra bit, so every leaf has exactly h words):
//
//   N = h * 2^L, h = ceil(n / 2^L)    (operands zero-padded to N words)
//   node x (s words) -> x0 = low s/2 words, x1 = high s/2 words, xm = |x0 - x1|
//   x*y = P0 + (P0 + P1 - sgn * Pm) B^(s/2) + P1 B^s
//         with P0 = x0 y0, P1 = x1 y1, Pm = xm ym, sgn = sign((x0-x1)(y0-y1)).
//
// Three passes, each a separate launch:
//   1. prep (this file, kara_prep_instance): the 3^L leaf operand pairs of h
//      words per instance, and one sign bit per inner node;
//   2. any registered mul (sqr) variant on the 3^L * count leaf pairs: a faster
//      base product speeds Karatsuba up with no change here;
//   3. combine (kara_combine_instance): the leaves' products folded back level
//      by level into the 2N-word product.
// Node numbering: inner node j of level l has children 3j (x0), 3j+1 (x1) and
// 3j+2 (xm) on level l+1; its sign bit is kara_sign_bit(l, j). The leaves of
// instance i are base instances i * 3^L .. i * 3^L + 3^L - 1.
//
// The per-instance algorithm is written once, for an `Exec` that runs
// "phases" (every thread t < T of a block runs the lambda, then a barrier), a
// carry scan over per-thread statuses and a max over per-thread keys. The
// device Exec (karatsuba.cuh) is a CUDA block; the host Exec runs the threads
// one after another, which lets tests/unit/karatsuba_algorithm_test.cpp check
// this very code against GMP without a GPU. Rule that makes both agree: state
// that crosses a phase lives in the shared arrays, and driver locals are only
// derived from shared state after a barrier (so they are uniform).
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"

namespace bigtune::kernels::block {

constexpr uint32_t kKaraMaxLevels = 4;  // 1 + 3 + 9 + 27 = 40 sign bits fit a uint64_t

BIGTUNE_HD constexpr uint32_t kara_pow3(uint32_t l) { return l == 0 ? 1u : 3u * kara_pow3(l - 1); }
// Words of one leaf operand for n-word operands and L levels.
BIGTUNE_HD constexpr uint32_t kara_leaf_words(uint32_t n, uint32_t levels) { return ceil_div(n, 1u << levels); }
// The sign bit of inner node j of level l (breadth-first order).
BIGTUNE_HD constexpr uint32_t kara_sign_bit(uint32_t l, uint32_t j) { return (kara_pow3(l) - 1) / 2 + j; }

// Shared memory (64-bit words) of the prep pass: levels 0 .. L-1 of the tree of
// one operand (level l: 3^l nodes of N >> l words), for a and (mul) b.
BIGTUNE_HD constexpr uint64_t kara_prep_operand_words(uint32_t n, uint32_t levels) {
  uint64_t words = 0;
  const uint64_t big_n = uint64_t(kara_leaf_words(n, levels)) << levels;
  for (uint32_t l = 0; l < levels; ++l) words += uint64_t(kara_pow3(l)) * (big_n >> l);
  return words;
}
BIGTUNE_HD constexpr uint64_t kara_prep_words(uint32_t n, uint32_t levels, bool square) {
  return (square ? 1 : 2) * kara_prep_operand_words(n, levels);
}
// Shared memory (words) of the combine pass: the 3^L leaf products (2h words
// each) and the 3^(L-1) level-(L-1) products (4h words each), used in turn as
// input and output of one level.
BIGTUNE_HD constexpr uint64_t kara_combine_buf_a(uint32_t n, uint32_t levels) {
  return uint64_t(kara_pow3(levels)) * 2 * kara_leaf_words(n, levels);
}
BIGTUNE_HD constexpr uint64_t kara_combine_words(uint32_t n, uint32_t levels) {
  return kara_combine_buf_a(n, levels) + uint64_t(kara_pow3(levels - 1)) * 4 * kara_leaf_words(n, levels);
}
// Threads of one prep/combine block: about two result words per thread at
// small sizes, at most 512 (memory-bound passes; more blocks per SM hide latency).
BIGTUNE_HD constexpr uint32_t kara_pass_threads(uint32_t n) {
  const uint32_t t = round_up(n / 2 == 0 ? 1 : n / 2, 32);
  return t < 64 ? 64 : (t > 512 ? 512 : t);
}

// Carry status of a chunk, as in carry_scan.cuh: bit 0 generate, bit 1 propagate.
constexpr uint32_t kKaraGenerate = 1, kKaraPropagate = 2;
BIGTUNE_HD inline uint32_t kara_carry_op(uint32_t earlier, uint32_t later) {
  return ((later | ((later >> 1) & earlier)) & kKaraGenerate) | (later & earlier & kKaraPropagate);
}

// Chunk [lo, hi) of `words` words for thread t of T.
struct KaraChunk {
  uint32_t lo, hi;
};
BIGTUNE_HD inline KaraChunk kara_chunk(uint32_t t, uint32_t threads, uint32_t words) {
  const uint32_t q = ceil_div(words, threads);
  const uint32_t lo = t * q < words ? t * q : words;
  const uint32_t hi = lo + q < words ? lo + q : words;
  return {lo, hi};
}

// Exchange arrays of one block: per-thread statuses/carries and key cells.
constexpr uint32_t kKaraMaxKeys = 64;  // groups of one round (<= threads)
struct KaraShared {
  uint32_t* status;  // T entries
  uint32_t* carry;   // T entries
  uint32_t* key;     // kKaraMaxKeys entries (one per thread group)
};

// Every node of a tree level is independent, so a level runs as one set of
// phases: the block's threads form G groups of T / G threads, one group per
// node (per operand node in the prep, per triple in the combine), G at most
// min(T, kKaraMaxKeys) per round. The carry scans are segmented as in
// carry_scan.cuh: a group's first thread reports propagate = 0 and ignores
// the prefix it receives. Fewer barriers per instance than a node at a time
// (L barriers sets instead of (3^L - 1) / 2).
struct KaraGroup {
  uint32_t g, t, threads;  // group, thread within it, threads per group
};
BIGTUNE_HD inline KaraGroup kara_group(uint32_t t, uint32_t threads, uint32_t groups) {
  const uint32_t per = threads / groups;
  const uint32_t g = t / per < groups ? t / per : groups;  // g == groups: spare thread
  return {g, t - g * per, per};
}
BIGTUNE_HD inline uint32_t kara_round_groups(uint32_t threads, uint32_t multiple) {
  const uint32_t cap = threads < kKaraMaxKeys ? threads : kKaraMaxKeys;
  return cap / multiple * multiple;
}

// For each group g < G: dst = |x - y| over w words, with (x, y, dst) =
// at(g) (dst distinct from x and y); bit g of the result is 1 when x < y.
// Compare first (the highest differing word, by a max over per-thread keys),
// then one borrow scan of larger - smaller.
struct KaraDiffPtrs {
  const uint64_t* x;
  const uint64_t* y;
  uint64_t* dst;
};
template <class Exec, class At>
BIGTUNE_HD uint64_t kara_absdiff(Exec& ex, const KaraShared& sh, uint32_t groups, uint32_t w, At at) {
  const uint32_t threads = ex.threads();
  ex.phase([&](uint32_t t) {
    if (t < groups) sh.key[t] = 0;
  });
  ex.phase([&](uint32_t t) {
    const KaraGroup q = kara_group(t, threads, groups);
    if (q.g >= groups) return;
    const KaraChunk c = kara_chunk(q.t, q.threads, w);
    const KaraDiffPtrs p = at(q.g);
    for (uint32_t k = c.hi; k > c.lo; --k) {
      if (p.x[k - 1] != p.y[k - 1]) {
        ex.atomic_max(sh.key + q.g, (k << 1) | (p.x[k - 1] > p.y[k - 1] ? 1u : 0u));
        break;
      }
    }
  });
  uint64_t lt = 0;
  for (uint32_t g = 0; g < groups; ++g) lt |= uint64_t(sh.key[g] != 0 && (sh.key[g] & 1) == 0) << g;
  ex.phase([&](uint32_t t) {
    const KaraGroup q = kara_group(t, threads, groups);
    if (q.g >= groups) {
      sh.status[t] = kKaraPropagate;  // identity
      return;
    }
    const KaraChunk c = kara_chunk(q.t, q.threads, w);
    const KaraDiffPtrs p = at(q.g);
    const bool swap = (lt >> q.g) & 1;
    const uint64_t* big = swap ? p.y : p.x;
    const uint64_t* small = swap ? p.x : p.y;
    uint64_t borrow = 0;
    bool zero = q.t != 0;  // a group's first chunk stops what comes from below it
    for (uint32_t k = c.lo; k < c.hi; ++k) {
      const uint64_t d = big[k] - small[k];
      const uint64_t r = d - borrow;
      borrow = (big[k] < small[k]) | (d < borrow);
      zero &= r == 0;
    }
    sh.status[t] = uint32_t(borrow) | (zero ? kKaraPropagate : 0u);
  });
  ex.carry_scan(sh.status);  // status[t] = exclusive prefix: bit 0 = borrow into chunk t
  ex.phase([&](uint32_t t) {
    const KaraGroup q = kara_group(t, threads, groups);
    if (q.g >= groups) return;
    const KaraChunk c = kara_chunk(q.t, q.threads, w);
    const KaraDiffPtrs p = at(q.g);
    const bool swap = (lt >> q.g) & 1;
    const uint64_t* big = swap ? p.y : p.x;
    const uint64_t* small = swap ? p.x : p.y;
    uint64_t borrow = q.t == 0 ? 0 : sh.status[t] & kKaraGenerate;
    for (uint32_t k = c.lo; k < c.hi; ++k) {
      const uint64_t d = big[k] - small[k];
      const uint64_t r = d - borrow;
      borrow = (big[k] < small[k]) | (d < borrow);
      p.dst[k] = r;
    }
  });
  return lt;
}

// Prep pass of one instance. a, b: n words (b unused when square). smem:
// kara_prep_words words. leaf_a / leaf_b: this instance's 3^L leaves of h words.
// Returns the sign bits (1: (x0-x1)(y0-y1) < 0 at that node); 0 for squares.
template <class Exec>
BIGTUNE_HD uint64_t kara_prep_instance(Exec& ex, const KaraShared& sh, const uint64_t* a, const uint64_t* b, uint32_t n,
                                       uint32_t levels, bool square, uint64_t* smem, uint64_t* leaf_a,
                                       uint64_t* leaf_b) {
  const uint32_t threads = ex.threads();
  const uint32_t ops = square ? 1 : 2;  // operand of group g: g % ops; node: g / ops
  const uint32_t h = kara_leaf_words(n, levels);
  const uint32_t big_n = h << levels;
  const uint64_t per_operand = kara_prep_operand_words(n, levels);
  const uint64_t* src[2] = {a, b};
  uint64_t* tree[2] = {smem, smem + per_operand};
  uint64_t* leaves[2] = {leaf_a, leaf_b};
  ex.phase([&](uint32_t t) {
    for (uint32_t o = 0; o < ops; ++o)
      for (uint32_t k = t; k < big_n; k += threads) tree[o][k] = k < n ? src[o][k] : 0;
  });
  uint64_t neg = 0;
  uint64_t level_off = 0;
  const uint32_t round = kara_round_groups(threads, ops);
  for (uint32_t l = 0; l < levels; ++l) {
    const uint32_t s = big_n >> l, half = s / 2;
    const bool last = l + 1 == levels;
    const uint64_t next_off = level_off + uint64_t(kara_pow3(l)) * s;
    const uint32_t total = ops * kara_pow3(l);
    for (uint32_t g0 = 0; g0 < total; g0 += round) {
      const uint32_t groups = total - g0 < round ? total - g0 : round;
      // Node j of operand o: its halves, and where its three children go.
      auto node = [&](uint32_t g) { return tree[(g0 + g) % ops] + level_off + uint64_t((g0 + g) / ops) * s; };
      auto child = [&](uint32_t g) {
        const uint32_t o = (g0 + g) % ops, j = (g0 + g) / ops;
        return last ? leaves[o] + uint64_t(3 * j) * half : tree[o] + next_off + uint64_t(3 * j) * half;
      };
      ex.phase([&](uint32_t t) {  // x0 and x1 are the two halves, copied as they are
        for (uint32_t g = 0; g < groups; ++g) {
          const uint64_t* x = node(g);
          uint64_t* c = child(g);
          for (uint32_t k = t; k < s; k += threads) c[k] = x[k];
        }
      });
      const uint64_t lt = kara_absdiff(ex, sh, groups, half, [&](uint32_t g) {
        const uint64_t* x = node(g);
        return KaraDiffPtrs{x, x + half, child(g) + 2 * half};
      });
      if (!square)
        for (uint32_t g = 0; g < groups; g += 2)
          neg |= uint64_t(((lt >> g) ^ (lt >> (g + 1))) & 1) << kara_sign_bit(l, (g0 + g) / 2);
    }
    level_off = next_off;
  }
  return neg;
}

// Adds `v` into words [lo, hi) of r; returns the carry out.
BIGTUNE_HD inline uint64_t kara_add_small(uint64_t* r, uint32_t lo, uint32_t hi, uint64_t v) {
  for (uint32_t k = lo; k < hi && v; ++k) {
    const uint64_t s = r[k] + v;
    v = s < v;
    r[k] = s;
  }
  return v;
}

// For each group g < G: R (4s words) = P0 + (P0 + P1 - sgn Pm) B^s + P1 B^2s,
// Pi of 2s words each, (P0, R, sgn) = at(g) with P1 = P0 + 2s, Pm = P0 + 4s.
// With sgn = +1 the subtraction is an addition of the complement modulo B^4s
// (~Pm over 3s words, + 1 at word s): every column is a sum of at most five
// words plus a carry, so all carries are non-negative. Carries then cross the
// chunks in two steps: each chunk's column carry (0..5) is added into the
// next chunk (a carry out of that is 0 or 1), then one carry scan.
struct KaraCombinePtrs {
  const uint64_t* p0;
  uint64_t* r;
  bool neg;
};
template <class Exec, class At>
BIGTUNE_HD void kara_combine_level(Exec& ex, const KaraShared& sh, uint32_t groups, uint32_t s, At at) {
  const uint32_t threads = ex.threads(), w = 4 * s;
  ex.phase([&](uint32_t t) {
    const KaraGroup q = kara_group(t, threads, groups);
    uint64_t carry = 0;
    if (q.g < groups) {
      const KaraChunk c = kara_chunk(q.t, q.threads, w);
      const KaraCombinePtrs p = at(q.g);
      const uint64_t *p0 = p.p0, *p1 = p.p0 + 2 * s, *pm = p.p0 + 4 * s;
      for (uint32_t k = c.lo; k < c.hi; ++k) {
        uint64_t sum = carry, next = 0, v;
        v = k < 2 * s ? p0[k] : p1[k - 2 * s];
        sum += v, next += sum < v;
        if (k >= s && k < 3 * s) {
          v = p0[k - s], sum += v, next += sum < v;
          v = p1[k - s], sum += v, next += sum < v;
          v = p.neg ? pm[k - s] : ~pm[k - s], sum += v, next += sum < v;
        } else if (k >= 3 * s && !p.neg) {
          v = ~uint64_t(0), sum += v, next += sum < v;
        }
        if (k == s && !p.neg) sum += 1, next += sum == 0;
        p.r[k] = sum;
        carry = next;
      }
    }
    sh.carry[t] = uint32_t(carry);
  });
  ex.phase([&](uint32_t t) {
    const KaraGroup q = kara_group(t, threads, groups);
    if (q.g >= groups) {
      sh.status[t] = kKaraPropagate;  // identity
      return;
    }
    const KaraChunk c = kara_chunk(q.t, q.threads, w);
    uint64_t* r = at(q.g).r;
    const uint64_t out = kara_add_small(r, c.lo, c.hi, q.t == 0 ? 0 : sh.carry[t - 1]);
    bool ones = q.t != 0;  // a group's first chunk stops what comes from below it
    for (uint32_t k = c.lo; k < c.hi; ++k) ones &= r[k] == ~uint64_t(0);
    sh.status[t] = uint32_t(out) | (ones ? kKaraPropagate : 0u);
  });
  ex.carry_scan(sh.status);
  ex.phase([&](uint32_t t) {
    const KaraGroup q = kara_group(t, threads, groups);
    if (q.g >= groups || q.t == 0) return;
    const KaraChunk c = kara_chunk(q.t, q.threads, w);
    kara_add_small(at(q.g).r, c.lo, c.hi, sh.status[t] & kKaraGenerate);
  });
}

// Combine pass of one instance: prods = the 3^L leaf products (2h words each,
// global), smem = kara_combine_words words, r = out_words words of result.
template <class Exec>
BIGTUNE_HD void kara_combine_instance(Exec& ex, const KaraShared& sh, const uint64_t* prods, uint64_t neg, uint32_t n,
                                      uint32_t levels, uint64_t* smem, uint64_t* r, uint32_t out_words) {
  const uint32_t threads = ex.threads();
  const uint32_t h = kara_leaf_words(n, levels);
  const uint32_t big_n = h << levels;
  uint64_t* in = smem;
  uint64_t* out = smem + kara_combine_buf_a(n, levels);
  const uint32_t leaf_words = 2 * h * kara_pow3(levels);
  ex.phase([&](uint32_t t) {
    for (uint32_t k = t; k < leaf_words; k += threads) in[k] = prods[k];
  });
  const uint32_t round = kara_round_groups(threads, 1);
  for (uint32_t l = levels; l >= 1; --l) {
    const uint32_t s = big_n >> l;  // node size on level l: its products have 2s words
    const uint32_t total = kara_pow3(l - 1);
    for (uint32_t g0 = 0; g0 < total; g0 += round) {
      const uint32_t groups = total - g0 < round ? total - g0 : round;
      kara_combine_level(ex, sh, groups, s, [&](uint32_t g) {
        const uint32_t j = g0 + g;
        return KaraCombinePtrs{in + uint64_t(3 * j) * 2 * s, out + uint64_t(j) * 4 * s,
                               bool((neg >> kara_sign_bit(l - 1, j)) & 1)};
      });
    }
    uint64_t* tmp = in;
    in = out;
    out = tmp;
  }
  ex.phase([&](uint32_t t) {
    for (uint32_t k = t; k < out_words; k += threads) r[k] = k < 2 * big_n ? in[k] : 0;
  });
}

}  // namespace bigtune::kernels::block
