// Subtractions and additions over 16 32-bit words as one chain of the carry
// flag (PTX sub.cc / subc, add.cc / addc, mad.lo.cc / madc.hi: one
// instruction a word, against two to five for the same carry or borrow
// through 64-bit sums), for the word passes of the tensor-core kernels
// (mul_const_wgmma.cuh: the words of a tile from its 64-bit word sums, the
// composed Barrett's r = t - q m' and its corrections). The carry flag lives
// only within one asm statement, so each chain is one. On the host
// emulation (BIGTUNE_WARP_EMULATION) the same results from plain C++.
#pragma once
#include <cstdint>

namespace bigtune::kernels::block {

#define BIGTUNE_SUBC(i, j) "subc.cc.u32 %" #i ", %" #i ", %" #j ";\n\t"
#define BIGTUNE_SUBC0(i) "subc.cc.u32 %" #i ", %" #i ", 0;\n\t"
#define BIGTUNE_X16_INOUT                                                                                  \
  "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]), "+r"(x[7]), "+r"(x[8]), \
      "+r"(x[9]), "+r"(x[10]), "+r"(x[11]), "+r"(x[12]), "+r"(x[13]), "+r"(x[14]), "+r"(x[15])
#define BIGTUNE_Y16_IN                                                                                  \
  "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]), "r"(y[9]), \
      "r"(y[10]), "r"(y[11]), "r"(y[12]), "r"(y[13]), "r"(y[14]), "r"(y[15])

// x -= y + b for b in {0, 1}; returns the borrow out (0 or 1).
__device__ inline uint32_t sub16_borrow(uint32_t (&x)[16], const uint32_t (&y)[16], uint32_t b) {
#ifdef BIGTUNE_WARP_EMULATION
  for (uint32_t q = 0; q < 16; ++q) {
    const uint64_t v = uint64_t(x[q]) - y[q] - b;
    x[q] = uint32_t(v);
    b = uint32_t(v >> 63);
  }
  return b;
#else
  uint32_t neg;  // 0 - the borrow out
  // %0-%15 x, %16 neg, %17-%32 y, %33 b; "sub.cc 0 - b" sets the flag to b.
  asm("{\n\t.reg .u32 t;\n\t"
      "sub.cc.u32 t, 0, %33;\n\t" BIGTUNE_SUBC(0, 17) BIGTUNE_SUBC(1, 18) BIGTUNE_SUBC(2, 19) BIGTUNE_SUBC(3, 20)
          BIGTUNE_SUBC(4, 21) BIGTUNE_SUBC(5, 22) BIGTUNE_SUBC(6, 23) BIGTUNE_SUBC(7, 24) BIGTUNE_SUBC(8, 25)
              BIGTUNE_SUBC(9, 26) BIGTUNE_SUBC(10, 27) BIGTUNE_SUBC(11, 28) BIGTUNE_SUBC(12, 29) BIGTUNE_SUBC(13, 30)
                  BIGTUNE_SUBC(14, 31) BIGTUNE_SUBC(15, 32) "subc.u32 %16, 0, 0;\n\t}"
      : BIGTUNE_X16_INOUT, "=r"(neg)
      : BIGTUNE_Y16_IN, "r"(b));
  return 0u - neg;
#endif
}

// x -= b for any b; returns the borrow out (0 or 1).
__device__ inline uint32_t sub16_word(uint32_t (&x)[16], uint32_t b) {
#ifdef BIGTUNE_WARP_EMULATION
  for (uint32_t q = 0; q < 16; ++q) {
    const uint64_t v = uint64_t(x[q]) - b;
    x[q] = uint32_t(v);
    b = uint32_t(v >> 63);
  }
  return b;
#else
  uint32_t neg;
  // %0-%15 x, %16 neg, %17 b.
  asm("{\n\tsub.cc.u32 %0, %0, %17;\n\t" BIGTUNE_SUBC0(1) BIGTUNE_SUBC0(2) BIGTUNE_SUBC0(3) BIGTUNE_SUBC0(4)
          BIGTUNE_SUBC0(5) BIGTUNE_SUBC0(6) BIGTUNE_SUBC0(7) BIGTUNE_SUBC0(8) BIGTUNE_SUBC0(9) BIGTUNE_SUBC0(10)
              BIGTUNE_SUBC0(11) BIGTUNE_SUBC0(12) BIGTUNE_SUBC0(13) BIGTUNE_SUBC0(14) BIGTUNE_SUBC0(15)
                  "subc.u32 %16, 0, 0;\n\t}"
      : BIGTUNE_X16_INOUT, "=r"(neg)
      : "r"(b));
  return 0u - neg;
#endif
}

#define BIGTUNE_ADDC(i, j, k) "addc.cc.u32 %" #i ", %" #j ", %" #k ";\n\t"
#define BIGTUNE_ADDC0(i) "addc.cc.u32 %" #i ", %" #i ", 0;\n\t"

// x = the 16 words of sum_q (lo[q] + 2^32 hi[q]) 2^(32 q) + c, the words'
// 64-bit sums split in halves: x[0] = lo[0] + c, x[q] = lo[q] + hi[q - 1]
// and the carry, so the chain waits only on the carry flag. Returns the
// carry out, hi[15] plus the chain's carry (hi[q] < 2^31 keeps it in a word).
__device__ inline uint32_t add16_split(uint32_t (&x)[16], const uint32_t (&lo)[16], const uint32_t (&hi)[16],
                                       uint32_t c) {
#ifdef BIGTUNE_WARP_EMULATION
  uint64_t v = uint64_t(lo[0]) + c;
  x[0] = uint32_t(v);
  for (uint32_t q = 1; q < 16; ++q) {
    v = uint64_t(lo[q]) + hi[q - 1] + (v >> 32);
    x[q] = uint32_t(v);
  }
  return hi[15] + uint32_t(v >> 32);
#else
  uint32_t out;
  // %0-%15 x, %16 out, %17-%32 lo, %33-%48 hi, %49 c.
  asm("{\n\tadd.cc.u32 %0, %17, %49;\n\t" BIGTUNE_ADDC(1, 18, 33) BIGTUNE_ADDC(2, 19, 34) BIGTUNE_ADDC(3, 20, 35)
          BIGTUNE_ADDC(4, 21, 36) BIGTUNE_ADDC(5, 22, 37) BIGTUNE_ADDC(6, 23, 38) BIGTUNE_ADDC(7, 24, 39)
              BIGTUNE_ADDC(8, 25, 40) BIGTUNE_ADDC(9, 26, 41) BIGTUNE_ADDC(10, 27, 42) BIGTUNE_ADDC(11, 28, 43)
                  BIGTUNE_ADDC(12, 29, 44) BIGTUNE_ADDC(13, 30, 45) BIGTUNE_ADDC(14, 31, 46) BIGTUNE_ADDC(15, 32, 47)
                      "addc.u32 %16, %48, 0;\n\t}"
      : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3]), "=r"(x[4]), "=r"(x[5]), "=r"(x[6]), "=r"(x[7]), "=r"(x[8]),
        "=r"(x[9]), "=r"(x[10]), "=r"(x[11]), "=r"(x[12]), "=r"(x[13]), "=r"(x[14]), "=r"(x[15]), "=r"(out)
      : "r"(lo[0]), "r"(lo[1]), "r"(lo[2]), "r"(lo[3]), "r"(lo[4]), "r"(lo[5]), "r"(lo[6]), "r"(lo[7]), "r"(lo[8]),
        "r"(lo[9]), "r"(lo[10]), "r"(lo[11]), "r"(lo[12]), "r"(lo[13]), "r"(lo[14]), "r"(lo[15]), "r"(hi[0]),
        "r"(hi[1]), "r"(hi[2]), "r"(hi[3]), "r"(hi[4]), "r"(hi[5]), "r"(hi[6]), "r"(hi[7]), "r"(hi[8]), "r"(hi[9]),
        "r"(hi[10]), "r"(hi[11]), "r"(hi[12]), "r"(hi[13]), "r"(hi[14]), "r"(hi[15]), "r"(c));
  return out;
