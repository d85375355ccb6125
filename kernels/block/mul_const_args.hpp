// The arguments of the products by a constant shared by the batch, for both
// kernels that take them: mul_const_imma.cuh (mma.sync) and
// mul_const_wgmma.cuh (Hopper's wgmma), and the builders of the two launches
// (kernels/variants/mul_const_imma_instances.cu checks the shapes first; the
// CPU tests run the kernels with the same arguments).
#pragma once
#include <cstdint>

#include "kernels/block/layout.hpp"  // BIGTUNE_HD

namespace bigtune::kernels::block {

// The longest constant (bytes): column sums of 16384 * 255^2 < 2^31.
constexpr uint32_t kImmaMaxConstBytes = 16384;
static_assert(uint64_t(kImmaMaxConstBytes) * 255 * 255 < (uint64_t(1) << 31), "column sums must fit an s32");

// One launch of either kernel: the plain product (out_i words
// [out_lo, out_words) = x_i * k at word w of out_i) and, for the composed
// Barrett, its quotient in one pass (kernels/variants/barrett_instances.cu):
// x_i's rows are words [x_lo, x_lo + x_words) of x_i << s (s = shift[0];
// x_i has x_src_words words; q1), x_i's row is added at word add_at of the
// product (q = P_hi + q1), words from write_lo on stored at w - write_lo,
// and the last word (q's bit N) to top[i].
struct ImmaArgs {
  const uint32_t* x = nullptr;
  uint32_t x_words = 0, x_stride = 0, x_src_words = 0, x_lo = 0;
  const uint32_t* shift = nullptr;  // null: s = 0
  const uint32_t* k = nullptr;
  uint32_t k_words = 0;
  uint32_t* out = nullptr;
  uint32_t out_lo = 0, out_words = 0, out_stride = 0, write_lo = 0;
  uint32_t add_at = 0;        // 0: nothing added
  uint32_t* top = nullptr;    // null: the last word stored like the others
  // The composed Barrett's quotient: the product's word just below q (w + g).
  // Where it is below kQuotientExactLimit (and q's bit N is 0), q is exactly
  // floor(x / m') (kernels/modular/barrett.hpp) and the wgmma kernel sets
  // kQuotientExact in top[i]; 0: never set.
  uint32_t exact_word = 0;
  // The product's words added to those out (and top) holds, with their
  // carries, instead of stored: the parts of x after the first where a
  // product is split by x (imma_x_part_args). The wgmma kernel only.
  bool add_to_out = false;
  // Where set (a split product's parts): words [low_lo, store_lo) of instance
  // i, which are computed but not stored, go to low + i low_stride + (word -
  // low_lo) (added to, with add_to_out), so that the parts' sum carries into
  // word store_lo as the whole product's words do. Only computed words are
  // touched: low_lo may lie below the first tile.
  uint32_t* low = nullptr;
  uint32_t low_lo = 0, low_stride = 0;
  // add_to_out: out (and top) hold the words [held_lo, held_end) only, the
  // others are taken as 0 (imma_x_part_args: the first part stores no words
  // past its own product's end; imma_barrett_rem_low_part_args: the high
  // part none below its own place).
  uint32_t held_lo = 0, held_end = 0xffffffffu;
  uint64_t count = 0;
  // The composed Barrett's remainder in its q m' pass (barrett_rem_wgmma_kernel,
  // imma_barrett_remainder_args); rem == nullptr: the plain product.
  const uint32_t* rem_t = nullptr;      // t, rem_t_stride words apart
  uint32_t rem_t_stride = 0;
  const uint32_t* rem_shift = nullptr;  // s = rem_shift[0]: the remainder only for s = 0
  const uint32_t* rem_q_top = nullptr;  // q's bit N, one word an instance
  uint32_t* rem = nullptr;              // rem_words words an instance, rem_words apart
  uint32_t rem_words = 0;               // q's words w (x_words but where q m' is split)
};

// Bit 31 of the composed Barrett's q_top[i] (ImmaArgs::exact_word): q_i is
// floor(x_i / m'), so r = x_i - q_i m' is below m' and no correction runs.
// Bit 0 stays q's bit N; readers mask it.
constexpr uint32_t kQuotientExact = 1u << 31;
constexpr uint32_t kQuotientExactLimit = 0xfffffff0u;

// The plain product: out_i words [out_lo, out_words) of x_i * k.
inline ImmaArgs imma_product_args(uint32_t* out, uint32_t out_lo, uint32_t out_words, uint32_t out_stride,
                                  const uint32_t* x, uint32_t x_words, uint32_t x_stride, uint64_t count,
                                  const uint32_t* k, uint32_t k_words) {
  ImmaArgs a;
  a.x = x, a.x_words = x_words, a.x_stride = x_stride, a.x_src_words = x_words;
  a.k = k, a.k_words = k_words;
  a.out = out, a.out_lo = out_lo, a.out_words = out_words, a.out_stride = out_stride;
  a.count = count;
  return a;
}
// The constant's words as the product takes them: k, and for the composed
// Barrett's quotient (add_at != 0) k + 2^(32 add_at), so that the product
// itself adds x's row at word add_at (mul_const_wgmma.cuh). x k then has at
// most x_words + imma_const_words words.
constexpr uint32_t imma_const_words(const ImmaArgs& a) {
  return a.add_at && a.add_at + 1 > a.k_words ? a.add_at + 1 : a.k_words;
}

// The word the wgmma kernels' first tile starts at (WgPass, mul_const_wgmma.cuh):
// up to 7 below out_lo, so that a tile row's 32 words lie 32-byte aligned
// against write_lo; and the tiles a product's words [that, out_words) take.
BIGTUNE_HD inline uint32_t wgmma_first_tile_word(const ImmaArgs& a) {
  const uint32_t lead = (a.out_lo - a.write_lo) % 8;  // (mod 2^32 where out_lo < write_lo: 8 divides it)
  return a.out_lo - (lead < a.out_lo ? lead : a.out_lo);
}
BIGTUNE_HD inline uint32_t wgmma_tiles(const ImmaArgs& a) {
  const uint32_t first = wgmma_first_tile_word(a);
  return a.out_words > first ? (a.out_words - first + 31) / 32 : 0;
}

// Part [d, d + h) of x's words: x = sum of 2^(32 d) x_d, so x k = sum of
// 2^(32 d) x_d k, and each part is the same product's words from x_d alone,
// at their places (word j of x_d k is word j + d of x k). Parts after the
// first add (add_to_out) to what the first stored. The first part's product
// ends at word h + imma_const_words: it stores no words past that (nor
// top), and the second takes out's words from there on as 0 (held_end),
// so the first runs no tiles of zeros (at 32 Kbit the quotient's first part
// had 16 of its 33; H200, session 29: mulmod 1.02x there, 1.012x at 40000
// bits in three parts).
// Without a low buffer each part's words start at store_lo: the carry that
// the parts' words below store_lo would pass up in their sum is lost, so
// words from store_lo on come out at most (parts - 1) units of word store_lo
// low; exact where store_lo is 0 (the plain product from word 0) or with
// `low` (ImmaArgs::low: the words below store_lo summed there too). A part
// of x past out_words has nothing to add.
// h is the first part's words (where its product ends); the part takes
// `width` words of x (0: h, or what is left of x; imma_x_part_width).
inline ImmaArgs imma_x_part_args(const ImmaArgs& a, uint32_t d, uint32_t h, bool add, uint32_t width = 0) {
  ImmaArgs p = a;
  p.x_lo = a.x_lo + d;
  p.x_words = width ? width : a.x_words - d < h ? a.x_words - d : h;
  p.out_lo = a.out_lo > d ? a.out_lo - d : 0;
  p.out_words = a.out_words > d ? a.out_words - d : 0;
  if (a.write_lo >= d) {
    p.write_lo = a.write_lo - d;
  } else {  // (out's row starts below word d: the part's word 0 is the row's word d - write_lo)
    p.write_lo = 0;
    p.out = a.out + (d - a.write_lo);
  }
  p.add_to_out = add;
  // The composed Barrett's exact mark needs the whole product's word below
  // q: only the last part of a product with a low buffer has it (the
  // earlier parts' words below store_lo summed in `low`, its own and the
  // carries added: the words of one launch, its tiles starting at the same
  // word). At 32 Kbit the q m' pass then stops at word w and skips its
  // corrections, as below 10 Kbit.
  p.exact_word = a.exact_word && a.low && d + p.x_words >= a.x_words ? a.exact_word - d : 0;
  const uint32_t first_end = h + imma_const_words(a);  // (the first part's, in the whole's words)
  if (d == 0 && h < a.x_words && first_end < p.out_words) {
    p.out_words = first_end;
    p.top = nullptr;  // (the whole's top word lies past it)
  }
  if (add && d == h && first_end < a.out_words) p.held_end = first_end - d;
  if (a.low) {  // (the part's word 0 is the whole's word d)
    p.low_lo = a.low_lo > d ? a.low_lo - d : 0;
    p.low = a.low + (d > a.low_lo ? d - a.low_lo : 0);
  }
  return p;
}

// x's words of part i of `parts` whose first takes h
// (launch_mul_const_wgmma_parts): h each, the last the rest of x (more than
// h where mul_const_wgmma_part_words made the first smaller).
inline uint32_t imma_x_part_width(uint32_t x_words, uint32_t h, uint32_t parts, uint32_t i) {
  const uint32_t left = x_words - i * h;
  return i + 1 == parts || left < h ? left : h;
}

// The composed Barrett's quotient with guard words (launch_barrett_imma_quotient,
// kernels/modular/barrett.hpp): q = floor(q1' mu2 / 2^(N+32+32g)) for q1' =
// words [w - g, 2w) of t_i << shift[0] (g = x_guard, barrett_x_guard_words)
// and mu2 = 2^(N+32) + mu2_lo (mu2_lo of w + 1 words), from the columns of
// words >= w + g - 1: x_i's row added at word w + 1 is the 2^(N+32)
// (q1' mu2 = q1' mu2_lo + q1' 2^(32 (w + 1))). q's w words (words
// [w + g + 1, 2w + g + 1) of the product) to q + i w, its bit N (word
// 2w + g + 1) to q_top[i], with kQuotientExact where word w + g says q is
// exact (the wgmma kernel).
inline ImmaArgs imma_barrett_quotient_args(uint32_t* q, uint32_t* q_top, const uint32_t* t, uint32_t t_words,
                                           uint64_t count, const uint32_t* mu2_lo, const uint32_t* shift, uint32_t w,
                                           uint32_t x_guard) {
  ImmaArgs a;
  a.x = t, a.x_words = w + x_guard, a.x_stride = t_words, a.x_src_words = t_words, a.x_lo = w - x_guard;
  a.shift = shift;
  a.k = mu2_lo, a.k_words = w + 1;
  a.out = q, a.out_lo = w + x_guard - 1, a.out_words = 2 * w + x_guard + 2, a.out_stride = w;
  a.write_lo = w + x_guard + 1;
  a.add_at = w + 1, a.top = q_top;
  a.exact_word = w + x_guard;
  a.count = count;
  return a;
}

// The composed Barrett's q m' pass with its finish (launch_barrett_imma_remainder,
// kernels/modular/barrett.hpp, N = 32 w bits): for s = shift[0] = 0, rem_i
// (w words) = (t_i - q_i m') mod m' where q_i = q + i w plus q_top[i] 2^N
// and r = t_i - q_i m' < 6 m' (any quotient up to five short; the guard
// words' is at most one short); for s > 0 the plain product of the rows form
// (words [0, w + 2) of q_i m' to p + i 2w) and rem untouched.
inline ImmaArgs imma_barrett_remainder_args(uint32_t* rem, uint32_t* p, const uint32_t* q, const uint32_t* q_top,
                                            const uint32_t* t, uint32_t t_words, uint64_t count,
                                            const uint32_t* mprime, const uint32_t* shift, uint32_t w) {
  ImmaArgs a = imma_product_args(p, 0, w + 2, 2 * w, q, w, w, count, mprime, w);
  a.rem_t = t, a.rem_t_stride = t_words, a.rem_shift = shift, a.rem_q_top = q_top, a.rem = rem;
  a.rem_words = w;
  return a;
}

// The same pass where the remainder kernel's A (64 rows of q) does not fit
// whole (32-44 Kbit): q = q_lo + 2^(32 h) q_hi. First q_hi m', a plain
// product stored at p's words [h, w + 2) (imma_barrett_rem_high_part_args);
// then the remainder kernel on q_lo (imma_barrett_rem_low_part_args), which
// adds those words to q_lo m''s before r = t - q m', so that the finish runs
// in the pass as below ~10 Kbit (at 32 Kbit the rows form after the parts
// took 0.84 ms of 22.7; ncu, H200, session 29). For s > 0 the two give p =
// q m' for the rows form, as the plain parts do.
inline ImmaArgs imma_barrett_rem_high_part_args(const ImmaArgs& a, uint32_t h) {
  ImmaArgs p = imma_x_part_args(a, h, a.x_words - h, false);
  p.rem = nullptr;  // (a plain product)
  return p;
}
inline ImmaArgs imma_barrett_rem_low_part_args(const ImmaArgs& a, uint32_t h) {
  ImmaArgs p = a;
  p.x_words = h;
  p.add_to_out = true;
  p.held_lo = h;
  return p;
}

// The fused Barrett kernel's two passes (kernels/block/barrett_fused_wgmma.cuh,
// launch_barrett_imma_reduction): quotient = imma_barrett_quotient_args,
// remainder = imma_barrett_remainder_args for the same t, q_top and w. The
// remainder's q rows are not read (q stays on chip); q_top is written as
// the separate quotient kernel writes it, for the rows form's finish where
// s > 0.
struct BarrettFusedArgs {
  ImmaArgs quotient, remainder;
};

}  // namespace bigtune::kernels::block
