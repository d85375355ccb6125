// The warp-level modular kernels' own code (kernels/variants/
// warp_mod_kernels.cuh, kernels/warp/montgomery.cuh) on the CPU: 32 host
// threads per warp with emulated intrinsics (tests/support/warp_emulation.hpp),
// every result checked against GMP. Not a speed test and not a substitute for
// the GPU tests (tests/gpu/mod_vs_gmp_test.cpp runs every registry variant,
// these included). Small counts and short exponents: every emulated
// intrinsic is a switch through 32 host fibers.
#include "tests/support/warp_emulation.hpp"
// (the harness first: it defines the CUDA keywords the kernel headers use)
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/variants/warp_mod_kernels.cuh"
#include "kernels/warp/montgomery_sqr2.cuh"
#include "tests/support/operands.hpp"
#include "tests/support/warp_emulation_io.hpp"

namespace bigtune {
namespace {

using test::get;
using test::launch_host;
using test::limbs32;
using test::put;

using kernels::KernelArgs;
namespace kv = kernels::variants;

constexpr uint32_t kPoison = 0xdeadbeefu;

enum class K { MulMod, SqrMod, PowM };

// One test batch: instance i gets a modulus of a kind chosen by i (random
// odd, 2^k + 1, 2^k - 1, 1, even), operands of any value below 2^bits
// (x >= m included: the documented rule is "reduced"), exponents from a list.
struct Batch {
  uint64_t bits, count;
  bool shared_m;
  std::vector<mpz_t> a, b, m, e;
};

void make_modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint64_t i) {
  switch (i % 7) {
    case 0: mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;  // 2^(bits-1) + 1
    case 1: mpz_set_ui(m, 0), mpz_setbit(m, bits), mpz_sub_ui(m, m, 1); break;  // 2^bits - 1
    case 2: mpz_set_ui(m, 1); break;
    case 3: mpz_urandomb(m, rng, bits), mpz_setbit(m, 0), mpz_clrbit(m, 1); break;  // odd, may be short
    case 4: mpz_urandomb(m, rng, bits), mpz_clrbit(m, 0); break;  // even (or 0): the fallback's
    case 5: mpz_set_ui(m, 3); break;  // tiny: the setup's longest doubling run
    default: mpz_urandomb(m, rng, bits), mpz_setbit(m, bits - 1), mpz_setbit(m, 0); break;
  }
}

// Runs one kernel body over the batch; returns the result array. Mont: the
// Montgomery product (digit-serial or block, kernels/warp/montgomery*.cuh).
template <int L, int Q, class Mont, bool kGlobal>
std::vector<uint32_t> run(K op, const Batch& in, uint32_t window, uint32_t e_bits, uint32_t* fallback_word) {
  const uint32_t n = limbs32(in.bits), en = limbs32(e_bits);
  const uint64_t count = in.count;
  std::vector<uint32_t> a(count * n), b(count * n), m((in.shared_m ? 1 : count) * n), e(count * en);
  std::vector<uint32_t> r(count * n, kPoison);
  for (uint64_t i = 0; i < count; ++i) {
    put(a, i, n, in.a[i]);
    put(b, i, n, in.b[i]);
    if (!in.shared_m) put(m, i, n, in.m[i]);
    if (op == K::PowM) put(e, i, en, in.e[i]);
  }
  if (in.shared_m) put(m, 0, n, in.m[0]);
  // The global-table powm keeps its tables past the header (warp_mod_layout.hpp).
  std::vector<uint32_t> scratch(kGlobal ? kernels::warp::warp_mod_global_table_offset(L, Q) +
                                              count * kernels::warp::warp_mod_global_table_words(L, Q, window)
                                        : kernels::warp::warp_mod_scratch_words(L, Q),
                                0);
  KernelArgs args;
  args.r = r.data();
  args.a = a.data();
  args.b = op == K::MulMod ? b.data() : nullptr;
  args.m = m.data();
  args.e = e.data();
  args.count = count;
  args.bits = in.bits;
  args.limbs = args.b_limbs = args.m_limbs = args.out_limbs = n;
  args.e_limbs = en;
  args.m_shared = in.shared_m;
  args.shift = window;
  args.scratch = scratch.data();
  args.ipb = 32 / L;
  args.threads_per_instance = L;
  if (in.shared_m) emu::run_warp(0, [&](unsigned) { kv::warp_mod_prepare_body<L, Q>(args); });
  const uint64_t blocks = (count + args.ipb - 1) / args.ipb;
  const uint64_t stride = kv::warp_mod_table_stride(L, Q, window);
  for (uint64_t blk = 0; blk < blocks; ++blk) {
    std::vector<uint32_t> table(op == K::PowM ? args.ipb * stride : 1, kPoison);
    emu::run_warp(unsigned(blk), [&](unsigned) {
      if (op == K::PowM)
        kv::powm_warp_body<L, Q, Mont, kGlobal>(args, kGlobal ? nullptr : table.data());
      else
        kv::mulmod_warp_body<L, Q, Mont>(args);
    });
  }
  *fallback_word = scratch[0];
  return r;
}

template <int L, int Q, class Mont = kernels::warp::WarpMontgomery<L, Q>, bool kGlobal = false>
void check(K op, uint64_t bits, uint64_t count, bool shared_m, uint32_t window, uint32_t e_bits, uint64_t seed) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + seed);
  Batch in{bits, count, shared_m, std::vector<mpz_t>(count), std::vector<mpz_t>(count), std::vector<mpz_t>(count),
           std::vector<mpz_t>(count)};
  bool any_even = false;
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(in.a[i], in.b[i], in.m[i], in.e[i], nullptr);
    test::make_pair(in.a[i], in.b[i], rng, bits, i);
    make_modulus(in.m[i], rng, bits, shared_m ? seed : i);
    // e: 0, 1, 65537, 2^e_bits - 1, random of e_bits.
    switch (i % 5) {
      case 0: mpz_set_ui(in.e[i], 0); break;
      case 1: mpz_set_ui(in.e[i], 1); break;
      case 2: mpz_set_ui(in.e[i], e_bits >= 17 ? 65537 : 3); break;
      case 3: mpz_set_ui(in.e[i], 0), mpz_setbit(in.e[i], e_bits), mpz_sub_ui(in.e[i], in.e[i], 1); break;
      default: mpz_urandomb(in.e[i], rng, e_bits); break;
    }
  }
  for (uint64_t i = 0; i < count; ++i) any_even |= mpz_even_p(in.m[shared_m ? 0 : i]) != 0;
  uint32_t fallback = 0;
  const std::vector<uint32_t> r = run<L, Q, Mont, kGlobal>(op, in, window, e_bits, &fallback);
  const uint32_t n = limbs32(bits);
  mpz_t want, got;
  mpz_inits(want, got, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    const mpz_t& m = in.m[shared_m ? 0 : i];
    if (mpz_even_p(m)) {  // left to the thread family's kernel: untouched here
      for (uint32_t j = 0; j < n; ++j) ASSERT_EQ(r[i * n + j], kPoison) << "even modulus written, instance " << i;
      continue;
    }
    switch (op) {
      case K::MulMod: mpz_mul(want, in.a[i], in.b[i]), mpz_mod(want, want, m); break;
      case K::SqrMod: mpz_mul(want, in.a[i], in.a[i]), mpz_mod(want, want, m); break;
      case K::PowM: mpz_powm(want, in.a[i], in.e[i], m); break;
    }
    get(got, r, i, n);
    ASSERT_EQ(mpz_cmp(want, got), 0) << "op " << int(op) << " L " << L << " Q " << Q << " bits " << bits
                                     << " shared m " << shared_m << " w " << window << " instance " << i
                                     << "\n a = " << test::hex(in.a[i]) << "\n b = " << test::hex(in.b[i])
                                     << "\n e = " << test::hex(in.e[i]) << "\n m = " << test::hex(m)
                                     << "\n want " << test::hex(want) << "\n got  " << test::hex(got);
  }
  EXPECT_EQ(fallback != 0, any_even) << "the fallback word says whether the thread kernel has work";
  mpz_clears(want, got, nullptr);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(in.a[i], in.b[i], in.m[i], in.e[i], nullptr);
  gmp_randclear(rng);
}

