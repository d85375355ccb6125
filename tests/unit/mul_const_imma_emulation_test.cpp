// The tensor-core product by a shared constant (kernels/block/mul_const_imma.cuh,
// the reduction products of `<op>.tcbarrett.*`) on the host emulation: the
// very kernel, its eight warps as 256 host fibers with __syncthreads, and
// mma.sync m16n8k32.u8 played from its fragment layout
// (tests/support/warp_emulation.hpp). Against GMP: exact low words, the
// high words from the upper columns alone (less than 2^30 low at word
// out_lo, at most one above it), and the
// composed Barrett's quotient q = q1 + P_hi for shifts 0 - 63; constants
// and operands of odd lengths, all-ones (carries through every column sum
// and every chunk), products of one to three 512-byte chunks (the composed
// Barrett's q m' shape: n + 1 of 2n words, its last chunk a few columns), a grid
// smaller than the groups of 16 instances (blocks loop over groups) and a
// last group partly filled. Shared memory starts poisoned, as on a GPU it
// starts undefined. Not a speed test; the GPU tests
// (tests/gpu/barrett_vs_gmp_test.cpp, TensorCoreReductionProducts) check
// the compiled kernel.
#include "tests/support/warp_emulation.hpp"  // first: the CUDA names, then the kernel

#include <gmp.h>
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "kernels/block/barrett_fused_wgmma.cuh"
#include "kernels/block/mul_const_imma.cuh"
#include "kernels/block/mul_const_wgmma.cuh"
#include "kernels/block/mul_const_wgmma_pair.cuh"
#include "kernels/modular/barrett.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

namespace kb = kernels::block;
using test::hex;
using test::make_operand;
using test::OperandKind;

// The kernels that take ImmaArgs: the mma.sync one (16 instances a group)
// and the wgmma one (64 a group, sm_90a). Counts give three groups, the last
// partly filled; a grid of two blocks makes block 0 take groups 0 and 2.
struct Kernel {
  const char* name;
  void (*kernel)(kb::ImmaArgs);
  unsigned warps;
  uint64_t (*smem)(const kb::ImmaArgs& args);
  uint64_t count;
};
const Kernel kKernels[] = {
    {"imma", &kb::mul_const_imma_kernel, kb::kImmaWarps,
     [](const kb::ImmaArgs& a) { return kb::ImmaShape::of(a.x_words, a.k_words).smem_bytes(); }, 40},
    {"wgmma", &kb::mul_const_wgmma_kernel, kb::kWgmmaThreads / 32,
     [](const kb::ImmaArgs& a) { return kb::WgmmaShape::of(a).smem_bytes(); }, 150},
    // Two groups on the two blocks: one group a block, A by register loads
    // (the cp.async copies run where blocks take more groups than that).
    {"wgmma_one_group", &kb::mul_const_wgmma_kernel, kb::kWgmmaThreads / 32,
     [](const kb::ImmaArgs& a) { return kb::WgmmaShape::of(a).smem_bytes(); }, 100},
    {"wgmma_pair", &kb::mul_const_wgmma_pair_kernel, kb::kWgPairThreads / 32,
     [](const kb::ImmaArgs& a) { return kb::WgmmaPairShape::of(a).smem_bytes(); }, 150},
};
void PrintTo(const Kernel& k, std::ostream* os) { *os << k.name; }
constexpr unsigned kGrid = 2;

void run(const Kernel& k, const kb::ImmaArgs& args) {
  const uint64_t smem = k.smem(args);
  for (unsigned b = 0; b < kGrid; ++b) {
    std::memset(emu::dynamic_shared(smem), 0xa5, smem);
    emu::run_block(b, kGrid, k.warps, [&](unsigned) { k.kernel(args); });
  }
}

// The remainder kernel (its add form for args.add_to_out, as
// launch_barrett_rem_wgmma picks it) on the grid, shared memory poisoned.
void run_rem_kernel(const kb::ImmaArgs& args) {
  const uint64_t smem = kb::wg_rem_smem_bytes(args);
  for (unsigned b = 0; b < kGrid; ++b) {
    std::memset(emu::dynamic_shared(smem), 0xa5, smem);
    emu::run_block(b, kGrid, kb::kWgmmaThreads / 32, [&](unsigned) {
      if (args.add_to_out)
        kb::barrett_rem_wgmma_add_kernel(args);
      else
        kb::barrett_rem_wgmma_kernel(args);
    });
  }
}

class MulConstEmulation : public testing::TestWithParam<Kernel> {};

// v's n words (test::put: a batch of one).
std::vector<uint32_t> words_of(const mpz_t v, uint32_t n) {
  std::vector<uint32_t> w(n);
  test::put(w, 0, n, v);
  return w;
}

// The value of words [lo, hi) of instance i (stride words apart).
void value_of(mpz_t v, const std::vector<uint32_t>& src, uint64_t i, uint32_t stride, uint32_t lo, uint32_t hi) {
  mpz_import(v, hi - lo, -1, 4, 0, 0, src.data() + i * stride + lo);
}

