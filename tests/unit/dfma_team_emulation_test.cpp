// The team DFMA Montgomery powm (kernels/modular/dfma_team_montgomery.cuh) on
// the CPU: the 32 lanes of a warp played by fibers with emulated shuffles
// (tests/support/warp_emulation.hpp), the limb products by the host form of
// the DFMA split, every result checked against GMP's mpz_powm. Teams of 2 to
// 32 lanes; the registered shapes (2.5 to 16 Kbit) with short exponents,
// small shapes with longer ones; shapes with 64 NW + 54 <= 52 k run the
// Montgomery-friendly multiple of m (all but NW=16 T=4 S=5 and the 3 Kbit
// T=4 shape, which keep m: both paths). Odd moduli only:
// even ones never reach dteam::powm (the kernel hands them to the thread
// Montgomery fallback; the GPU tests cover that path). One exponent per warp:
// the emulation needs every lane of a warp to pass the same barriers, which
// the GPU does not.
#include "tests/support/warp_emulation.hpp"
// (the harness first: it defines the CUDA keywords the kernel headers use)
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "kernels/modular/dfma_team_montgomery.cuh"
#include "runtime/mpz_words.hpp"
#include "tests/support/modulus_kinds.hpp"
#include "tests/support/operands.hpp"

namespace bigtune {
namespace {

namespace dteam = kernels::modular::dteam;
namespace dmont = kernels::modular::dmont;

std::vector<uint64_t> words_of(const mpz_t v, uint32_t n) {
  std::vector<uint64_t> w(n);
  runtime::mpz_to_words(w.data(), n, 64ull * n, v);
  return w;
}

// The odd kinds of tests/support/modulus_kinds.hpp (full odd, 2^b - 1,
// 2^(b-1) + 1, 1, short odd, runs with bit 0 set, 3).
void make_odd_modulus(mpz_t m, gmp_randstate_t rng, uint64_t bits, uint64_t k) {
  static constexpr uint32_t kOddKinds[] = {0, 2, 3, 5, 7, 8, 9};
  test::make_modulus_of_kind(m, rng, bits, kOddKinds[k % 7]);
  mpz_setbit(m, 0);
}

// One warp of 32 / T teams, one exponent; returns the mismatches. Sqr: the
// squarings by dteam::mont_sqr (half the pairs, then the reduction);
// Sliding: sliding windows.
template <int NW, int T, int S, int W, bool Sqr, bool Sliding>
uint64_t run_warp_case(gmp_randstate_t rng, uint64_t bits, const mpz_t e, uint64_t salt) {
  constexpr int kK = T * S, kTeams = 32 / T;
  std::vector<uint64_t> x(kTeams * NW), m(kTeams * NW), r(kTeams * NW, 0xdeadbeefdeadbeefull);
  mpz_t v, want, got;
  mpz_inits(v, want, got, nullptr);
  for (int t = 0; t < kTeams; ++t) {
    make_odd_modulus(v, rng, bits, salt + uint64_t(t));
    const auto mw = words_of(v, NW);
    std::copy(mw.begin(), mw.end(), m.begin() + t * NW);
    test::make_operand(v, rng, bits, test::OperandKind(t % test::kOperandKinds));  // x >= m too
    const auto xw = words_of(v, NW);
    std::copy(xw.begin(), xw.end(), x.begin() + t * NW);
  }
  const uint32_t e_words = uint32_t(mpz_sizeinbase(e, 2) + 63) / 64;
  const auto ew = words_of(e, e_words);
  std::vector<double> a_sh(kTeams * (kK + 1));
  std::vector<double> tables(32 * (1 << W) * S);
  // As the kernels give them: one buffer a team for the square's columns
  // and rank 0's division region. Poisoned: mont_sqr and the divisions must
  // write every word they later read.
  constexpr int kRegionSlots = int(dmont::region_limbs<kK, NW>() + 1) / 2;
  constexpr int kColSlots = std::max(dteam::SquareColumns<T, S>::kSlots, kRegionSlots);
  std::vector<uint64_t> cols(kTeams * kColSlots, 0x5a5a5a5a5a5a5a5aull);
  emu::run_warp(0, [&](unsigned lane) {
    const int team = int(lane) / T;
    const dteam::Team<T> tm;
    // Four steps a pass as the kernels run them, two where 4 does not divide k.
    uint64_t* words = cols.data() + team * kColSlots;
    dteam::powm<NW, T, S, W, kK % 4 == 0 ? 4 : 2, Sqr, Sliding>(
        r.data() + team * NW, NW, x.data() + team * NW, NW, ew.data(), e_words, m.data() + team * NW, NW,
        a_sh.data() + team * (kK + 1), tables.data() + lane * (1 << W) * S, reinterpret_cast<uint32_t*>(words), tm,
        words);
  });
  uint64_t bad = 0;
  for (int t = 0; t < kTeams; ++t) {
    mpz_t xm, mm;
    mpz_inits(xm, mm, nullptr);
    runtime::words_to_mpz(xm, x.data() + t * NW, NW);
    runtime::words_to_mpz(mm, m.data() + t * NW, NW);
    mpz_powm(want, xm, e, mm);
    runtime::words_to_mpz(got, r.data() + t * NW, NW);
    if (mpz_cmp(want, got) != 0 && ++bad <= 3)
      ADD_FAILURE() << "powm team T=" << T << " S=" << S << " NW=" << NW << (Sqr ? " sqr" : "")
                    << (Sliding ? " sliding" : "") << " bits " << bits
                    << " team " << t
                    << "\n x " << test::hex(xm) << "\n e " << test::hex(e) << "\n m " << test::hex(mm)
                    << "\n got  " << test::hex(got) << "\n want " << test::hex(want);
    mpz_clears(xm, mm, nullptr);
  }
  mpz_clears(v, want, got, nullptr);
  return bad;
}

// Exponents: 0, 1, 2, 65537, all ones, random of e_bits, one bit set high.
void make_exponent(mpz_t e, gmp_randstate_t rng, uint64_t e_bits, int k) {
  switch (k) {
    case 0: mpz_set_ui(e, 0); break;
    case 1: mpz_set_ui(e, 1); break;
    case 2: mpz_set_ui(e, 2); break;
    case 3: mpz_set_ui(e, 65537); break;
    case 4: mpz_set_ui(e, 0), mpz_setbit(e, e_bits), mpz_sub_ui(e, e, 1); break;
    case 5: mpz_urandomb(e, rng, e_bits), mpz_setbit(e, e_bits - 1); break;
    default: mpz_set_ui(e, 0), mpz_setbit(e, e_bits - 1); break;
  }
}

template <int NW, int T, int S, int W, bool Sqr = false, bool Sliding = false>
void run_shape(std::initializer_list<uint64_t> sizes, uint64_t e_bits, int warps_per_size) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed() + NW * 131 + T);
  mpz_t e;
  mpz_init(e);
  uint64_t bad = 0, cases = 0;
  for (uint64_t bits : sizes)
    for (int w = 0; w < warps_per_size; ++w) {
      make_exponent(e, rng, e_bits, w % 7);
      bad += run_warp_case<NW, T, S, W, Sqr, Sliding>(rng, bits, e, uint64_t(w) * 5);
      cases += 32 / T;
    }
  std::printf("team powm NW=%d T=%d S=%d W=%d%s%s: %llu instances, %llu mismatches\n", NW, T, S, W,
              Sqr ? " (mont_sqr)" : "", Sliding ? " (sliding)" : "", (unsigned long long)cases,
              (unsigned long long)bad);
  EXPECT_EQ(bad, 0u);
  mpz_clear(e);
  gmp_randclear(rng);
}