// Counts of one warp (32 / L instances) where the kinds of modulus allow:
// the per-instance kinds cycle with i % 7, so 8 instances cover all of them.
TEST(WarpModEmulation, MulModPerInstanceModulus) {
  check<4, 8>(K::MulMod, 1024, 8, false, 0, 1, 9100);
  check<4, 8>(K::MulMod, 65, 8, false, 0, 1, 9101);
  check<8, 4>(K::MulMod, 1000, 8, false, 0, 1, 9102);
  check<4, 4>(K::MulMod, 255, 8, false, 0, 1, 9103);
}

TEST(WarpModEmulation, SqrModAndSharedModulus) {
  check<4, 8>(K::SqrMod, 521, 8, false, 0, 1, 9110);
  for (uint64_t s = 0; s < 7; ++s) check<8, 4>(K::MulMod, 521, 4, true, 0, 1, 9120 + s);  // every kind of m
  check<32, 8>(K::MulMod, 4097, 1, true, 0, 1, 9129);  // 17 blocks of 8 limbs on 32 lanes
}

TEST(WarpModEmulation, PowmFixedWindow) {
  check<4, 8>(K::PowM, 1024, 8, false, 4, 20, 9130);  // e = 0, 1, 65537, 2^20 - 1, random
  check<8, 4>(K::PowM, 255, 4, false, 5, 30, 9131);
  for (uint64_t s = 0; s < 7; ++s) check<8, 4>(K::PowM, 300, 4, true, 3, 18, 9140 + s);
  check<8, 4>(K::PowM, 1000, 4, true, 4, 24, 9147);
}

