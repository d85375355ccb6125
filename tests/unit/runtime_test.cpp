// Host-side runtime pieces without a GPU: argument validation, the default
// plan, mpz <-> words conversion, the GMP reference semantics, the C ABI's
// handling of bad arguments and of a missing device.
#include <cuda_runtime_api.h>
#include <gmp.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bigtune/bigtune.h"
#include "bigtune/bigtune.hpp"
#include "kernels/registry.hpp"
#include "runtime/default_plan.hpp"
#include "runtime/gmp_reference.hpp"
#include "runtime/mpz_words.hpp"
#include "runtime/run_op.hpp"
#include "runtime/validate.hpp"
#include "tests/support/operands.hpp"

namespace bigtune::runtime {
namespace {

const kernels::DeviceLimits kH100 = kernels::DeviceLimits::h100();

ErrorCode code_of_shapes(Op op, Shape r, Shape a, Shape b) {
  try {
    validate_shapes(op, r, a, b);
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::Internal;  // "no error"
}

TEST(Validate, ShapesPerOp) {
  const Shape s{1000, 10};
  EXPECT_EQ(code_of_shapes(Op::Add, s, s, s), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Add, s, s, {1000, 11}), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Add, s, s, {1064, 10}), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Add, {1064, 10}, s, s), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Add, {1000, 9}, s, s), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Mul, {2000, 10}, s, s), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Mul, {1999, 10}, s, s), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of_shapes(Op::Shl, s, s, {}), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Cmp, {0, 10}, s, s), ErrorCode::Internal);
  EXPECT_EQ(code_of_shapes(Op::Cmp, {0, 3}, s, s), ErrorCode::InvalidArgument);
  try {
    validate_shapes(Op::Mul, {1999, 10}, s, s);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at least 2000 bits"), std::string::npos) << e.what();
  }
}

template <class F>
ErrorCode code_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::Internal;  // "no error"
}

