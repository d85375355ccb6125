#include "runtime/mpz_words.hpp"

#include <cstring>
#include <string>

#include "bigtune/error.hpp"

namespace bigtune::runtime {

void mpz_to_words(uint64_t* out, size_t words, uint64_t bits, const mpz_t v) {
  if (mpz_sgn(v) < 0)
    throw Error(ErrorCode::InvalidArgument, "negative value given to an unsigned batch",
                "bigtune batches hold integers 0 <= v < 2^bits; keep signs on the host");
  if (mpz_sizeinbase(v, 2) > bits && mpz_sgn(v) != 0)
    throw Error(ErrorCode::InvalidArgument,
                "value of " + std::to_string(mpz_sizeinbase(v, 2)) + " bits does not fit a " +
                    std::to_string(bits) + "-bit batch",
                "create the batch with more bits or reduce the value");
  std::memset(out, 0, words * sizeof(uint64_t));
  size_t written = 0;
  mpz_export(out, &written, -1, sizeof(uint64_t), 0, 0, v);
}

void words_to_mpz(mpz_t v, const uint64_t* in, size_t words) {
  mpz_import(v, words, -1, sizeof(uint64_t), 0, 0, in);
}

bool words_fit_bits(const uint64_t* w, size_t words, uint64_t bits) {
  const uint64_t full = bits / 64, rest = bits % 64;
  for (size_t i = 0; i < words; ++i) {
    if (i < full) continue;
    if (i == full && rest != 0) {
      if (w[i] >> rest) return false;
      continue;
    }
    if (w[i] != 0) return false;
  }
  return true;
}

}  // namespace bigtune::runtime