// The block Montgomery product (kernels/warp/montgomery_block.cuh): the same
// batches on its own kernel bodies, every shape the registry has, odd sizes
// (a partial last block of Q limbs), each size limit (full S = L blocks).
template <int L, int Q>
void check_block(K op, uint64_t bits, uint64_t count, bool shared_m, uint32_t window, uint32_t e_bits,
                 uint64_t seed) {
  check<L, Q, kernels::warp::WarpMontgomeryBlock<L, Q>>(op, bits, count, shared_m, window, e_bits, seed);
}

// Kept small: the per-instance setup runs ~32 S modular doublings, each a
// few emulated ballots (the 4096- and 8192-bit limits are left to the GPU
// test, tests/gpu/warp_mod_vs_gmp_test.cpp).
TEST(WarpModEmulation, BlockMulModPerInstanceModulus) {
  check_block<4, 8>(K::MulMod, 1024, 8, false, 0, 1, 9200);  // the size limit of q8.l4
  check_block<4, 8>(K::MulMod, 65, 8, false, 0, 1, 9201);
  check_block<4, 8>(K::MulMod, 1000, 8, false, 0, 1, 9202);
  check_block<8, 8>(K::MulMod, 1025, 4, false, 0, 1, 9205);
  check_block<16, 8>(K::MulMod, 1500, 2, false, 0, 1, 9206);
  check_block<32, 8>(K::MulMod, 777, 1, false, 0, 1, 9209);
}

TEST(WarpModEmulation, BlockSqrModAndSharedModulus) {
  check_block<4, 8>(K::SqrMod, 521, 8, false, 0, 1, 9210);
  for (uint64_t s = 0; s < 7; ++s) check_block<4, 8>(K::MulMod, 300, 8, true, 0, 1, 9220 + s);  // every kind
  check_block<8, 8>(K::SqrMod, 2048, 4, true, 0, 1, 9229);  // the size limit of q8.l8
}

TEST(WarpModEmulation, BlockPowmFixedWindow) {
  check_block<4, 8>(K::PowM, 1024, 8, false, 4, 20, 9230);  // e = 0, 1, 65537, 2^20 - 1, random
  check_block<4, 8>(K::PowM, 255, 8, false, 4, 24, 9232);
  for (uint64_t s = 0; s < 7; ++s) check_block<4, 8>(K::PowM, 300, 8, true, 4, 18, 9240 + s);
}

// powm with the window table in global memory (powm_warp_global_kernel):
// both products, a partial last warp (absent segments have no table).
TEST(WarpModEmulation, PowmGlobalTable) {
  using kernels::warp::WarpMontgomery;
  using kernels::warp::WarpMontgomeryBlock;
  check<4, 8, WarpMontgomery<4, 8>, true>(K::PowM, 1024, 8, false, 4, 20, 9300);
  check<4, 8, WarpMontgomeryBlock<4, 8>, true>(K::PowM, 1000, 5, false, 5, 20, 9301);
  check<8, 8, WarpMontgomery<8, 8>, true>(K::PowM, 521, 3, false, 5, 18, 9302);
  for (uint64_t s = 0; s < 7; ++s) check<4, 8, WarpMontgomeryBlock<4, 8>, true>(K::PowM, 300, 8, true, 4, 18, 9310 + s);
}

