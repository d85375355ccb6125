// Batched Miller-Rabin probable-prime test through bigtune's host API.
//
//   miller_rabin [--file candidates.txt] [--bits B --count C] [--rounds K] [--check]
//
// Candidates come from a file (one number per line, decimal or 0x-hex) or
// are drawn at random (odd, B bits). For each base a, every candidate n with
// n - 1 = d 2^s gets x = a^d mod n in one batched powm (modulus and exponent
// per instance), then up to max(s) - 1 batched squarings (sqrmod); n passes the
// round when x = 1 at the start or x = n - 1 at some step (the textbook test).
// Bases: the first K primes (K = --rounds, default 12), which makes the test
// deterministic below 3.3e24 and a strong probable-prime test above.
// --check compares each verdict with GMP's mpz_probab_prime_p (25 reps) and
// exits 1 on any disagreement.
#include <gmp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"

namespace {

struct Candidates {
  std::vector<mpz_t> n;  // sized once (mpz_t is an array type: no push_back)
  void resize(size_t count) {
    n = std::vector<mpz_t>(count);
    for (auto& v : n) mpz_init(v);
  }
  ~Candidates() {
    for (auto& v : n) mpz_clear(v);
  }
};

bool read_file(const char* path, Candidates& c) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  std::vector<std::string> lines;
  mpz_t v;
  mpz_init(v);
  while (std::getline(in, line)) {
    line.erase(std::remove_if(line.begin(), line.end(), [](char ch) { return ch == ' ' || ch == '\r' || ch == '\t'; }),
               line.end());
    if (line.empty() || line[0] == '#') continue;
    if (mpz_set_str(v, line.c_str(), 0) != 0 || mpz_sgn(v) < 0) {
      std::fprintf(stderr, "miller_rabin: not a non-negative integer: %s\n", line.c_str());
      mpz_clear(v);
      return false;
    }
    lines.push_back(line);
  }
  mpz_clear(v);
  c.resize(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) mpz_set_str(c.n[i], lines[i].c_str(), 0);
  return true;
}

const unsigned kBases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71};

// verdict[i]: 1 probable prime, 0 composite. Small or even n are decided here;
// the rest on the GPU.
std::vector<int> miller_rabin(bigtune::Context& ctx, const Candidates& c, int rounds) {
  const size_t total = c.n.size();
  std::vector<int> verdict(total, 0);
  std::vector<size_t> idx;  // candidates for the GPU
  for (size_t i = 0; i < total; ++i) {
    const mpz_srcptr n = c.n[i];
    if (mpz_cmp_ui(n, 100) < 0) {
      verdict[i] = mpz_probab_prime_p(n, 1) > 0;  // exact for such n
    } else if (mpz_even_p(n)) {
      verdict[i] = 0;
    } else {
      idx.push_back(i);
      verdict[i] = 1;
    }
  }
  if (idx.empty()) return verdict;
  const size_t count = idx.size();
  uint64_t bits = 1;
  for (size_t i : idx) bits = std::max<uint64_t>(bits, mpz_sizeinbase(c.n[i], 2));
  // n - 1 = d 2^s
  std::vector<mpz_t> n(count), d(count), nm1(count), x(count);
  std::vector<unsigned long> s(count);
  unsigned long max_s = 0;
  for (size_t k = 0; k < count; ++k) {
    mpz_inits(d[k], nm1[k], x[k], nullptr);
    mpz_init_set(n[k], c.n[idx[k]]);
    mpz_sub_ui(nm1[k], n[k], 1);
    s[k] = mpz_scan1(nm1[k], 0);
    mpz_tdiv_q_2exp(d[k], nm1[k], s[k]);
    max_s = std::max(max_s, s[k]);
  }
  bigtune::Batch dn(ctx, bits, count), dd(ctx, bits, count), da(ctx, bits, count), dx(ctx, bits, count);
  dn.from_mpz(n.data(), count);
  dd.from_mpz(d.data(), count);
  std::vector<int> alive(count, 1);
  for (int r = 0; r < rounds; ++r) {
    for (size_t k = 0; k < count; ++k) mpz_set_ui(x[k], kBases[r]);  // n > 100 > base
    da.from_mpz(x.data(), count);
    ctx.powm(dx, da, dd, dn);  // x = a^d mod n
    std::vector<int> pass(count, 0);
    for (unsigned long step = 0; step < max_s; ++step) {
      dx.to_mpz(x.data(), count);
      bool open = false;
      for (size_t k = 0; k < count; ++k) {
        if (!alive[k] || pass[k] || step >= s[k]) continue;
        if ((step == 0 && mpz_cmp_ui(x[k], 1) == 0) || mpz_cmp(x[k], nm1[k]) == 0)
          pass[k] = 1;
        else
          open = true;
      }
      if (!open || step + 1 == max_s) break;
      ctx.sqrmod(da, dx, dn);  // x = x^2 mod n
      std::swap(da, dx);
    }
    for (size_t k = 0; k < count; ++k)
      if (alive[k] && !pass[k]) alive[k] = 0;
  }
  for (size_t k = 0; k < count; ++k) {
    verdict[idx[k]] = alive[k];
    mpz_clears(n[k], d[k], nm1[k], x[k], nullptr);
  }
  return verdict;
}

}  // namespace