// want - got modulo 2^bits is below `limit` (1: got == want).
bool below_by_less_than(const mpz_t got, const mpz_t want, uint64_t bits, unsigned long limit) {
  mpz_t d;
  mpz_init(d);
  mpz_sub(d, want, got);
  mpz_fdiv_r_2exp(d, d, bits);
  const bool ok = mpz_cmp_ui(d, limit) < 0;
  mpz_clear(d);
  return ok;
}

// The cases' random state: the test seed plus `offset`, cleared at the end.
struct SeededRng {
  gmp_randstate_t state;
  explicit SeededRng(unsigned long offset) {
    gmp_randinit_default(state);
    gmp_randseed_ui(state, test::test_seed() + offset);
  }
  ~SeededRng() { gmp_randclear(state); }
  SeededRng(const SeededRng&) = delete;
  SeededRng& operator=(const SeededRng&) = delete;
  operator __gmp_randstate_struct*() { return state; }
};

OperandKind kind_of(uint64_t i) { return OperandKind(i % test::kOperandKinds); }

// xv's count values of `words` words (instance i of kind_of(i)), mpz_init'ed
// here, and their rows `stride` words apart (0xdeadbeef past each row).
std::vector<uint32_t> random_rows(SeededRng& rng, std::vector<mpz_t>& xv, uint32_t words, uint32_t stride) {
  std::vector<uint32_t> rows(xv.size() * stride, 0xdeadbeefu);
  for (uint64_t i = 0; i < xv.size(); ++i) {
    mpz_init(xv[i]);
    make_operand(xv[i], rng, 32ull * words, kind_of(i));
    const std::vector<uint32_t> w = words_of(xv[i], words);
    std::copy(w.begin(), w.end(), rows.begin() + i * stride);
  }
  return rows;
}

struct ProductCase {
  uint32_t x_words, k_words, out_lo, out_words;
};

// want = words [c.out_lo, c.out_words) of x k; got = those out holds for
// instance i (rows out_stride apart).
void product_words(const ProductCase& c, const mpz_t x, const mpz_t k, const std::vector<uint32_t>& out, uint64_t i,
                   uint32_t out_stride, mpz_t want, mpz_t got) {
  mpz_mul(want, x, k);
  mpz_fdiv_q_2exp(want, want, 32ull * c.out_lo);
  mpz_fdiv_r_2exp(want, want, 32ull * (c.out_words - c.out_lo));
  value_of(got, out, i, out_stride, c.out_lo, c.out_words);
}

TEST_P(MulConstEmulation, ProductMatchesGmp) {
  const Kernel& kernel = GetParam();
  const uint64_t kCount = kernel.count;
  SeededRng rng(7100);
  const ProductCase cases[] = {
      {1, 1, 0, 2},       {8, 8, 0, 16},     {17, 40, 0, 57},    {40, 17, 0, 57},  {94, 94, 0, 188},
      {94, 94, 0, 150},   {94, 94, 30, 188}, {93, 95, 92, 188},  {200, 64, 0, 264}, {64, 200, 130, 264},
      {128, 128, 0, 130}, {256, 256, 0, 258},  // the composed Barrett's q m': n + 1 of 2n words
      {8, 8, 0, 80},  // words past the product: tiles that no x block meets
      // a last tile of 1, 3 and 4 words (the wgmma kernel's 16-column tail),
      // from word 0 and from past out_lo
      {64, 64, 0, 129},   {40, 40, 0, 67},   {40, 40, 0, 68},   {100, 100, 70, 135}, {200, 64, 0, 129},
  };
  const OperandKind constant_kinds[] = {OperandKind::Uniform, OperandKind::AllOnes, OperandKind::Runs};
  mpz_t k, want, got;
  mpz_inits(k, want, got, nullptr);
  uint64_t checked = 0;
  for (const ProductCase& c : cases) {
    for (OperandKind kk : constant_kinds) {
      const uint32_t x_stride = c.x_words + 3, out_stride = c.out_words + 2;  // strides wider than the rows
      make_operand(k, rng, 32ull * c.k_words, kk);
      const std::vector<uint32_t> kw = words_of(k, c.k_words);
      std::vector<mpz_t> xv(kCount);
      const std::vector<uint32_t> xs = random_rows(rng, xv, c.x_words, x_stride);
      std::vector<uint32_t> out(kCount * out_stride, 0xdeadbeefu);
      run(kernel, kb::imma_product_args(out.data(), c.out_lo, c.out_words, out_stride, xs.data(), c.x_words, x_stride,
                                     kCount, kw.data(), c.k_words));
      const std::string what = std::string(kernel.name) + ": x " + std::to_string(c.x_words) + " words, k " + std::to_string(c.k_words) +
                               " words (kind " + std::to_string(int(kk)) + "), words [" + std::to_string(c.out_lo) +
                               ", " + std::to_string(c.out_words) + ")";
      const uint64_t bits = 32ull * (c.out_words - c.out_lo);
      for (uint64_t i = 0; i < kCount; ++i) {
        product_words(c, xv[i], k, out, i, out_stride, want, got);
        // From out_lo > 0 on the columns below are not summed: they add less
        // than 2^30 to word out_lo (a column sum is below 2^30), so that word
        // is off by less than 2^30 and the words above it by at most one.
        ASSERT_TRUE(below_by_less_than(got, want, bits, c.out_lo == 0 ? 1 : 1ul << 30))
            << what << ", instance " << i << "\n x = " << hex(xv[i]) << "\n k = " << hex(k) << "\n want " << hex(want)
            << "\n got  " << hex(got);
        // Nothing outside the words asked for is written.
        for (uint32_t j = 0; j < out_stride; ++j)
          if (j < c.out_lo || j >= c.out_words)
            ASSERT_EQ(out[i * out_stride + j], 0xdeadbeefu) << what << ", instance " << i << " word " << j;
        ++checked;
      }
      for (mpz_t& v : xv) mpz_clear(v);
    }
  }
  mpz_clears(k, want, got, nullptr);
  EXPECT_EQ(checked, std::size(cases) * std::size(constant_kinds) * kCount);
}

