// Host side of the NTT Montgomery powm: nttmont_prep.hpp.
#include "kernels/modular/nttmont_prep.hpp"

#include <gmp.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "kernels/modular/nttmont_layout.hpp"

namespace bigtune::kernels::modular {
namespace {

// The rows of one modulus; false where it is not eligible.
bool constants_of(const uint64_t* m_words, uint32_t n, uint32_t nw, uint64_t* out) {
  mpz_t m, r, t, u;
  mpz_inits(m, r, t, u, nullptr);
  mpz_import(m, n, -1, sizeof(uint64_t), 0, 0, m_words);
  const uint64_t bits = 64ull * nw;
  mpz_setbit(r, bits);
  mpz_add_ui(r, r, 1);  // R = 2^N' + 1
  bool ok = mpz_odd_p(m) && mpz_cmp_ui(m, 1) > 0 && mpz_invert(t, m, r) != 0;
  if (ok) {
    const auto put = [&](uint32_t row, const mpz_t v) {
      uint64_t* dst = out + uint64_t(row) * nw;
      std::fill(dst, dst + nw, 0);
      size_t words = 0;
      mpz_export(dst, &words, -1, sizeof(uint64_t), 0, 0, v);
    };
    put(0, m);
    mpz_sub(u, r, t);  // mu = R - m^-1 (m^-1 != 1 for m > 1: mu < 2^N')
    put(1, u);
    mpz_mod(u, r, m);
    put(2, u);
    mpz_mul(u, u, u);
    mpz_mod(u, u, m);
    put(3, u);
  }
  mpz_clears(m, r, t, u, nullptr);
  return ok;
}

}  // namespace

bool nttmont_constants(const uint64_t* m, uint64_t count_m, uint32_t n, uint32_t nw, uint64_t* out) {
  const uint64_t row = uint64_t(kNttMontConstRows) * nw;
  const uint64_t workers =
      std::min<uint64_t>(count_m, std::max<uint64_t>(1, std::min<uint32_t>(std::thread::hardware_concurrency(), 32)));
  std::atomic<bool> ok{true};
  std::atomic<uint64_t> next{0};
  const auto work = [&] {
    for (uint64_t i = next++; i < count_m && ok; i = next++)
      if (!constants_of(m + i * n, n, nw, out + i * row)) ok = false;
  };
  std::vector<std::thread> pool;
  for (uint64_t k = 1; k < workers; ++k) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  return ok;
}

}  // namespace bigtune::kernels::modular
