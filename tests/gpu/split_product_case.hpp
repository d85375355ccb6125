// One product case for the kernels that split their operands in halves (the
// warp Karatsuba, wkara, and the warp low half, wlow): `count` instances of
// make_split_pair operands (tests/support/warp_kara_operands.hpp: edges on
// both sides of the split at half_bits), the result batch of rbits poisoned
// first, the op run on an explicit plan through the host API, every instance
// checked against GMP (runtime::gmp_reference). Returns the mismatches (the
// first three are reported).
#pragma once
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "tests/support/operands.hpp"
#include "tests/support/warp_kara_operands.hpp"

namespace bigtune::test {

inline uint64_t run_split_product_case(Context& ctx, Op op, const std::string& plan_name, uint32_t ipb, uint64_t bits,
                                       uint64_t rbits, uint64_t half_bits, uint64_t count, gmp_randstate_t rng) {
  std::vector<mpz_t> a(count), b(count), r(count);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_inits(a[i], b[i], r[i], nullptr);
    make_split_pair(a[i], b[i], rng, bits, half_bits, i);
  }
  Batch da(ctx, bits, count), db(ctx, bits, count), dr(ctx, rbits, count);
  da.from_mpz(a.data(), count);
  db.from_mpz(b.data(), count);
  {
    std::vector<uint64_t> poison(dr.words_per_instance() * count, 0xdeadbeefdeadbeefull);
    cudaMemcpy(dr.device_data(), poison.data(), poison.size() * 8, cudaMemcpyHostToDevice);
  }
  const Plan plan{plan_name, ipb, "explicit", 0.0};
  runtime::OpBatches io;
  io.r = &dr;
  io.a = &da;
  io.b = op == Op::Sqr ? nullptr : &db;
  runtime::run_op(ctx, op, io, &plan);
  ctx.synchronize();
  const std::vector<uint64_t> words = dr.download();
  uint64_t bad = 0;
  mpz_t want, unused;
  mpz_inits(want, unused, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_import(r[i], dr.words_per_instance(), -1, 8, 0, 0, words.data() + i * dr.words_per_instance());
    int want_flag = 0;
    runtime::RefOperands in;
    in.a = a[i];
    in.b = b[i];
    runtime::gmp_reference(op, bits, rbits, in, want, unused, &want_flag);
    if (mpz_cmp(want, r[i]) != 0 && ++bad <= 3)
      ADD_FAILURE() << op_name(op) << " variant " << plan_name << " ipb " << ipb << " bits " << bits << " instance "
                    << i << " of " << count << "\n  a    = " << hex(a[i]) << "\n  b    = " << hex(b[i])
                    << "\n  want = " << hex(want) << "\n  got  = " << hex(r[i]);
  }
  mpz_clears(want, unused, nullptr);
  for (uint64_t i = 0; i < count; ++i) mpz_clears(a[i], b[i], r[i], nullptr);
  return bad;
}

}  // namespace bigtune::test