TEST(DfmaTeamEmulation, SmallShapesMatchGmp) {
  run_shape<4, 4, 2, 3>({2, 64, 65, 200, 256}, 300, 7);
  run_shape<4, 2, 3, 4>({64, 255, 256}, 257, 7);
  run_shape<8, 8, 2, 4>({100, 511, 512}, 200, 7);
  run_shape<8, 16, 1, 4>({300, 512}, 100, 7);  // one limb a rank: both slide moves land on acc[0]
  run_shape<16, 4, 5, 5>({700, 1024}, 130, 7);
}

// Squarings by half the pairs (mont_sqr): T = 2 (only the split pair of
// blocks), odd S (the split's zero row), S = 1, the wrap of the partner
// blocks at T = 8 and 16.
TEST(DfmaTeamEmulation, SquaringByHalvesMatchesGmp) {
  run_shape<4, 4, 2, 3, true>({2, 64, 65, 200, 256}, 300, 7);
  run_shape<4, 2, 3, 4, true>({64, 255, 256}, 257, 7);
  run_shape<8, 8, 2, 4, true>({100, 511, 512}, 200, 7);
  run_shape<8, 16, 1, 4, true>({300, 512}, 100, 7);
  run_shape<16, 4, 5, 5, true>({700, 1024}, 130, 7);
  run_shape<16, 8, 3, 4, true>({1000, 1024}, 130, 7);
  // Operands up to 52k - 2 bits, so the top blocks (the wrapped tiles and
  // the split pair's upper rows) are not zero.
  run_shape<6, 4, 2, 3, true>({384, 383}, 200, 7);
  run_shape<8, 2, 5, 4, true>({512, 511}, 200, 7);
}

// Sliding windows (one exponent a warp, as the kernels need): exponents
// with long runs of zeros and ones (make_exponent's all-ones, one-bit and
// short kinds) and random ones, windows of 2 to 8 bits, with and without
// mont_sqr.
TEST(DfmaTeamEmulation, SlidingWindowsMatchGmp) {
  run_shape<4, 4, 2, 3, false, true>({2, 64, 65, 256}, 300, 7);
  run_shape<4, 2, 3, 2, true, true>({64, 255, 256}, 257, 7);
  run_shape<8, 8, 2, 5, true, true>({100, 512}, 300, 7);
  run_shape<16, 8, 3, 4, false, true>({1000, 1024}, 200, 7);
  run_shape<16, 32, 1, 8, true, true>({1024, 700}, 600, 7);
}

// The registered shapes (dfma_team_instances.cu), short exponents.
TEST(DfmaTeamEmulation, RegisteredShapesMatchGmp) {
  run_shape<40, 4, 13, 6>({2560, 2049}, 20, 2);
  run_shape<48, 4, 15, 6>({3072, 2561}, 20, 2);
  run_shape<64, 4, 20, 6>({4096, 3001}, 20, 4);
  run_shape<64, 8, 10, 6>({4096}, 20, 3);
  run_shape<96, 16, 8, 6>({6144}, 12, 2);
  run_shape<128, 8, 20, 6>({8192}, 12, 2);
  run_shape<128, 16, 10, 6>({8192, 6000}, 12, 2);
  run_shape<256, 32, 10, 6>({16384}, 8, 1);
  // The ".sq" shape (16 Kbit), and q64.t8 / q128.t16 with mont_sqr
  // (measured, not kept).
  run_shape<64, 8, 10, 6, true>({4096, 3001}, 20, 3);
  run_shape<128, 16, 10, 6, true>({8192}, 12, 2);
  run_shape<256, 32, 10, 6, true>({16384}, 8, 1);
  run_shape<256, 32, 10, 8, true, true>({16384}, 24, 1);
}

}  // namespace
}  // namespace bigtune