#endif
}

// x += c for any c; returns the carry out (0 or 1).
__device__ inline uint32_t add16_word(uint32_t (&x)[16], uint32_t c) {
#ifdef BIGTUNE_WARP_EMULATION
  for (uint32_t q = 0; q < 16; ++q) {
    const uint64_t v = uint64_t(x[q]) + c;
    x[q] = uint32_t(v);
    c = uint32_t(v >> 32);
  }
  return c;
#else
  uint32_t out;
  // %0-%15 x, %16 out, %17 c.
  asm("{\n\tadd.cc.u32 %0, %0, %17;\n\t" BIGTUNE_ADDC0(1) BIGTUNE_ADDC0(2) BIGTUNE_ADDC0(3) BIGTUNE_ADDC0(4)
          BIGTUNE_ADDC0(5) BIGTUNE_ADDC0(6) BIGTUNE_ADDC0(7) BIGTUNE_ADDC0(8) BIGTUNE_ADDC0(9) BIGTUNE_ADDC0(10)
              BIGTUNE_ADDC0(11) BIGTUNE_ADDC0(12) BIGTUNE_ADDC0(13) BIGTUNE_ADDC0(14) BIGTUNE_ADDC0(15)
                  "addc.u32 %16, 0, 0;\n\t}"
      : BIGTUNE_X16_INOUT, "=r"(out)
      : "r"(c));
  return out;
#endif
}