// q = floor(q1' mu2 / 2^(N+32+32g)) with guard words (kernels/modular/barrett.hpp):
// q1' = words [w - g, 2w) of t << s, mu2 = 2^(N+32) + mu2_lo (w + 1 words),
// from the columns of words >= w + g - 1 (at most one low): the pass of
// launch_barrett_imma_quotient, w words of q and its bit N apart; g = 4 as
// the launch takes it (all of x's low half for w = 2), and 1.
TEST_P(MulConstEmulation, BarrettQuotientMatchesGmp) {
  const Kernel& kernel = GetParam();
  const uint64_t kCount = kernel.count;
  SeededRng rng(7200);
  // 130: the output's w + 3 words span two chunks; 30: q's top word alone in a tile of
  // the wgmma kernel that no x block meets; 56: tiles 32-byte aligned against q's
  // words take one more tile than 16-byte aligned ones (kept: the fallback ran 0.866x, session 28)
  const uint32_t widths[] = {2, 8, 30, 46, 56, 130};
  const uint32_t shifts[] = {0, 1, 31, 32, 33, 63};
  mpz_t mu, q1, want, got, top;
  mpz_inits(mu, q1, want, got, top, nullptr);
  uint64_t checked = 0, marked = 0;
  for (uint32_t w : widths) {
    for (uint32_t s : shifts) {
      if (w == 130 && s % 32 != 1) continue;  // the widest only for shifts across a word boundary (time)
      const uint32_t t_words = 2 * w;
      make_operand(mu, rng, 32ull * w + 32, s % 2 ? OperandKind::AllOnes : OperandKind::Uniform);  // mu2_lo
      const std::vector<uint32_t> muw = words_of(mu, w + 1), shift{s};
      std::vector<uint32_t> ts(kCount * t_words), q(kCount * w, 0xdeadbeefu), q_top(kCount, 0xdeadbeefu);
      std::vector<mpz_t> tv(kCount);
      for (uint64_t i = 0; i < kCount; ++i) {
        mpz_init(tv[i]);
        make_operand(tv[i], rng, 64ull * w - s, kind_of(i));  // t << s fits its 2w words, as t < m^2 does
        const std::vector<uint32_t> tw = words_of(tv[i], t_words);
        std::copy(tw.begin(), tw.end(), ts.begin() + i * t_words);
      }
      const uint32_t g = s == 31 ? 1 : kernels::modular::barrett_x_guard_words(w);
      run(kernel, kb::imma_barrett_quotient_args(q.data(), q_top.data(), ts.data(), t_words, kCount, muw.data(),
                                              shift.data(), w, g));
      for (uint64_t i = 0; i < kCount; ++i) {
        mpz_mul_2exp(q1, tv[i], s);
        mpz_fdiv_q_2exp(q1, q1, 32ull * (w - g));
        mpz_setbit(mu, 32ull * (w + 1));  // mu2
        mpz_mul(want, q1, mu);
        mpz_clrbit(mu, 32ull * (w + 1));
        mpz_fdiv_q_2exp(want, want, 32ull * (w + g));
        const uint32_t below = uint32_t(mpz_fdiv_ui(want, 1ul << 32));  // the whole product's word just below q's
        mpz_fdiv_q_2exp(want, want, 32);
        const uint32_t bit_n = q_top[i] & ~kb::kQuotientExact;
        value_of(got, q, i, w, 0, w);
        mpz_set_ui(top, bit_n);
        mpz_mul_2exp(top, top, 32ull * w);
        mpz_add(got, got, top);
        ASSERT_TRUE(below_by_less_than(got, want, 32ull * w + 32, 2))
            << kernel.name << ": w " << w << " words, shift " << s << ", instance " << i << "\n t = " << hex(tv[i])
            << "\n mu2_lo = " << hex(mu) << "\n want " << hex(want) << "\n got  " << hex(got);
        ASSERT_LE(bit_n, 1u) << "q's bit N is one bit";
        // kQuotientExact (the wgmma kernel; barrett.hpp): only unshifted, with
        // q's bit N clear, and only where the word below q is below the limit
        // (the computed word, at most one below the whole product's).
        if (q_top[i] & kb::kQuotientExact) {
          ASSERT_EQ(s, 0u) << kernel.name << ": marked exact with a shift";
          ASSERT_EQ(bit_n, 0u) << kernel.name << ": marked exact with q's bit N";
          ASSERT_LE(below, kb::kQuotientExactLimit) << kernel.name << ": marked exact above the limit, instance " << i;
          ++marked;
        }
        ++checked;
      }
      for (mpz_t& v : tv) mpz_clear(v);
    }
  }
  mpz_clears(mu, q1, want, got, top, nullptr);
  EXPECT_GT(checked, 0u);
  const std::string name = kernel.name;
  if (name == "wgmma" || name == "wgmma_one_group") EXPECT_GT(marked, 0u) << "the wgmma kernel marks q exact";
}