// The Montgomery squaring (kernels/warp/montgomery_sqr.cuh, task powmsqr):
// sqrmod's first product and powm's squarings. Every lane count the registry
// has (its two-lane shift and pair schedule depend on L), each size limit
// (S = L blocks), partial sizes (S < L: T's high half shifted up L - S
// lanes), odd sizes, operands >= m, every kind of modulus. Small counts (the
// per-instance setup dominates the emulation's time); the 4096- and 8192-bit
// limits run in tests/gpu/warp_mod_vs_gmp_test.cpp and mod_vs_gmp_test.cpp.
// The squaring is what the kernels use (else these would test the product).
static_assert(kv::warp_mod_detail::has_sqr<kernels::warp::WarpMontgomerySqr<4, 8>>::value, "sqr used");
static_assert(!kv::warp_mod_detail::has_sqr<kernels::warp::WarpMontgomeryBlock<4, 8>>::value, "mul squares");

TEST(WarpModEmulation, SqrSqrMod) {
  using kernels::warp::WarpMontgomerySqr;
  check<32, 8, WarpMontgomerySqr<32, 8>>(K::SqrMod, 100, 1, false, 0, 1, 9411);  // S = 1 on 32 lanes
  check<8, 8, WarpMontgomerySqr<8, 8>>(K::SqrMod, 255, 4, false, 0, 1, 9412);    // S = 1 on 8 lanes
  check<4, 8, WarpMontgomerySqr<4, 8>>(K::SqrMod, 1024, 8, false, 0, 1, 9400);
  check<4, 8, WarpMontgomerySqr<4, 8>>(K::SqrMod, 65, 8, false, 0, 1, 9402);
  check<8, 8, WarpMontgomerySqr<8, 8>>(K::SqrMod, 2048, 2, false, 0, 1, 9404);
  check<8, 4, WarpMontgomerySqr<8, 4>>(K::SqrMod, 1000, 8, false, 0, 1, 9406);
  check<16, 8, WarpMontgomerySqr<16, 8>>(K::SqrMod, 3072, 1, false, 0, 1, 9408);
  check<32, 8, WarpMontgomerySqr<32, 8>>(K::SqrMod, 4097, 1, false, 0, 1, 9410);
  for (uint64_t s = 0; s < 7; ++s) check<4, 8, WarpMontgomerySqr<4, 8>>(K::SqrMod, 300, 8, true, 0, 1, 9420 + s);
}

TEST(WarpModEmulation, SqrPowmGlobalTable) {
  using kernels::warp::WarpMontgomerySqr;
  check<4, 8, WarpMontgomerySqr<4, 8>, true>(K::PowM, 1024, 8, false, 5, 20, 9430);
  check<4, 8, WarpMontgomerySqr<4, 8>, true>(K::PowM, 1000, 5, false, 6, 20, 9431);
  check<8, 8, WarpMontgomerySqr<8, 8>, true>(K::PowM, 2048, 2, false, 5, 18, 9432);
  check<16, 8, WarpMontgomerySqr<16, 8>, true>(K::PowM, 3000, 1, false, 5, 12, 9433);
  for (uint64_t s = 0; s < 7; ++s) check<4, 8, WarpMontgomerySqr<4, 8>, true>(K::PowM, 300, 8, true, 4, 18, 9440 + s);
}

// Two-lane segments (task powm1k, kernels/warp/montgomery_sqr2.cuh and L = 2
// in montgomery.cuh / montgomery_block.cuh): 16 instances per warp. The
// digit-serial product (the modulus setup's), the block product (the base
// class of the squaring's), the two-lane squaring and its product (the cross
// product split by halves of a_1, the exchange of c_2 c_3 / c_4 c_5, S = 1
// and S = 2; quotient digits from lane 0), and powm.bgsqr.u32.q16.l2's body;
// Q = 16 (the registry's) and Q = 8 (other chunk sizes H). Sizes: the limit 1024 bits
// (S = 2 full), odd sizes below (65, 255: S = 1; 521, 1000), operands >= m,
// every kind of modulus (shared and per instance), e = 0, 1, 65537, all ones.
static_assert(kv::warp_mod_detail::has_sqr<kernels::warp::WarpMontgomerySqr2<16>>::value, "sqr2 used");