int main(int argc, char** argv) {
  const char* file = nullptr;
  uint64_t bits = 1024, count = 2000;
  int rounds = 12;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--file" && i + 1 < argc) file = argv[++i];
    else if (a == "--bits" && i + 1 < argc) bits = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--count" && i + 1 < argc) count = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--rounds" && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (a == "--check") check = true;
    else {
      std::fprintf(stderr, "usage: %s [--file F] [--bits B --count C] [--rounds K] [--check]\n", argv[0]);
      return 2;
    }
  }
  rounds = std::max(1, std::min<int>(rounds, int(sizeof(kBases) / sizeof(kBases[0]))));
  Candidates c;
  if (file) {
    if (!read_file(file, c)) {
      std::fprintf(stderr, "miller_rabin: cannot read %s\n", file);
      return 2;
    }
  } else {
    gmp_randstate_t rng;
    gmp_randinit_default(rng);
    gmp_randseed_ui(rng, 12345);
    c.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
      mpz_ptr v = c.n[i];
      mpz_urandomb(v, rng, bits);
      mpz_setbit(v, bits - 1);
      mpz_setbit(v, 0);
      if (i % 4 == 0) mpz_nextprime(v, v);  // some primes among them (may reach bits + 1 bits)
    }
    gmp_randclear(rng);
  }
  try {
    bigtune::Context ctx;
    const std::vector<int> verdict = miller_rabin(ctx, c, rounds);
    size_t primes = 0, disagree = 0;
    for (size_t i = 0; i < verdict.size(); ++i) {
      primes += verdict[i];
      if (check && (mpz_probab_prime_p(c.n[i], 25) > 0) != (verdict[i] != 0)) {
        if (++disagree <= 5) gmp_fprintf(stderr, "disagrees with GMP: %Zd (bigtune %d)\n", c.n[i], verdict[i]);
      }
      if (file) gmp_printf("%Zd %s\n", c.n[i], verdict[i] ? "probable-prime" : "composite");
    }
    std::printf("%zu candidates, %zu probable primes (%d bases)%s\n", verdict.size(), primes, rounds,
                check ? (disagree ? ", DISAGREES with mpz_probab_prime_p" : ", all agree with mpz_probab_prime_p")
                      : "");
    return disagree ? 1 : 0;
  } catch (const bigtune::Error& e) {
    std::fprintf(stderr, "miller_rabin: %s\n", e.what());
    return e.code() == bigtune::ErrorCode::NoDevice ? 77 : 1;  // 77: ctest's skip
  }
}
