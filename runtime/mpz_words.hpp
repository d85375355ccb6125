// Conversions between GMP integers and bigtune's memory form: `words` 64-bit
// little-endian words per instance. Pure host code, tested without a GPU.
#pragma once
#include <gmp.h>

#include <cstddef>
#include <cstdint>

namespace bigtune::runtime {

// Writes v into out[0, words); throws InvalidArgument if v < 0 or v >= 2^bits.
void mpz_to_words(uint64_t* out, size_t words, uint64_t bits, const mpz_t v);
// v = the integer in in[0, words).
void words_to_mpz(mpz_t v, const uint64_t* in, size_t words);
// True when the integer in w[0, words) is below 2^bits.
bool words_fit_bits(const uint64_t* w, size_t words, uint64_t bits);

}  // namespace bigtune::runtime