TEST(Validate, DivisionFusedAndModularShapes) {
  const Shape u{1000, 10}, v{500, 10};
  EXPECT_EQ(code_of([&] { validate_divmod(u, v, u, v); }), ErrorCode::Internal);
  EXPECT_EQ(code_of([&] { validate_divmod(u, u, u, u); }), ErrorCode::Internal);  // v as long as u
  EXPECT_EQ(code_of([&] { validate_divmod(v, u, v, u); }), ErrorCode::InvalidArgument);  // v longer than u
  EXPECT_EQ(code_of([&] { validate_divmod(u, {499, 10}, u, v); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { validate_divmod({1000, 9}, v, u, v); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { validate_mul_add({2001, 10}, {1000, 10}, {1000, 10}, {2000, 10}); }),
            ErrorCode::Internal);
  EXPECT_EQ(code_of([&] { validate_mul_add({1500, 10}, {1000, 10}, {1000, 10}, {2000, 10}); }),
            ErrorCode::InvalidArgument);  // addend wider than the result
  const Shape n{1024, 8};
  EXPECT_EQ(code_of([&] { validate_modular(Op::MulMod, n, n, n, {1024, 1}); }), ErrorCode::Internal);
  EXPECT_EQ(code_of([&] { validate_modular(Op::MulMod, n, n, n, n); }), ErrorCode::Internal);
  EXPECT_EQ(code_of([&] { validate_modular(Op::MulMod, n, n, n, {1024, 3}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { validate_modular(Op::MulMod, n, n, n, {1088, 8}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { validate_modular(Op::PowM, n, n, {17, 1}, n); }), ErrorCode::Internal);
  EXPECT_EQ(code_of([&] { validate_modular(Op::PowM, n, n, {17, 2}, n); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { validate_shapes(Op::Sqr, {2048, 8}, n, {}); }), ErrorCode::Internal);
  EXPECT_EQ(code_of([&] { validate_shapes(Op::Sqr, {2047, 8}, n, {}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] { validate_shapes(Op::Sqrt, {512, 8}, n, {}); }), ErrorCode::Internal);
  EXPECT_EQ(code_of([&] { validate_shapes(Op::Sqrt, {511, 8}, n, {}); }), ErrorCode::InvalidArgument);
}

// The layout bigtune check, the benchmark and the tests use passes validation
// for every op and odd sizes.
TEST(OpLayout, EveryOpsLayoutIsValid) {
  for (kernels::Op kop : kernels::kAllOps) {
    const Op op = static_cast<Op>(static_cast<int>(kop));
    for (uint64_t bits : {1ull, 2ull, 65ull, 521ull, 4096ull}) {
      const OpLayout l = op_layout(op, bits);
      const Shape a{bits, 5}, b{l.b_bits, 5}, r{l.r_bits, 5};
      ErrorCode got;
      switch (op) {
        case Op::DivMod: got = code_of([&] { validate_divmod(r, {l.r2_bits, 5}, a, b); }); break;
        case Op::MulAdd: got = code_of([&] { validate_mul_add(r, a, b, {l.c_bits, 5}); }); break;
        case Op::MulMod:
        case Op::SqrMod:
        case Op::PowM:
        case Op::ModInv: got = code_of([&] { validate_modular(op, r, a, b, {l.m_bits, 5}); }); break;
        case Op::Gcd: got = code_of([&] { validate_modular(op, r, a, b, b); }); break;
        case Op::Cmp: got = code_of([&] { validate_shapes(op, {0, 5}, a, b); }); break;
        default: got = code_of([&] { validate_shapes(op, r, a, b); });
      }
      EXPECT_EQ(got, ErrorCode::Internal) << op_name(op) << " " << bits;
    }
  }
}

TEST(Validate, PlansNameTheirProblem) {
  EXPECT_NO_THROW(validate_plan({"add.scan.u64.q4", 2, "explicit", 0}, Op::Add, 4096, 10, kH100));
  try {
    validate_plan({"add.scan.u64.q4", 2, "explicit", 0}, Op::Mul, 4096, 10, kH100);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
  }
  try {
    validate_plan({"add.scan.u64.q1", 1, "explicit", 0}, Op::Add, 1 << 20, 10, kH100);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unsupported);
    EXPECT_NE(std::string(e.what()).find("threads per block"), std::string::npos) << e.what();
  }
}

TEST(DefaultPlan, ValidForEverySupportedSizeAndNoneBeyond) {
  for (kernels::Op kop : kernels::kAllOps) {
    const Op op = static_cast<Op>(static_cast<int>(kop));
    uint64_t largest = 0;
    for (const kernels::Variant& v : kernels::registry())
      if (v.op == to_kernel_op(op)) largest = std::max(largest, kernels::max_operand_bits(v, kH100));
    for (uint64_t bits = 1; bits <= largest; bits = bits * 3 / 2 + 7) {
      for (uint64_t count : {1ull, 100ull, 1ull << 22}) {
        const auto plan = default_plan(op, bits, count, kH100);
        ASSERT_TRUE(plan) << op_name(op) << " " << bits;
        EXPECT_NO_THROW(validate_plan(*plan, op, bits, count, kH100)) << plan->variant;
        EXPECT_LE(plan->ipb, count);
        EXPECT_EQ(plan->source, "default");
      }
    }
    EXPECT_TRUE(default_plan(op, largest, 10, kH100));
    EXPECT_FALSE(default_plan(op, largest + 64, 10, kH100)) << op_name(op);
  }
}

// The named preferences of default_plan.cpp must be valid where they are
// named: a preference that is not silently falls back to the registry's first
// valid variant, which is slower by 1.5-3x at these sizes.
TEST(DefaultPlan, NamedPreferencesHoldOnTheH100) {
  const struct {
    Op op;
    uint64_t bits;
    const char* variant;
  } expected[] = {
      {Op::Mul, 1000, "mul.blockrot.u32.q16.l2.r4"},  // smallmul: 2-lane segments at 1 Kbit
      {Op::Mul, 768, "mul.blockrot.u32.q8.l4.r4"},
      {Op::Mul, 769, "mul.blockrot.u32.q16.l2.r4"},
      {Op::MulLow, 768, "mul_low.comba.u32.q32"},
      {Op::MulLow, 769, "mul_low.blockrot.u32.q16.l2"},
      {Op::MulLow, 1024, "mul_low.blockrot.u32.q16.l2"},
      {Op::MulLow, 1025, "mul_low.comba.u32.q64"},
      {Op::Sqr, 896, "sqr.comba.u32.q32"},
      {Op::Sqr, 897, "sqr.blockrot.u32.q16.l2"},
      {Op::Sqr, 1024, "sqr.blockrot.u32.q16.l2"},
      {Op::MulLow, 3136, "mul_low.classical.u64.q4"},  // smallmul: wlow from 3137 bits
      {Op::MulLow, 3137, "mul_low.wlow.u32.q16.l4"},
      {Op::MulLow, 4096, "mul_low.wlow.u32.q16.l4"},
      {Op::Mul, 2048, "mul.blockrot.u32.q16.l4.r4"},
      {Op::Mul, 2560, "mul.blockrot.u32.q16.l8.r4"},
      {Op::Mul, 2561, "mul.wkara.u32.q16.l4.k1"},  // warpkara: from 5/8 of each limit
      {Op::Mul, 4096, "mul.wkara.u32.q16.l4.k1"},
      {Op::Mul, 4608, "mul.blockrot.u32.q16.l16.r4"},
      {Op::Mul, 4609, "mul.wkara.u32.q16.l8.k1"},
      {Op::Mul, 8192, "mul.wkara.u32.q16.l8.k1"},
      {Op::Mul, 9215, "mul.blockrot.u32.q16.l32.r4"},
      {Op::Mul, 9216, "mul.wkara.u32.q16.l16.k1"},
      {Op::Mul, 16384, "mul.wkara.u32.q16.l16.k1"},
      {Op::Mul, 20000, "mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l16.r4"},
      {Op::Mul, 20479, "mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l16.r4"},
      {Op::Mul, 20480, "mul.karatsuba.u64.q16.k2.wkara.u32.q16.l8.k1"},
      {Op::Mul, 30720, "mul.karatsuba.u64.q16.k2.wkara.u32.q16.l8.k1"},
      {Op::Mul, 30721, "mul.ntt.u64.q1.crt3.m13.t1024"},  // nttbig: 1.24x warp Karatsuba k2 at 2^15
      {Op::Mul, 32768, "mul.ntt.u64.q1.crt3.m13.t1024"},
      {Op::Sqr, 2303, "sqr.blockrot.u32.q16.l8"},
      {Op::Sqr, 2304, "sqr.wkara.u32.q16.l4.k1"},
      {Op::Sqr, 4096, "sqr.wkara.u32.q16.l4.k1"},
      {Op::Sqr, 4607, "sqr.blockrot.u32.q16.l16"},
      {Op::Sqr, 5121, "sqr.wkara.u32.q16.l8.k1"},
      {Op::Mul, 40960, "mul.ntt.u64.q1.crt3.m13.t1024"},
      {Op::Mul, 65536, "mul.ntt.u64.q1.crt3.m13.t1024"},
      {Op::Mul, 1 << 17, "mul.ntt.u64.q1.crt3.m13.t1024"},
      {Op::Mul, (1 << 17) + 1, "mul.ntt.u64.q1.crt3p.m13.t1024"},  // split transforms: packed elements
      {Op::Mul, 1 << 18, "mul.ntt.u64.q1.crt3p.m13.t1024"},
      {Op::Mul, 1 << 20, "mul.ntt.u64.q1.crt3p.m13.t1024"},
      {Op::Sqr, 16384, "sqr.wkara.u32.q16.l16.k1"},
      {Op::Sqr, 9215, "sqr.karatsuba.u64.q16.k1.blockrot.u32.q16.l16"},
      {Op::Sqr, 9216, "sqr.wkara.u32.q16.l16.k1"},
      {Op::Sqr, 24576, "sqr.karatsuba.u64.q16.k2.blockrot.u32.q16.l16"},
      {Op::Sqr, 24577, "sqr.ntt.u64.q1.crt3.m12.t256"},  // nttbig: 1.94x Karatsuba k2 at 2^15
      {Op::Sqr, 32767, "sqr.ntt.u64.q1.crt3.m12.t256"},
      {Op::Sqr, 32768, "sqr.ntt.u64.q1.crt3.m12.t256"},
      {Op::Sqr, 65536, "sqr.ntt.u64.q1.crt3.m13.t512"},
      {Op::Sqr, 1 << 17, "sqr.ntt.u64.q1.crt3.m13.t1024"},
      {Op::Sqr, 1 << 18, "sqr.ntt.u64.q1.crt3.m13.t1024"},
      {Op::Sqr, (1 << 18) + 1, "sqr.ntt.u64.q1.crt3p.m13.t1024"},
      {Op::Add, 1 << 20, "add.cluster.u64.q4.t512"},  // add2: clusters of 2^17-bit tiles, sm_90
      {Op::Sub, 1 << 20, "sub.cluster.u64.q4.t512"},
      {Op::Add, 524289, "add.cluster.u64.q4.t512"},
      {Op::Add, (1 << 20) + 1, "add.chained.u64.q16.t512"},  // past the cluster family's 8 tiles
      {Op::DivMod, 2048, "divmod.knuth.u32.q64"},
      {Op::DivMod, 2049, "divmod.newton.u32.q8.l8.c4.sp"},
      {Op::DivMod, 4096, "divmod.newton.u32.q8.l8.c4.sp"},
      {Op::DivMod, 8192, "divmod.newton.u32.q8.l16.c4.sp"},
      {Op::DivMod, 16384, "divmod.newton.u32.q8.l32.c8.sp"},
      {Op::DivMod, 16385, "divmod.newtonc.u64.q4.pp.f.w1028"},  // div15: composed Newton division, warp passes
      {Op::DivMod, 32768, "divmod.newtonc.u64.q4.pp.f.w1028"},
      {Op::DivMod, 32769, "divmod.newtonc.u64.q4.pp.f.w1028.k4"},
      {Op::DivMod, 1 << 20, "divmod.newtonc.u64.q4.pp.f.w1028.k4"},
      {Op::Add, 16383, "add.scan.u64.q8"},
      {Op::Add, 16384, "add.stream.u64.q4.t256.s3"},
      {Op::Sub, 65536, "sub.stream.u64.q4.t256.s3"},
      {Op::Sub, 65537, "sub.stream.u64.q4.t512"},
      {Op::Add, 131072, "add.stream.u64.q4.t512"},
      {Op::Sub, 131073, "sub.scan.u64.q8"},
      {Op::Sub, 1 << 21, "sub.chained.u64.q16.t512"},
      {Op::Add, 1 << 22, "add.stream.u64.q4.t256.s3"},
      {Op::Sub, 1ull << 30, "sub.stream.u64.q4.t256.s3"},  // past the chained family's 2^24 bits
      {Op::PowM, 1024, "powm.dfma.u64.q16.w5.sq"},  // session 10: FP64-pipe Montgomery, 513-1024 bits
      {Op::PowM, 513, "powm.dfma.u64.q16.w5.sq"},
      {Op::PowM, 2048, "powm.dfma.u64.q32.w6"},  // session 10: 40 limbs on the FP64 pipe, 1537-2048 bits
      {Op::PowM, 1537, "powm.dfma.u64.q32.w6"},
      {Op::PowM, 1536, "powm.dfma.u64.q24.w6"},
      {Op::PowM, 1025, "powm.dfma.u64.q24.w6"},
      {Op::PowM, 512, "powm.dfma.u64.q8.w4.sq"},
      {Op::PowM, 256, "powm.dfma.u64.q4.w4.sq"},
      {Op::PowM, 129, "powm.dfma.u64.q4.w4.sq"},
      {Op::PowM, 128, "powm.dfma.u64.q2.w3.sq"},
      {Op::PowM, 65, "powm.dfma.u64.q2.w3.sq"},
      // session 11: the team DFMA powm, 2049-8192 bits and 12288-16384
      {Op::PowM, 2049, "powm.dfmat.u64.q40.t4.w6"},
      {Op::PowM, 2560, "powm.dfmat.u64.q40.t4.w6"},
      {Op::PowM, 2561, "powm.dfmat.u64.q48.t4.w6"},
      {Op::PowM, 3072, "powm.dfmat.u64.q48.t4.w6"},
      {Op::PowM, 3585, "powm.dfmat.u64.q64.t8.w6"},
      {Op::PowM, 4096, "powm.dfmat.u64.q64.t8.w6"},
      {Op::PowM, 6144, "powm.dfmat.u64.q96.t8.w6"},
      {Op::PowM, 7424, "powm.dfmat.u64.q128.t16.w6"},
      {Op::PowM, 8192, "powm.dfmat.u64.q128.t16.w6"},
      {Op::MulMod, 512, "mulmod.mont.u32.q16"},
      {Op::MulMod, 1, "mulmod.preinv.u64.q1"},  // session 9: one 64-bit word to 64 bits
      {Op::SqrMod, 64, "sqrmod.preinv.u64.q1"},
      {Op::PowM, 64, "powm.preinv.u64.q1.w4"},
      {Op::MulMod, 65, "mulmod.mont.u32.q4"},  // session 8: 4 limbs to 128 bits
      {Op::SqrMod, 128, "sqrmod.mont.u32.q4"},
      {Op::MulMod, 129, "mulmod.mont.u32.q8"},
      {Op::MulMod, 988, "mulmod.wbarrett.u32.q8.l4"},
      {Op::MulMod, 1000, "mulmod.dfma.u64.q16.roll4.wtile"},  // 52-bit-limb Barrett on DFMA, 989-1024 bits
      {Op::SqrMod, 1024, "sqrmod.dfma.u64.q16"},
      {Op::MulMod, 1025, "mulmod.wbarrett.u32.q16.l4"},
      {Op::SqrMod, 1472, "sqrmod.wbarrett.u32.q16.l4"},
      {Op::SqrMod, 1537, "sqrmod.wbarrett2.u32.q8.l4.b32"},  // mulmodhalf: wbarrett's last block
      {Op::MulMod, 1800, "mulmod.wbarrett2.u32.q8.l4.b32"},
      {Op::SqrMod, 1536, "sqrmod.tcbarrett.u64.q1"},  // session 24: whole limbs from 1536 bits
      {Op::MulMod, 1600, "mulmod.tcbarrett.u64.q1"},
      {Op::MulMod, 2048, "mulmod.tcbarrett.u64.q1"},
      {Op::MulMod, 2049, "mulmod.tcbarrett.u64.q1"},  // session 19: reduction products on the tensor cores
      {Op::MulMod, 3584, "mulmod.tcbarrett.u64.q1"},
      {Op::SqrMod, 4096, "sqrmod.tcbarrett.u64.q1"},
      {Op::SqrMod, 7680, "sqrmod.tcbarrett.u64.q1"},
      {Op::MulMod, 8193, "mulmod.tcbarrett.u64.q1"},
      {Op::SqrMod, 65536, "sqrmod.tcbarrett.u64.q1"},
      {Op::MulMod, 65537, "mulmod.barrett.u64.q1"},
      {Op::PowM, 16384, "powm.dfmat.u64.q256.t32.sw8.sq"},
      {Op::PowM, 12288, "powm.dfmat.u64.q256.t32.sw8.sq"},
      {Op::PowM, 12287, "powm.dfmat.u64.q256.t32.sw8.sq"},
      {Op::PowM, 10240, "powm.dfmat.u64.q256.t32.sw8.sq"},
      {Op::PowM, 10239, "powm.barrett.u64.q1.w6"},
      {Op::PowM, 16385, "powm.nttmont.u64.q1.sw9"},  // session 14: above 16 Kbit to 64 Kbit
      {Op::PowM, 32768, "powm.nttmont.u64.q1.sw9"},
      {Op::PowM, 32769, "powm.nttmont.u64.q1.sw9"},
      {Op::PowM, 65536, "powm.nttmont.u64.q1.sw9"},
      {Op::PowM, 65537, "powm.barrett.u64.q1.w6"},
      {Op::MulMod, 524288, "mulmod.barrett.u64.q1"},
  };
  for (const auto& e : expected) {
    const auto plan = default_plan(e.op, e.bits, (1ull << 32) / e.bits, kH100);
    ASSERT_TRUE(plan) << op_name(e.op) << " " << e.bits;
    EXPECT_EQ(plan->variant, e.variant) << op_name(e.op) << " " << e.bits;
  }
  // Without thread block clusters (sm_80) the same sizes get a valid plan of another family.
  kernels::DeviceLimits a100 = kH100;
  a100.cc_major = 8;
  for (Op op : {Op::Add, Op::Sub}) {
    const auto plan = default_plan(op, 1 << 20, 4096, a100);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->variant.find("cluster"), std::string::npos) << plan->variant;
  }
  // Instances per block of the warp products: 32-64-thread blocks
  // (bench/results/2026-11-22-h100-mulsmall.md).
  EXPECT_EQ(default_plan(Op::Mul, 1024, 1 << 22, kH100)->ipb, 32u);  // q16.l2.r4: 64-thread blocks
  EXPECT_EQ(default_plan(Op::Mul, 768, 1 << 22, kH100)->ipb, 16u);
  EXPECT_EQ(default_plan(Op::MulLow, 4096, 1 << 20, kH100)->ipb, 8u);  // wlow: one full warp per block
  EXPECT_EQ(default_plan(Op::PowM, 4096, 1 << 14, kH100)->ipb, 16u);   // dfmat.q64.t8: 128-thread blocks
  EXPECT_EQ(default_plan(Op::PowM, 1024, 1 << 16, kH100)->ipb, 128u);  // dfma: one thread an instance
  // Small powm batches above 1 Kbit stay on the warp kernels (one or two of their waves).
  EXPECT_EQ(default_plan(Op::PowM, 1536, 8448, kH100)->variant, "powm.bgfixed.u32.q8.l8.w6");
  EXPECT_EQ(default_plan(Op::PowM, 1536, 8449, kH100)->variant, "powm.dfma.u64.q24.w6");
  EXPECT_EQ(default_plan(Op::PowM, 2048, 16896, kH100)->variant, "powm.bgsqr.u32.q8.l8.w6");
  EXPECT_EQ(default_plan(Op::PowM, 2048, 16897, kH100)->variant, "powm.dfma.u64.q32.w6");
  EXPECT_EQ(default_plan(Op::PowM, 1024, 100, kH100)->variant, "powm.dfma.u64.q16.w5.sq");
  EXPECT_EQ(default_plan(Op::PowM, 8192, 1 << 12, kH100)->ipb, 8u);    // dfmat.q128.t16
  EXPECT_EQ(default_plan(Op::PowM, 16384, 1 << 11, kH100)->ipb, 4u);   // dfmat.q256.t32: 128-thread blocks
  EXPECT_EQ(default_plan(Op::MulLow, 4097, 1 << 20, kH100)->variant.find("wlow"), std::string::npos);  // past l4's limit
  EXPECT_EQ(default_plan(Op::Mul, 8192, 1 << 19, kH100)->ipb, 4u);
  EXPECT_EQ(default_plan(Op::Mul, 9215, 1 << 18, kH100)->ipb, 1u);
  EXPECT_EQ(default_plan(Op::Mul, 16384, 1 << 18, kH100)->ipb, 2u);  // wkara: one full warp per block
  // Small batches: the one-round kernel (the rounds need >= 64 blocks per SM).
  EXPECT_EQ(default_plan(Op::Mul, 1024, 100000, kH100)->variant, "mul.blockrot.u32.q16.l2");
  EXPECT_EQ(default_plan(Op::Mul, 4500, 1000, kH100)->variant, "mul.blockrot.u32.q16.l16");
  EXPECT_EQ(default_plan(Op::Mul, 20000, 100, kH100)->variant, "mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l16");
  EXPECT_EQ(default_plan(Op::Mul, 8192, 1000, kH100)->variant, "mul.wkara.u32.q16.l8.k1");  // no rounds
  // Past Barrett's 2^19 bits (its division at 2^20): no modular plan at all.
  EXPECT_FALSE(default_plan(Op::MulMod, 524289, 1, kH100));
  EXPECT_FALSE(default_plan(Op::PowM, 524289, 1, kH100));
}

// powm with one modulus for the batch: the tensor-core Barrett powm from 8
// to 32 Kbit on one wave of its blocks (64 x 132 instances on an H100) or
// more, a valid plan there; the selector elsewhere.
TEST(DefaultPlan, SharedModulusPowmRule) {
  const uint64_t one_wave = 64 * uint64_t(kH100.sm_count);
  for (uint64_t bits : {8192ull, 8193ull, 12345ull, 16384ull, 20000ull, 24576ull, 32768ull}) {
    const auto plan = shared_modulus_powm_plan(bits, one_wave, kH100);
    ASSERT_TRUE(plan) << bits;
    EXPECT_EQ(plan->variant, "powm.tcbarrett.u64.q1.w6");
    EXPECT_EQ(plan->source, "shared modulus");
    EXPECT_NO_THROW(validate_plan(*plan, Op::PowM, bits, one_wave, kH100)) << bits;
  }
  EXPECT_FALSE(shared_modulus_powm_plan(8191, one_wave, kH100));
  EXPECT_FALSE(shared_modulus_powm_plan(32769, one_wave, kH100));
  EXPECT_FALSE(shared_modulus_powm_plan(12345, one_wave - 1, kH100));
}

// mulmod / sqrmod with a modulus per instance: the measured rule, a plan
// valid for every size the ops support (a renamed variant fails here, not
// at a user's call); other ops ask the selector. The selector's own plans
// for these two ops are measured with one modulus for the batch.
TEST(DefaultPlan, ModuliPerInstanceTakeTheRemainderRule) {
  for (Op op : {Op::MulMod, Op::SqrMod}) {
    uint64_t largest = 0;
    for (const kernels::Variant& v : kernels::registry())
      if (v.op == to_kernel_op(op)) largest = std::max(largest, kernels::max_operand_bits(v, kH100));
    for (uint64_t bits = 1; bits <= largest; bits = bits * 3 / 2 + 7) {
      const auto plan = per_instance_modulus_plan(op, bits);
      ASSERT_TRUE(plan) << op_name(op) << " " << bits;
      EXPECT_EQ(plan->source, "moduli per instance");
      EXPECT_NE(plan->variant.find(bits <= 64 ? ".preinv." : ".rem."), std::string::npos) << plan->variant;
      EXPECT_NO_THROW(validate_plan(*plan, op, bits, 1000, kH100)) << plan->variant << " at " << bits << " bits";
    }
    EXPECT_EQ(per_instance_modulus_plan(op, 64)->variant, std::string(op_name(op)) + ".preinv.u64.q1");
    EXPECT_EQ(per_instance_modulus_plan(op, 65)->variant, std::string(op_name(op)) + ".rem.u64.q1");
    EXPECT_TRUE(op_layout(op, 4096).one_modulus);
  }
  for (Op op : {Op::PowM, Op::ModInv, Op::Mul, Op::Gcd}) {
    EXPECT_FALSE(per_instance_modulus_plan(op, 4096)) << op_name(op);
    EXPECT_FALSE(op_layout(op, 4096).one_modulus) << op_name(op);
  }
}

TEST(MpzWords, RoundTripAndRange) {
  gmp_randstate_t rng;
  gmp_randinit_default(rng);
  gmp_randseed_ui(rng, test::test_seed());
  mpz_t v, back;
  mpz_inits(v, back, nullptr);
  for (uint64_t bits : {1ull, 63ull, 64ull, 65ull, 1000ull, 4097ull}) {
    const size_t words = (bits + 63) / 64;
    for (int kind = 0; kind < test::kOperandKinds; ++kind) {
      test::make_operand(v, rng, bits, static_cast<test::OperandKind>(kind));
      std::vector<uint64_t> w(words, 0x1234);
      mpz_to_words(w.data(), words, bits, v);
      EXPECT_TRUE(words_fit_bits(w.data(), words, bits));
      words_to_mpz(back, w.data(), words);
      EXPECT_EQ(mpz_cmp(v, back), 0) << bits << " " << test::hex(v);
    }
    mpz_set_ui(v, 0);
    mpz_setbit(v, bits);  // 2^bits: one too many
    std::vector<uint64_t> w(words + 1);
    EXPECT_THROW(mpz_to_words(w.data(), words, bits, v), Error);
    mpz_set_si(v, -1);
    EXPECT_THROW(mpz_to_words(w.data(), words, bits, v), Error);
  }
  std::vector<uint64_t> w{0, 1};
  EXPECT_TRUE(words_fit_bits(w.data(), 2, 65));
  EXPECT_FALSE(words_fit_bits(w.data(), 2, 64));
  mpz_clears(v, back, nullptr);
  gmp_randclear(rng);
}

TEST(GmpReference, FlagsAndModularResults) {
  mpz_t a, b, r;
  mpz_inits(a, b, r, nullptr);
  int flag = 0;
  mpz_set_ui(a, 0);
  mpz_setbit(a, 100);
  mpz_sub_ui(a, a, 1);  // 2^100 - 1
  mpz_set_ui(b, 1);
  gmp_reference(Op::Add, 100, 0, a, b, r, &flag);
  EXPECT_EQ(mpz_sgn(r), 0);
  EXPECT_EQ(flag, 1);
  gmp_reference(Op::Sub, 100, 0, b, a, r, &flag);  // 1 - (2^100 - 1) mod 2^100 = 2
  EXPECT_EQ(mpz_cmp_ui(r, 2), 0);
  EXPECT_EQ(flag, 1);
  gmp_reference(Op::Cmp, 100, 0, b, a, r, &flag);
  EXPECT_EQ(flag, -1);
  gmp_reference(Op::Shl, 100, 99, b, b, r, &flag);
  EXPECT_EQ(mpz_sizeinbase(r, 2), 100u);
  gmp_reference(Op::Shl, 100, 100, b, b, r, &flag);
  EXPECT_EQ(mpz_sgn(r), 0);
  gmp_reference(Op::MulLow, 100, 0, a, a, r, &flag);  // (2^100-1)^2 mod 2^100 = 1
  EXPECT_EQ(mpz_cmp_ui(r, 1), 0);
  mpz_clears(a, b, r, nullptr);
}

TEST(GmpReference, DivisionFusedAndModularSemantics) {
  mpz_t a, b, c, m, r, r2;
  mpz_inits(a, b, c, m, r, r2, nullptr);
  int flag = -5;
  RefOperands in;
  in.a = a, in.b = b, in.c = c, in.m = m;
  mpz_set_ui(a, 100), mpz_set_ui(b, 7);
  gmp_reference(Op::DivMod, 8, 8, in, r, r2, &flag);
  EXPECT_EQ(mpz_get_ui(r), 14u);
  EXPECT_EQ(mpz_get_ui(r2), 2u);
  EXPECT_EQ(flag, 0);
  mpz_set_ui(b, 0);
  gmp_reference(Op::DivMod, 8, 8, in, r, r2, &flag);
  EXPECT_TRUE(mpz_sgn(r) == 0 && mpz_sgn(r2) == 0 && flag == 1);
  mpz_set_ui(a, 3), mpz_set_ui(b, 5), mpz_set_ui(c, 9);
  gmp_reference(Op::Poly, 3, 64, in, r, r2, &flag);  // (9 + 5)(25 + 5) + 15
  EXPECT_EQ(mpz_get_ui(r), 435u);
  gmp_reference(Op::Poly, 3, 8, in, r, r2, &flag);  // reduced modulo 2^8
  EXPECT_EQ(mpz_get_ui(r), 435u % 256);
  gmp_reference(Op::MulAdd, 3, 64, in, r, r2, &flag);
  EXPECT_EQ(mpz_get_ui(r), 24u);
  mpz_set_ui(m, 12), mpz_set_ui(a, 4);
  gmp_reference(Op::ModInv, 4, 4, in, r, r2, &flag);
  EXPECT_TRUE(mpz_sgn(r) == 0 && flag == 1);
  mpz_set_ui(a, 5);
  gmp_reference(Op::ModInv, 4, 4, in, r, r2, &flag);
  EXPECT_TRUE(mpz_get_ui(r) == 5 && flag == 0);  // 5 * 5 = 25 = 1 mod 12
  mpz_set_ui(b, 0);
  gmp_reference(Op::PowM, 4, 4, in, r, r2, &flag);
  EXPECT_EQ(mpz_get_ui(r), 1u);
  mpz_set_ui(m, 1);
  gmp_reference(Op::PowM, 4, 4, in, r, r2, &flag);
  EXPECT_EQ(mpz_get_ui(r), 0u);
  mpz_set_ui(a, 99);
  gmp_reference(Op::Sqrt, 7, 4, in, r, r2, &flag);
  EXPECT_EQ(mpz_get_ui(r), 9u);
  EXPECT_TRUE(op_has_second_value(Op::DivMod) && op_has_flag(Op::ModInv) && !op_has_flag(Op::Mul));
  mpz_clears(a, b, c, m, r, r2, nullptr);
}

TEST(CAbi, NullArgumentsAndNoDevice) {
  EXPECT_EQ(bigtune_context_create(0, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(bigtune_last_error()).find("NULL"), std::string::npos);
  EXPECT_EQ(bigtune_add(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bigtune_divmod(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bigtune_powm(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(bigtune_modinv(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr), BIGTUNE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(bigtune_last_error()).find("no_inverse"), std::string::npos) << bigtune_last_error();
  int n = 0;
  const bool gpu = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  bigtune_context* ctx = nullptr;
  const bigtune_status st = bigtune_context_create(gpu ? n : 0, &ctx);  // device n never exists
  EXPECT_EQ(st, gpu ? BIGTUNE_ERROR_INVALID_ARGUMENT : BIGTUNE_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(bigtune_last_error()).find(" — "), std::string::npos) << bigtune_last_error();
  EXPECT_EQ(ctx, nullptr);
}

TEST(Context, NoDeviceIsAClearError) {
  int n = 0;
  if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) GTEST_SKIP() << "a GPU is present";
  cudaGetLastError();
  try {
    Context ctx;
    FAIL() << "a Context was created without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::NoDevice);
    EXPECT_NE(std::string(e.what()).find("bigtune query"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace bigtune::runtime
