// One divmod check for the GPU division tests: runs `variant` at `ipb` on the
// dividends u (bits) and divisors d (vbits), outputs poisoned first, and
// compares q, r and the zero-divisor flag of every instance with GMP
// (runtime::gmp_reference). Reports the first three mismatches as test
// failures and returns how many there were. u and d stay the caller's.
#pragma once
#include <gmp.h>
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/run_op.hpp"
#include "tests/support/operands.hpp"

namespace bigtune::test {

inline uint64_t check_divmod(Context& ctx, const std::string& variant, uint32_t ipb, uint64_t bits, uint64_t vbits,
                             std::vector<mpz_t>& u, std::vector<mpz_t>& d) {
  const uint64_t count = u.size();
  Batch du(ctx, bits, count), dd(ctx, vbits, count), dq(ctx, bits, count), dr(ctx, vbits, count);
  Flags flags(ctx, count);
  du.from_mpz(u.data(), count);
  dd.from_mpz(d.data(), count);
  {
    std::vector<uint64_t> pq(dq.words_per_instance() * count, 0xdeadbeefdeadbeefull);
    std::vector<uint64_t> pr(dr.words_per_instance() * count, 0xdeadbeefdeadbeefull);
    cudaMemcpy(dq.device_data(), pq.data(), pq.size() * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(dr.device_data(), pr.data(), pr.size() * 8, cudaMemcpyHostToDevice);
    cudaMemset(flags.device_data(), 0x5a, count * 4);
  }
  const Plan plan{variant, ipb, "explicit", 0.0};
  runtime::OpBatches io;
  io.r = &dq;
  io.r2 = &dr;
  io.a = &du;
  io.b = &dd;
  io.flags = &flags;
  runtime::run_op(ctx, Op::DivMod, io, &plan);
  ctx.synchronize();
  const std::vector<uint64_t> wq = dq.download(), wr = dr.download();
  const std::vector<int32_t> f = flags.download();
  uint64_t bad = 0;
  mpz_t q, r, want_q, want_r;
  mpz_inits(q, r, want_q, want_r, nullptr);
  for (uint64_t i = 0; i < count; ++i) {
    mpz_import(q, dq.words_per_instance(), -1, 8, 0, 0, wq.data() + i * dq.words_per_instance());
    mpz_import(r, dr.words_per_instance(), -1, 8, 0, 0, wr.data() + i * dr.words_per_instance());
    int want_flag = 0;
    runtime::RefOperands in;
    in.a = u[i];
    in.b = d[i];
    runtime::gmp_reference(Op::DivMod, bits, bits, in, want_q, want_r, &want_flag);
    if ((mpz_cmp(want_q, q) != 0 || mpz_cmp(want_r, r) != 0 || f[i] != want_flag) && ++bad <= 3) {
      ADD_FAILURE() << "divmod variant " << variant << " ipb " << ipb << " bits " << bits << " / " << vbits
                    << " instance " << i << " of " << count << "\n  u      = " << hex(u[i])
                    << "\n  v      = " << hex(d[i]) << "\n  want q = " << hex(want_q) << "\n  got  q = " << hex(q)
                    << "\n  want r = " << hex(want_r) << "\n  got  r = " << hex(r) << "\n  flag want "
                    << want_flag << " got " << f[i];
    }
  }
  mpz_clears(q, r, want_q, want_r, nullptr);
  return bad;
}

}  // namespace bigtune::test