// A product split by x (kb::imma_x_part_args; mul_const_wgmma_parts takes
// it where the whole shape does not fit the wgmma kernel, from 32 Kbit):
// the parts one after another on the wgmma kernel, the first storing, the
// others adding to it. From word 0 the words are exact; from out_lo > 0
// each added part may lose one carry into word out_lo, and the composed
// Barrett's quotient is then at most `parts` low (one from its guard words),
// unless a low buffer (ImmaArgs::low) sums the words below: then as exact as
// one launch.
TEST(MulConstWgmmaParts, MatchGmp) {
  const Kernel& kernel = kKernels[1];  // "wgmma": three groups on two blocks
  ASSERT_EQ(std::string(kernel.name), "wgmma");
  const uint64_t kCount = kernel.count;
  SeededRng rng(7400);
  // As launch_mul_const_wgmma_parts: the first `h` words of x (0: an even
  // split), the parts after it as many, the last the rest.
  const auto run_parts = [&](const kb::ImmaArgs& args, uint32_t parts, uint32_t h = 0) {
    if (h == 0) h = (args.x_words + 8 * parts - 1) / (8 * parts) * 8;
    uint32_t launched = 0;
    for (uint32_t i = 0, d = 0; i < parts && d < args.x_words; ++i, d += h) {
      const kb::ImmaArgs part = kb::imma_x_part_args(args, d, h, d > 0, kb::imma_x_part_width(args.x_words, h, parts, i));
      if (part.out_words <= part.out_lo) continue;
      Kernel k = kernel;
      if (part.add_to_out) k.kernel = &kb::mul_const_wgmma_add_kernel;  // (as launch_mul_const_wgmma)
      run(k, part), ++launched;
    }
    return launched;
  };
  mpz_t k, want, got, top, q1;
  mpz_inits(k, want, got, top, q1, nullptr);
  uint64_t checked = 0, marked = 0;
  // Plain products: {x words, k words, out_lo, out_words}; the last two as
  // the composed Barrett's q m' (words [0, w + 2)) and a high half.
  const ProductCase cases[] = {{40, 40, 0, 80}, {94, 60, 0, 154}, {64, 64, 0, 66}, {93, 95, 30, 188}, {128, 128, 0, 130}};
  for (const ProductCase& c : cases) {
    for (uint32_t parts : {2u, 3u, 5u}) {
      const bool with_low = parts == 5;
      const uint32_t x_stride = c.x_words + 3, out_stride = c.out_words + 2;
      make_operand(k, rng, 32ull * c.k_words, parts == 2 ? OperandKind::AllOnes : OperandKind::Uniform);
      const std::vector<uint32_t> kw = words_of(k, c.k_words);
      std::vector<mpz_t> xv(kCount);
      const std::vector<uint32_t> xs = random_rows(rng, xv, c.x_words, x_stride);
      std::vector<uint32_t> out(kCount * out_stride, 0xdeadbeefu);
      kb::ImmaArgs args = kb::imma_product_args(out.data(), c.out_lo, c.out_words, out_stride, xs.data(), c.x_words,
                                                x_stride, kCount, kw.data(), c.k_words);
      std::vector<uint32_t> low(kCount * 8, 0xdeadbeefu);
      if (with_low) args.low = low.data(), args.low_lo = c.out_lo >= 8 ? c.out_lo - 8 : 0, args.low_stride = 8;
      EXPECT_GE(run_parts(args, parts), 2u);
      const uint64_t bits = 32ull * (c.out_words - c.out_lo);
      for (uint64_t i = 0; i < kCount; ++i) {
        product_words(c, xv[i], k, out, i, out_stride, want, got);
        ASSERT_TRUE(below_by_less_than(got, want, bits, c.out_lo == 0 ? 1 : (1ul << 30) + (with_low ? 0 : parts)))
            << parts << " parts, x " << c.x_words << " words, k " << c.k_words << ", words [" << c.out_lo << ", "
            << c.out_words << "), instance " << i << "\n want " << hex(want) << "\n got  " << hex(got);
        for (uint32_t j = 0; j < out_stride; ++j)
          if (j < c.out_lo || j >= c.out_words) ASSERT_EQ(out[i * out_stride + j], 0xdeadbeefu) << "word " << j;
        ++checked;
      }
      for (mpz_t& v : xv) mpz_clear(v);
    }
  }
  // The composed Barrett's quotient (as BarrettQuotientMatchesGmp), in parts.
  // parts 1: two uneven parts, the first 16 words fewer than an even split
  // (mul_const_wgmma_part_words gives the first part up to 24 fewer).
  for (uint32_t w : {46u, 64u}) {
    for (uint32_t s : {0u, 33u}) {
      for (uint32_t parts : {2u, 3u, 5u, 1u}) {
        const bool with_low = parts != 3;
        const uint32_t t_words = 2 * w, g = kernels::modular::barrett_x_guard_words(w);
        make_operand(k, rng, 32ull * w + 32, parts == 2 ? OperandKind::AllOnes : OperandKind::Uniform);  // mu2_lo
        const std::vector<uint32_t> muw = words_of(k, w + 1), shift{s};
        std::vector<uint32_t> ts(kCount * t_words), q(kCount * w, 0xdeadbeefu), q_top(kCount, 0xdeadbeefu);
        std::vector<mpz_t> tv(kCount);
        for (uint64_t i = 0; i < kCount; ++i) {
          mpz_init(tv[i]);
          make_operand(tv[i], rng, 64ull * w - s, kind_of(i));
          const std::vector<uint32_t> tw = words_of(tv[i], t_words);
          std::copy(tw.begin(), tw.end(), ts.begin() + i * t_words);
        }
        kb::ImmaArgs args = kb::imma_barrett_quotient_args(q.data(), q_top.data(), ts.data(), t_words, kCount,
                                                           muw.data(), shift.data(), w, g);
        std::vector<uint32_t> low(kCount * 10, 0xdeadbeefu);  // (launch_barrett_imma_quotient's scratch)
        if (with_low) args.low = low.data(), args.low_lo = args.out_lo - 8, args.low_stride = 10;
        const uint32_t even2 = (w + g + 15) / 16 * 8;
        EXPECT_GE(parts == 1 ? run_parts(args, 2, even2 - 16) : run_parts(args, parts), 2u);
        // With the low buffer, the words and marks of one launch, bit for bit.
        std::vector<uint32_t> q_whole(kCount * w, 0xdeadbeefu), q_top_whole(kCount, 0xdeadbeefu);
        if (with_low) {
          kb::ImmaArgs whole = kb::imma_barrett_quotient_args(q_whole.data(), q_top_whole.data(), ts.data(), t_words,
                                                              kCount, muw.data(), shift.data(), w, g);
          run(kernel, whole);
          ASSERT_EQ(q, q_whole) << parts << " parts, w " << w << ", shift " << s << ": q against one launch";
          ASSERT_EQ(q_top, q_top_whole) << parts << " parts, w " << w << ", shift " << s << ": q_top against one launch";
        }
        for (uint64_t i = 0; i < kCount; ++i) {
          mpz_mul_2exp(q1, tv[i], s);
          mpz_fdiv_q_2exp(q1, q1, 32ull * (w - g));
          mpz_setbit(k, 32ull * (w + 1));  // mu2
          mpz_mul(want, q1, k);
          mpz_clrbit(k, 32ull * (w + 1));
          mpz_fdiv_q_2exp(want, want, 32ull * (w + g));
          const uint32_t below = uint32_t(mpz_fdiv_ui(want, 1ul << 32));  // the whole product's word just below q's
          mpz_fdiv_q_2exp(want, want, 32);
          value_of(got, q, i, w, 0, w);
          const uint32_t bit_n = q_top[i] & ~kb::kQuotientExact;
          mpz_set_ui(top, bit_n);
          mpz_mul_2exp(top, top, 32ull * w);
          mpz_add(got, got, top);
          ASSERT_TRUE(below_by_less_than(got, want, 32ull * w + 32, with_low ? 2 : parts + 1))
              << parts << " parts, w " << w << ", shift " << s << ", instance " << i << "\n want " << hex(want)
              << "\n got  " << hex(got);
          ASSERT_LE(bit_n, 1u);
          // kQuotientExact: only from the last part with a low buffer (the
          // whole word below q), as one launch marks it (BarrettQuotientMatchesGmp).
          if (q_top[i] & kb::kQuotientExact) {
            ASSERT_TRUE(with_low) << parts << " parts: marked exact without the low buffer's words";
            ASSERT_EQ(s, 0u) << "marked exact with a shift";
            ASSERT_EQ(bit_n, 0u) << "marked exact with q's bit N";
            ASSERT_LE(below, kb::kQuotientExactLimit) << "marked exact above the limit, instance " << i;
            ++marked;
          }
          ++checked;
        }
        for (mpz_t& v : tv) mpz_clear(v);
      }
    }
  }
  mpz_clears(k, want, got, top, q1, nullptr);
  EXPECT_EQ(checked, (std::size(cases) * 3 + 16) * kCount);
  EXPECT_GT(marked, 0u) << "the last part marks q exact where a low buffer holds the words below";
}