TEST(WarpModEmulation, TwoLaneProducts) {
  using kernels::warp::WarpMontgomery;
  check<2, 16, WarpMontgomery<2, 16>>(K::MulMod, 1024, 16, false, 0, 1, 9500);
  check<2, 16, WarpMontgomery<2, 16>>(K::MulMod, 65, 16, false, 0, 1, 9501);
  check_block<2, 16>(K::MulMod, 1024, 16, false, 0, 1, 9502);
  check_block<2, 16>(K::MulMod, 1000, 16, false, 0, 1, 9503);
  check_block<2, 16>(K::MulMod, 255, 16, false, 0, 1, 9504);
  check_block<2, 8>(K::MulMod, 511, 16, false, 0, 1, 9505);
  for (uint64_t s = 0; s < 7; ++s) check_block<2, 16>(K::SqrMod, 700, 8, true, 0, 1, 9510 + s);
}

TEST(WarpModEmulation, TwoLaneSqr) {
  using kernels::warp::WarpMontgomerySqr2;
  check<2, 16, WarpMontgomerySqr2<16>>(K::MulMod, 1024, 16, false, 0, 1, 9519);  // its mul (quotient from lane 0)
  check<2, 16, WarpMontgomerySqr2<16>>(K::SqrMod, 1024, 16, false, 0, 1, 9520);
  check<2, 16, WarpMontgomerySqr2<16>>(K::SqrMod, 1000, 16, false, 0, 1, 9521);
  check<2, 16, WarpMontgomerySqr2<16>>(K::SqrMod, 521, 16, false, 0, 1, 9522);
  check<2, 16, WarpMontgomerySqr2<16>>(K::SqrMod, 255, 16, false, 0, 1, 9523);  // S = 1
  check<2, 16, WarpMontgomerySqr2<16>>(K::SqrMod, 65, 16, false, 0, 1, 9524);
  check<2, 8, WarpMontgomerySqr2<8>>(K::SqrMod, 512, 16, false, 0, 1, 9525);
  check<2, 8, WarpMontgomerySqr2<8>>(K::SqrMod, 200, 16, false, 0, 1, 9526);  // S = 1
  for (uint64_t s = 0; s < 7; ++s) check<2, 16, WarpMontgomerySqr2<16>>(K::SqrMod, 1024, 8, true, 0, 1, 9530 + s);
}

TEST(WarpModEmulation, TwoLanePowmGlobalTable) {
  using kernels::warp::WarpMontgomerySqr2;
  check<2, 16, WarpMontgomerySqr2<16>, true>(K::PowM, 1024, 16, false, 5, 20, 9540);
  check<2, 16, WarpMontgomerySqr2<16>, true>(K::PowM, 1000, 5, false, 6, 12, 9541);  // a partial warp
  check<2, 16, WarpMontgomerySqr2<16>, true>(K::PowM, 255, 6, false, 5, 12, 9542);
  check<2, 16, WarpMontgomerySqr2<16>, true>(K::PowM, 521, 5, false, 5, 12, 9544);
  for (uint64_t s = 0; s < 7; ++s)
    check<2, 16, WarpMontgomerySqr2<16>, true>(K::PowM, s % 2 ? 1024 : 400, 3, true, 5, 10, 9550 + s);
}

// The 16-Kbit warp powm of task powmregs (powm.bgsqr.u32.q16.l32...,
// kernels/variants/warp_mod_regs_instances.cu): the squaring on a full warp of
// Q = 16 blocks, a shape no other variant has. Its limit (S = L = 32), an odd
// size one limb short of it, a partial size (S = 18 < L: T's high half shifted
// up), operands >= m, a per-instance and a shared modulus of every kind; short
// exponents (the emulation's time), the full ones run on the GPU
// (tests/gpu/warp_mod_vs_gmp_test.cpp).
TEST(WarpModEmulation, SqrPowm16Kbit) {
  using kernels::warp::WarpMontgomerySqr;
  // 5 instances: e = 0, 1, 3, 2^8 - 1, random of 8 bits; moduli 2^(b-1) + 1,
  // 2^b - 1, 1, odd, even (the fallback's: left untouched). Window 3 and
  // short exponents keep it to seconds; the GPU suite runs full exponents.
  check<32, 16, WarpMontgomerySqr<32, 16>, true>(K::PowM, 16384, 5, false, 3, 8, 9450);
  check<32, 16, WarpMontgomerySqr<32, 16>, true>(K::PowM, 9000, 4, false, 2, 6, 9452);  // S = 18 < L
  check<32, 16, WarpMontgomerySqr<32, 16>, true>(K::PowM, 16351, 5, true, 3, 6, 9470);  // shared full odd m
}

}  // namespace
}  // namespace bigtune