#define BIGTUNE_MADC(z, j) "mad.lo.cc.u32 " #z ", %33, %" #j ", h;\n\tmadc.hi.u32 h, %33, %" #j ", 0;\n\t"

// x -= c y + b (c y + b below 2^32 times 2^(32 16)); returns the borrow out,
// the top word of c y + b plus the chain's borrow (at most c + 1 for b <= c + 1).
__device__ inline uint32_t submul16(uint32_t (&x)[16], const uint32_t (&y)[16], uint32_t c, uint32_t b) {
#ifdef BIGTUNE_WARP_EMULATION
  for (uint32_t q = 0; q < 16; ++q) {
    const int64_t a = int64_t(x[q]) - int64_t(c) * int64_t(y[q]) - int64_t(b);
    x[q] = uint32_t(a);
    b = uint32_t(-(a >> 32));
  }
  return b;
#else
  uint32_t out;
  // %0-%15 x, %16 out, %17-%32 y, %33 c, %34 b: z = c y + b (z0..z15 and h
  // on top), then x -= z, then out = h + the borrow.
  asm("{\n\t.reg .u32 z<16>, h;\n\t"
      "mad.lo.cc.u32 z0, %33, %17, %34;\n\tmadc.hi.u32 h, %33, %17, 0;\n\t" BIGTUNE_MADC(z1, 18) BIGTUNE_MADC(z2, 19)
          BIGTUNE_MADC(z3, 20) BIGTUNE_MADC(z4, 21) BIGTUNE_MADC(z5, 22) BIGTUNE_MADC(z6, 23) BIGTUNE_MADC(z7, 24)
              BIGTUNE_MADC(z8, 25) BIGTUNE_MADC(z9, 26) BIGTUNE_MADC(z10, 27) BIGTUNE_MADC(z11, 28)
                  BIGTUNE_MADC(z12, 29) BIGTUNE_MADC(z13, 30) BIGTUNE_MADC(z14, 31) BIGTUNE_MADC(z15, 32)
      "sub.cc.u32 %0, %0, z0;\n\tsubc.cc.u32 %1, %1, z1;\n\tsubc.cc.u32 %2, %2, z2;\n\tsubc.cc.u32 %3, %3, z3;\n\t"
      "subc.cc.u32 %4, %4, z4;\n\tsubc.cc.u32 %5, %5, z5;\n\tsubc.cc.u32 %6, %6, z6;\n\tsubc.cc.u32 %7, %7, z7;\n\t"
      "subc.cc.u32 %8, %8, z8;\n\tsubc.cc.u32 %9, %9, z9;\n\tsubc.cc.u32 %10, %10, z10;\n\t"
      "subc.cc.u32 %11, %11, z11;\n\tsubc.cc.u32 %12, %12, z12;\n\tsubc.cc.u32 %13, %13, z13;\n\t"
      "subc.cc.u32 %14, %14, z14;\n\tsubc.cc.u32 %15, %15, z15;\n\t"
      "subc.u32 %16, 0, 0;\n\tsub.u32 %16, h, %16;\n\t}"
      : BIGTUNE_X16_INOUT, "=r"(out)
      : BIGTUNE_Y16_IN, "r"(c), "r"(b));
  return out;
#endif
}

#undef BIGTUNE_MADC
#undef BIGTUNE_ADDC0
#undef BIGTUNE_ADDC
#undef BIGTUNE_Y16_IN
#undef BIGTUNE_X16_INOUT
#undef BIGTUNE_SUBC0
#undef BIGTUNE_SUBC

}  // namespace bigtune::kernels::block
