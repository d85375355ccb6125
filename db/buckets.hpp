// Size buckets shared by stored decisions and history (docs/database.md,
// "Buckets"). A decision made for one (bits, count) is reused for every size
// in the same bucket, so buckets must be narrow enough that the best plan
// rarely changes inside one, and wide enough that a tuning run can cover the
// sizes users meet with a few hundred decisions.
//
// bits: quarter octaves, closed at the top. Up to 8 bits every size is its own
//   bucket; above, with e = floor(log2(bits - 1)), the bucket is
//   (lo - 1, lo - 1 + 2^(e-2)] where lo - 1 is bits - 1 rounded down to a
//   multiple of 2^(e-2). Each octave (2^e, 2^(e+1)] is split in 4 (ending at
//   1.25, 1.5, 1.75 and 2 times 2^e), so a bucket spans at most 25 % of its
//   lower end, and a power of two is the *last* size of its bucket: a plan
//   whose limit is exactly 2^k (Karatsuba levels, warp shapes) can serve the
//   bucket that ends at 2^k, the size users ask for most (schema v3; before
//   it, buckets were [2^k, 1.25 2^k) and such a plan could not be stored for
//   2^k bits). 100000 bits falls in (98304, 114688], stored as [98305, 114689).
// count: octaves, [2^k, 2^(k+1)) with k = floor(log2(count)). Batch size
//   changes occupancy and waves in steps, so coarser buckets suffice.
// Both take values in [1, kMaxSize]; 0 and larger values are refused.
#pragma once
#include <cstdint>

namespace bigtune::db {

constexpr uint64_t kMaxSize = uint64_t{1} << 62;  // SQLite INTEGER is signed 64-bit

// A half-open range [lo, hi).
struct Bucket {
  uint64_t lo = 0;
  uint64_t hi = 0;
  bool contains(uint64_t x) const { return lo <= x && x < hi; }
};

// Preconditions: 1 <= bits <= kMaxSize (throws bigtune::Error InvalidArgument otherwise).
Bucket bits_bucket(uint64_t bits);
// Preconditions: 1 <= count <= kMaxSize (throws bigtune::Error InvalidArgument otherwise).
Bucket count_bucket(uint64_t count);

}  // namespace bigtune::db
