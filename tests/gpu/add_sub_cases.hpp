// Add/sub test cases shared by the multi-tile add/sub GPU tests (the chained
// family, chained_add_vs_gmp_test.cpp, and the streaming family,
// stream_add_vs_gmp_test.cpp): operand patterns that make carries and borrows
// cross every limb and every tile, and one check of a launch against GMP with
// poisoned outputs.
#pragma once
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "tests/support/operands.hpp"
#include "tests/gpu/unsupported_past.hpp"

namespace bigtune::test {

// Operand patterns beyond test::make_pair's mix.
// 2^17 bits: whole tiles of the 2^17-bit variants, half or quarter tiles of
// the larger ones, 4 to 16 consecutive tiles of the 32-thread tiles.
inline constexpr size_t kStretch = 2048;

enum class Pattern {
  Mixed,          // test::make_pair: uniform, runs, edge limbs, (all-ones, one), ...
  CarryAll,       // add: (2^bits - 1) + 1, the carry crosses every limb and tile; sub: 0 - 1
  CarryFromLow,   // all-ones above a random low tile: tiles of p = 1 between generator and target
  ManyPropagate,  // random, but every other stretch of kStretch limbs sums to all-ones (sub: differs by 0)
};

inline void make_case(mpz_t a, mpz_t b, gmp_randstate_t rng, uint64_t bits, uint64_t i, Op op, Pattern p) {
  switch (p) {
    case Pattern::Mixed: test::make_pair(a, b, rng, bits, i); return;
    case Pattern::CarryAll:
      if (op == Op::Add) {
        mpz_set_ui(a, 0);
        mpz_setbit(a, bits);
        mpz_sub_ui(a, a, 1);
        mpz_set_ui(b, bits > 1 ? 1 + (i % 2) : 1);  // also 2: the top limb then carries 1 too
      } else {
        const unsigned long k = bits > 2 ? i % 3 : 0;  // 0 - 1, 1 - 2, 2 - 3: borrow through everything
        mpz_set_ui(a, k);
        mpz_set_ui(b, k + 1);
      }
      return;
    case Pattern::CarryFromLow: {
      // a = all-ones except a random low part; b = random low part: whether the
      // low part carries is random, and the carry (or not) must travel up.
      const uint64_t low = std::min<uint64_t>(bits, 64 * (1 + i % 200));
      mpz_t r;
      mpz_init(r);
      mpz_urandomb(r, rng, low);
      mpz_set_ui(a, 0);
      mpz_setbit(a, bits);
      mpz_sub_ui(a, a, 1);
      mpz_tdiv_q_2exp(a, a, low);
      mpz_mul_2exp(a, a, low);
      mpz_add(a, a, r);
      mpz_urandomb(b, rng, low);
      if (op == Op::Sub) {  // equal high parts: the borrow of the low part crosses them
        mpz_sub(b, a, r);
        mpz_urandomb(r, rng, low);
        mpz_add(b, b, r);
      }
      mpz_clear(r);
      return;
    }
    case Pattern::ManyPropagate: {
      // Random limbs, except that every other stretch of kStretch limbs has
      // b = ~a (add: all-ones sums) or b = a (sub: zero differences).
      mpz_urandomb(a, rng, bits);
      mpz_urandomb(b, rng, bits);
      const size_t words = size_t((bits + 63) / 64);
      std::vector<uint64_t> wa(words, 0), wb(words, 0);
      mpz_export(wa.data(), nullptr, -1, 8, 0, 0, a);
      mpz_export(wb.data(), nullptr, -1, 8, 0, 0, b);
      for (size_t k = 0; k < words; ++k)
        if ((k / kStretch) % 2 == 1) wb[k] = op == Op::Add ? ~wa[k] : wa[k];
      if (bits % 64) wb[words - 1] &= (uint64_t(1) << (bits % 64)) - 1;
      mpz_import(b, words, -1, 8, 0, 0, wb.data());
      return;
    }
  }
}

// Uploads count pairs, runs `launch`, checks every result and flag with GMP.
template <class Launch>
inline uint64_t check_case(Context& ctx, Op op, const std::string& what, uint64_t bits, uint64_t count, Pattern p,
                    gmp_randstate_t rng, Launch&& launch) {
  std::vector<mpz_t> a(count), b(count), r(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    make_case(a[i], b[i], rng, bits, i, op, p);
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, bits, count);
  Flags flags(ctx, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  {  // poison the outputs so that an unwritten limb or flag cannot pass
    std::vector<uint64_t> poison(dr.words_per_instance() * count, 0xdeadbeefdeadbeefull);
    cudaMemcpy(dr.device_data(), poison.data(), poison.size() * 8, cudaMemcpyHostToDevice);
    cudaMemset(flags.device_data(), 0x5a, count * 4);
    // Both went to the legacy default stream; the Context's stream does not
    // wait for it (cudaStreamNonBlocking): finish them before the launch.
    cudaDeviceSynchronize();
  }
  launch(dr, da, db, flags);
  ctx.synchronize();
  const std::vector<uint64_t> words = dr.download();
  const std::vector<int32_t> f = flags.download();
  uint64_t bad = 0;
  mpz_t want;
  mpz_init(want);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_import(r[i], dr.words_per_instance(), -1, 8, 0, 0, words.data() + i * dr.words_per_instance());
    int want_flag = 0;
    if (!runtime::matches_gmp(op, bits, 0, a[i], b[i], r[i], f[i], want, &want_flag) && ++bad <= 3) {
      const std::string got = test::hex(r[i]), exp = test::hex(want);
      ADD_FAILURE() << op_name(op) << " " << what << " bits " << bits << " pattern " << int(p) << " instance " << i
                    << " of " << count << ": flag " << f[i] << " want " << want_flag
                    << (got.size() < 400 ? "\n  want = " + exp + "\n  got  = " + got : std::string(" (value differs)"));
    }
  }
  mpz_clear(want);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  return bad;
}

// The arguments of a one-instance-per-block add/sub launch of `v` over r = a op b
// with flags f, as the runtime fills them (scratch left to the caller).
inline kernels::KernelArgs add_sub_args(Batch& r, Batch& a, Batch& b, Flags& f, const kernels::Variant& v,
                                        uint64_t bits, uint64_t count, const kernels::Geometry& g) {
  kernels::KernelArgs args;
  args.r = r.device_data();
  args.a = a.device_data();
  args.b = b.device_data();
  args.flags = reinterpret_cast<uint32_t*>(f.device_data());
  args.count = count;
  args.bits = bits;
  args.limbs = kernels::operand_limbs(v, bits);
  args.out_limbs = args.limbs;
  args.threads_per_instance = g.threads_per_instance;
  args.ipb = 1;
  args.stage_buffers = g.stage_buffers;
  return args;
}

}  // namespace bigtune::test