// The composed Barrett's q m' pass with its finish (barrett_rem_wgmma_kernel,
// launch_barrett_imma_remainder): for s = 0, rem = (t - q m') mod m' with
// q = q_lo + d 2^N and r = t - q m' anywhere in [0, 6 m'), the edges of every
// multiple of m' included (c m' - 1, c m', c m' + 1: the step that reads the
// top bits alone comes out one short there, and at R = M only the trial
// subtraction decides); for s > 0 the plain product for the rows form and
// rem untouched. Moduli of odd and even word counts, all-ones, 2^(N-1).
// From 30 words also split as launch_barrett_imma_remainder splits it where
// q's rows do not fit whole (32-44 Kbit): q's high words first (a plain
// product into p), then the remainder kernel on q's low words adding them.
TEST(BarrettRemainderEmulation, MatchesGmp) {
  // Three groups of 64 on two blocks, the last partly filled (A by cp.async),
  // or two (one group a block, A by register loads), width by width.
  const uint64_t kCounts[] = {150, 100};
  // q's low words in the split: an even split, or (64 and 190 words) 8 more
  // in the low part, as barrett_rem_wgmma_split takes where the high part
  // then needs one tile fewer.
  const auto split_words = [](uint32_t w) { return ((w + 1) / 2 + 7) / 8 * 8 + (w == 64 || w == 190 ? 8 : 0); };
  const auto run_split = [&](const kb::ImmaArgs& args) {  // (as launch_barrett_imma_remainder)
    const uint32_t h = split_words(args.x_words);
    run(kKernels[1], kb::imma_barrett_rem_high_part_args(args, h));  // ("wgmma": mul_const_wgmma_kernel)
    run_rem_kernel(kb::imma_barrett_rem_low_part_args(args, h));
  };
  SeededRng rng(7300);
  // 32-bit words of the modulus: one tile, q m''s top word alone in its tile (30),
  // word w at a tile's start (64), 4 Kbit (128), past two chunks (190)
  const uint32_t widths[] = {2, 6, 30, 64, 128, 190};
  const OperandKind modulus_kinds[] = {OperandKind::Uniform, OperandKind::AllOnes, OperandKind::HighBitOnly,
                                       OperandKind::EdgeLimbs};
  mpz_t m, t, want, got, bound;
  mpz_inits(m, t, want, got, bound, nullptr);
  uint64_t checked = 0, products = 0, instances = 0;  // instances: summed over the widths and splits
  for (uint32_t run = 0; run < 2 * std::size(widths); ++run) {  // each width whole, then split
    const uint32_t wi = run / 2, w = widths[wi];
    const bool split = run % 2 == 1;
    if (split && w < 30) continue;
    const uint64_t kCount = kCounts[wi % 2];
    instances += kCount;
    for (OperandKind mk : modulus_kinds) {
      const uint64_t bits = 32ull * w;
      make_operand(m, rng, bits, mk);
      mpz_setbit(m, bits - 1);  // m' = m << s: its top bit set
      mpz_mul_ui(bound, m, 6);
      // Mode 1 marks q exact (kQuotientExact, r below m') in every row but
      // row 5 of the second group: groups 0 and 2 stop at word w, group 1
      // runs the whole pass.
      for (uint32_t mode : {0u, 1u, 2u}) {
        const uint32_t s = mode == 2 ? 1 : 0;
        if (s && mk != OperandKind::Uniform) continue;  // the plain product: once a width
        const uint32_t t_words = 2 * w;
        const std::vector<uint32_t> mw = words_of(m, w), shift{s};
        std::vector<uint32_t> ts(kCount * t_words), qs(kCount * w), q_top(kCount), rem(kCount * w, 0xdeadbeefu),
            p(kCount * 2 * w, 0xdeadbeefu);
        std::vector<mpz_t> r0s(kCount), qv(kCount);
        for (uint64_t i = 0; i < kCount; ++i) {
          mpz_inits(r0s[i], qv[i], nullptr);
          make_operand(qv[i], rng, bits, kind_of(i));
          const bool marked = mode == 1 && i != kb::kWgInstances + 5;
          q_top[i] = marked ? kb::kQuotientExact : uint32_t(i / 3 % 2);  // q's bit N (0 where marked)
          const std::vector<uint32_t> qw = words_of(qv[i], w);
          std::copy(qw.begin(), qw.end(), qs.begin() + i * w);
          if (q_top[i] & 1) mpz_setbit(qv[i], bits);
          // r0: c m' + {-1, 0, 1} for c = 0..5 (inside [0, 6 m')), else uniform
          // below 6 m'; marked: 0, m' - 1 or uniform below m'
          const uint64_t c = i % 6, edge = i / 6 % 4;
          if (marked) {
            if (i % 5 == 0) mpz_set_ui(r0s[i], 0);
            else if (i % 5 == 1) mpz_sub_ui(r0s[i], m, 1);
            else mpz_urandomm(r0s[i], rng, m);
          } else if (edge < 3 && !(c == 0 && edge == 0)) {
            mpz_mul_ui(r0s[i], m, c);
            if (edge == 0) mpz_sub_ui(r0s[i], r0s[i], 1);
            if (edge == 2) mpz_add_ui(r0s[i], r0s[i], 1);
          } else {
            mpz_urandomm(r0s[i], rng, bound);
          }
          mpz_mul(t, qv[i], m);
          mpz_add(t, t, r0s[i]);
          mpz_fdiv_r_2exp(t, t, 2 * bits);  // the kernel reads words [0, w] alone
          const std::vector<uint32_t> tw = words_of(t, t_words);
          std::copy(tw.begin(), tw.end(), ts.begin() + i * t_words);
        }
        const kb::ImmaArgs args = kb::imma_barrett_remainder_args(rem.data(), p.data(), qs.data(), q_top.data(),
                                                                  ts.data(), t_words, kCount, mw.data(), shift.data(), w);
        split ? run_split(args) : run_rem_kernel(args);
        for (uint64_t i = 0; i < kCount; ++i) {
          const std::string what = "w " + std::to_string(w) + " words, modulus kind " + std::to_string(int(mk)) +
                                   ", s " + std::to_string(s) + (split ? ", split" : "") + ", instance " +
                                   std::to_string(i);
          if (s == 0) {
            mpz_mod(want, r0s[i], m);
            value_of(got, rem, i, w, 0, w);
            ASSERT_EQ(mpz_cmp(got, want), 0) << what << "\n m' = " << hex(m) << "\n r = " << hex(r0s[i])
                                             << "\n want " << hex(want) << "\n got  " << hex(got);
            for (uint32_t j = 0; j < 2 * w; ++j)  // (split: q's high words' product in [h, w + 2))
              if (!split || j < split_words(w) || j >= w + 2)
                ASSERT_EQ(p[i * 2 * w + j], 0xdeadbeefu) << what << ": p written";
            ++checked;
          } else {
            mpz_fdiv_r_2exp(want, qv[i], bits);  // q's low words times m'
            mpz_mul(want, want, m);
            mpz_fdiv_r_2exp(want, want, bits + 64);
            value_of(got, p, i, 2 * w, 0, w + 2);
            ASSERT_EQ(mpz_cmp(got, want), 0) << what << ": the plain product";
            for (uint32_t j = 0; j < w; ++j) ASSERT_EQ(rem[i * w + j], 0xdeadbeefu) << what << ": rem written";
            ++products;
          }
        }
        for (uint64_t i = 0; i < kCount; ++i) mpz_clears(r0s[i], qv[i], nullptr);
      }
    }
  }
  mpz_clears(m, t, want, got, bound, nullptr);
  EXPECT_EQ(checked, 2 * std::size(modulus_kinds) * instances);
  EXPECT_EQ(products, instances);
}

