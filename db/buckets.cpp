// Quarter-octave bit buckets (closed at the top) and octave count buckets (see buckets.hpp).
#include "db/buckets.hpp"

#include <string>

#include "bigtune/error.hpp"

namespace bigtune::db {
namespace {

int floor_log2(uint64_t x) { return 63 - __builtin_clzll(x); }

void check_size(uint64_t x, const char* what) {
  if (x == 0 || x > kMaxSize) {
    throw Error(ErrorCode::InvalidArgument,
                std::string(what) + " = " + std::to_string(x) + " is out of range",
                "use a value from 1 to 2^62");
  }
}

}  // namespace

Bucket bits_bucket(uint64_t bits) {
  check_size(bits, "bits");
  if (bits <= 8) return {bits, bits + 1};
  const uint64_t below = bits - 1;  // buckets are closed at the top: (lo - 1, hi - 1]
  const uint64_t step = uint64_t{1} << (floor_log2(below) - 2);
  const uint64_t lo = (below & ~(step - 1)) + 1;
  return {lo, lo + step};
}

Bucket count_bucket(uint64_t count) {
  check_size(count, "count");
  const uint64_t lo = uint64_t{1} << floor_log2(count);
  return {lo, lo * 2};
}

}  // namespace bigtune::db