// The fused kernel (barrett_fused_wgmma_kernel, launch_barrett_imma_reduction
// at 2-4 Kbit): both passes for a group with q kept in shared memory. For
// s = 0, rem = t mod m' against GMP, for t below 2^(2N) of every operand
// kind (0, 1, all-ones, ...) with real moduli and mu2 (barrett.hpp); q_top
// and, for s = 1, the plain product p equal to what the separate kernels
// (the quotient kernel, then the remainder kernel) write. Three groups on two
// blocks (A of x by cp.async) and two (register loads); w a multiple of 8
// (the kernel's condition): one tile (8), 2, 3 and 4 Kbit (64, 96, 128).
TEST(BarrettFusedEmulation, MatchesGmpAndTheSeparatePasses) {
  // The quotient pass writes q's words into shared memory while its next
  // tile's wgmmas are in flight: each case runs with the wgmmas reading
  // shared memory at their issue and again at their wait
  // (emu::wgmma_deferred), the two ends of the hardware's window.
  for (const bool deferred : {false, true}) {
    emu::wgmma_deferred = deferred;
    SCOPED_TRACE(deferred ? "wgmma reads at the wait" : "wgmma reads at the issue");
  const uint64_t kCounts[] = {150, 100};
  const uint32_t widths[] = {8, 64, 96, 128};
  const OperandKind modulus_kinds[] = {OperandKind::Uniform, OperandKind::AllOnes, OperandKind::HighBitOnly};
  const auto run_fused = [](const kb::BarrettFusedArgs& args) {
    const uint64_t smem = kb::BarrettFusedShape::of(args).total;
    for (unsigned b = 0; b < kGrid; ++b) {
      std::memset(emu::dynamic_shared(smem), 0xa5, smem);
      emu::run_block(b, kGrid, kb::kWgmmaThreads / 32, [&](unsigned) { kb::barrett_fused_wgmma_kernel(args); });
    }
  };
  SeededRng rng(7400);
  mpz_t m, mu2, t, want, got;
  mpz_inits(m, mu2, t, want, got, nullptr);
  uint64_t checked = 0, products = 0;
  for (uint32_t wi = 0; wi < std::size(widths); ++wi) {
    const uint32_t w = widths[wi], g = kernels::modular::barrett_x_guard_words(w), t_words = 2 * w;
    const uint64_t kCount = kCounts[wi % 2], bits = 32ull * w;
    for (OperandKind mk : modulus_kinds) {
      make_operand(m, rng, bits, mk);
      mpz_setbit(m, bits - 1);  // m' = m << s: its top bit set
      // mu2 = floor((2^(2N+32) - 1) / m'), below 2^(N+33): mu2_lo = mu2 - 2^(N+32)
      mpz_set_ui(mu2, 0);
      mpz_setbit(mu2, 2 * bits + 32);
      mpz_sub_ui(mu2, mu2, 1);
      mpz_fdiv_q(mu2, mu2, m);
      mpz_clrbit(mu2, bits + 32);
      const std::vector<uint32_t> mw = words_of(m, w), muw = words_of(mu2, w + 1);
      for (uint32_t s : {0u, 1u}) {
        if (s && mk != OperandKind::Uniform) continue;  // the plain product: once a width
        const std::vector<uint32_t> shift{s};
        std::vector<mpz_t> tv(kCount);
        const std::vector<uint32_t> ts = random_rows(rng, tv, t_words - (s ? 1 : 0), t_words);  // (t << s below 2^(2N))
        std::vector<uint32_t> ts_padded(ts);
        for (uint64_t i = 0; i < kCount; ++i)  // (random_rows pads with 0xdeadbeef past a shorter row)
          for (uint32_t j = t_words - (s ? 1 : 0); j < t_words; ++j) ts_padded[i * t_words + j] = 0;
        std::vector<uint32_t> rem(kCount * w, 0xdeadbeefu), p(kCount * 2 * w, 0xdeadbeefu), q(kCount * w, 0xdeadbeefu),
            q_top(kCount, 0xdeadbeefu);
        kb::BarrettFusedArgs fused;
        fused.quotient = kb::imma_barrett_quotient_args(q.data(), q_top.data(), ts_padded.data(), t_words, kCount,
                                                        muw.data(), shift.data(), w, g);
        fused.remainder = kb::imma_barrett_remainder_args(rem.data(), p.data(), q.data(), q_top.data(),
                                                          ts_padded.data(), t_words, kCount, mw.data(), shift.data(), w);
        run_fused(fused);
        // The separate passes on the same inputs.
        std::vector<uint32_t> rem2(kCount * w, 0xdeadbeefu), p2(kCount * 2 * w, 0xdeadbeefu),
            q2(kCount * w, 0xdeadbeefu), q_top2(kCount, 0xdeadbeefu);
        run(kKernels[1], kb::imma_barrett_quotient_args(q2.data(), q_top2.data(), ts_padded.data(), t_words, kCount,
                                                         muw.data(), shift.data(), w, g));
        run_rem_kernel(kb::imma_barrett_remainder_args(rem2.data(), p2.data(), q2.data(), q_top2.data(), ts_padded.data(),
                                                t_words, kCount, mw.data(), shift.data(), w));
        for (uint64_t i = 0; i < kCount; ++i) {
          const std::string what = "w " + std::to_string(w) + " words, modulus kind " + std::to_string(int(mk)) +
                                   ", s " + std::to_string(s) + ", instance " + std::to_string(i);
          ASSERT_EQ(q_top[i], q_top2[i]) << what << ": q's top word";
          for (uint32_t j = 0; j < w; ++j) ASSERT_EQ(q[i * w + j], 0xdeadbeefu) << what << ": q written";
          if (s == 0) {
            mpz_mod(want, tv[i], m);
            value_of(got, rem, i, w, 0, w);
            ASSERT_EQ(mpz_cmp(got, want), 0) << what << "\n m' = " << hex(m) << "\n t = " << hex(tv[i])
                                             << "\n want " << hex(want) << "\n got  " << hex(got);
            ++checked;
          } else {
            for (uint32_t j = 0; j < w + 2; ++j) ASSERT_EQ(p[i * 2 * w + j], p2[i * 2 * w + j]) << what << ": p word " << j;
            for (uint32_t j = 0; j < w; ++j) ASSERT_EQ(rem[i * w + j], 0xdeadbeefu) << what << ": rem written";
            ++products;
          }
        }
        for (mpz_t& v : tv) mpz_clear(v);
      }
    }
  }
  mpz_clears(m, mu2, t, want, got, nullptr);
  emu::wgmma_deferred = false;
  EXPECT_EQ(checked, std::size(modulus_kinds) * (kCounts[0] * 2 + kCounts[1] * 2));
  EXPECT_EQ(products, kCounts[0] * 2 + kCounts[1] * 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, MulConstEmulation, testing::ValuesIn(kKernels),
                         [](const testing::TestParamInfo<Kernel>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace bigtune
