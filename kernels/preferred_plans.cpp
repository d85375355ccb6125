// The named preferences (kernels/preferred_plans.hpp), each with the
// measurement it comes from.
#include "kernels/preferred_plans.hpp"

#include <algorithm>
#include <string>

namespace bigtune::kernels {

namespace {
struct Preferred {
  std::string variant;
  uint32_t ipb;
};

std::string prefixed(Op op, const char* rest) { return std::string(op_name(op)) + "." + rest; }

// mulmod, sqrmod, powm: thread-level CIOS up to 512 bits (its figures of
// bench/results/2026-11-22-h100-mod.md; the warp variants were not measured
// there), the warp-level Montgomery product from 513 to 8192 bits (session
// 3: 1.3x-40x the thread kernels, bench/results/2026-11-22-h100-modwarp.md).
// Since task modfast its block form (Q x Q Comba blocks, bmont) with Q = 8:
// mulmod 1.07-1.10x the digit-serial product at every size, and powm with the
// window table in global memory (bgfixed, w = 5 at 1 Kbit, 6 above): 1.23-1.29x
// the session-3 default (bench/results/2026-11-22-h100-modfast.md). 256 / L instances per
// block (the launch halves them where a table outgrows shared memory).
std::optional<Preferred> preferred_modular(Op op, uint64_t bits, bool dfma_powm = true) {
  const bool powm = op == Op::PowM;
  // To 64 bits: one word per instance, remainders by a precomputed reciprocal
  // for any modulus (kernels/modular/mod64.cuh; session 9, figures in
  // bench/results/2026-11-23-h100-session9.md).
  if (bits <= 64) return Preferred{powm ? "powm.preinv.u64.q1.w4" : prefixed(op, "preinv.u64.q1"), 128};
  if (bits <= 512) {
    const std::string n = bits <= 256 ? "8" : "16";
    // mulmod / sqrmod to 128 bits on 4 limbs (session 8, call C: 2.33e10
    // against 1.08e10 mulmod/s on 8 limbs at 128 bits). With a shared odd
    // full-size modulus the thread kernels reduce by Barrett (call F: 4.22e10 /
    // 2.04e10 / 6.89e9 mulmod/s at 128 / 256 / 512 bits, 1.00x / 1.01x / 1.45x
    // the full product; bench/results/2026-11-23-h100-session8.md).
    // powm on 4 limbs to 128 bits too, window 3 (session 9, run C: 4.76e8
    // powm/s at 128 bits against 3.84e8 with w4 and 1.40e8 on 8 limbs).
    const std::string mn = bits <= 128 ? "4" : n;
    // Session 10 (run F): powm from 65 to 512 bits on the DFMA Montgomery
    // powm of 3, 5 or 10 limbs of 52 bits (kernels/modular/dfma_montgomery.cuh):
    // 6.95e8 / 1.68e8 / 2.36e7 powm/s at 128 / 256 / 512 bits against 4.77e8
    // (fixed.u32.q4.w3) / 7.43e7 / 9.96e6 (fixed.u32.q8 / q16.w4): 1.46x,
    // 2.26x, 2.37x; 2.26x at 192 and 2.46x at 384.
    if (powm)
      return Preferred{bits <= 128 ? "powm.dfma.u64.q2.w3.sq" : bits <= 256 ? "powm.dfma.u64.q4.w4.sq"
                                                                            : "powm.dfma.u64.q8.w4.sq",
                       128};
    return Preferred{prefixed(op, "mont.u32.q") + mn, 128};
  }
  // Above 8 Kbit (to 2^19 bits): Barrett over the registered products (task
  // barrett, kernels/variants/barrett_instances.cu; any modulus), powm with
  // 6-bit windows (fewest products per exponent bit from 16 Kbit on:
  // 2^6 - 2 table products + 1/6 per bit; bench/results/2026-11-22-h100-barrett.md).
  // Task powmregs: powm at 16 Kbit on the squaring kernel on a full warp
  // (Q = 16, L = 32; kernels/variants/warp_mod_regs_instances.cu), 256-thread
  // blocks: 533.2 vs 368.3 powm/s, 1.45x Barrett w6 at 16384 bits in the same
  // run (bench/results/2026-11-23-h100-powmregs.md, run 2), chosen as below at
  // S >= 15/16 L blocks (30 of 32: from 14849 bits; measured at S = L).
  // Session 11: 12288-16384 bits on the team DFMA powm on 32 lanes of 10
  // limbs (k = 320 whatever the size): H100 run F, 2048-bit exponents
  // scaled, 652.4 powm/s at 16384 bits against 533.1 for bgsqr q16.l32
  // (1.22x; H200 run D: 604.9 on 16 lanes of 20), 877.2 at 12288 against
  // 741 for the composed Barrett (1.18x). Session 12: its squarings by half
  // the pairs (.sq) with raw column sums and four steps a pass, full
  // exponents (H100 run H, two waves): 734.0 powm/s at 16384 bits against
  // 700.3 for session 11's build of q256.t32; with the Montgomery-friendly
  // modulus 764.1 (run J); and from 10240 bits (1128 against 987
  // for the composed Barrett there; the team kernel's cost does not shrink
  // with the size, so below 10240 bits Barrett keeps it, unmeasured against
  // it; bench/results/2026-11-27-h100-session12.md). That leaves bgsqr
  // q16.l32 (533 at 16384 bits) no default size. Session 13: rank 0's
  // division region in shared memory (797.6) and sliding windows of 8 bits
  // (.sw8.sq: 835.5 against main's 763.9 in the same run, 51.3x GMP-16;
  // bench/results/2026-11-28-h100-session13.md, run D).
  if (powm && bits >= 10240 && bits <= 16384) return Preferred{"powm.dfmat.u64.q256.t32.sw8.sq", 4};
  // powm above 16 Kbit to 32 Kbit: the fused NTT Barrett powm (task nttpowm,
  // one block per instance, mu's and m''s transforms cached;
  // kernels/modular/nttbarrett_powm.cuh): 1.12x the composed one at 32 Kbit,
  // equal at 64 Kbit (same run, bench/results/2026-11-23-h100-nttpowm.md).
  // At 16 Kbit (1.04x the composed one, 383.6/s) the warp powm above wins.
  // Session 8 (task nttfuse: the Barrett glue block-wide): 96.72 vs 84.81
  // powm/s at 32 Kbit (1.14x). Above 32 Kbit (2^12 points) its 64-register
  // build `.b2` (two 512-thread blocks per SM): 1.23x / 1.24x / 1.23x / 1.26x
  // the composed one at 36864 / 40960 / 49152 / 65536 bits (46.57 / 41.81 /
  // 33.86 / 24.69 vs 37.93 / 33.75 / 27.48 / 19.62, same run,
  // bench/results/2026-11-23-h100-nttfuse.md, run 3); 32769-36863 bits not
  // measured: the same transforms as at 36864, the composed one's products
  // (Karatsuba, sqr.ntt m13) those of 36864 too.
  // Session 14: the NTT Montgomery powm on R = 2^N' + 1 (every product half
  // the length: 7 transforms of 2^(log L - 1) points per squaring against 6
  // of L; kernels/modular/nttmont_powm.cuh) with 9-bit sliding windows:
  // 149.6 / 38.4 powm/s at 32 / 64 Kbit against the Barrett powm's 101.7 /
  // 26.32 in the same run (1.47x / 1.46x; bench/results/2026-11-28-h100-
  // session14.md, run C). A batch with a modulus it cannot take (even, 1, a
  // factor of R) runs the Barrett powm's defaults above (w6, .w6.b2).
  if (powm && bits > 16384 && bits <= 65536) return Preferred{"powm.nttmont.u64.q1.sw9", 1};
  // Session 19: mulmod / sqrmod above 2048 bits to 64 Kbit on the same
  // Barrett with its two reduction products on the u8 tensor cores
  // (tcbarrett, kernels/block/mul_const_imma.cuh; a shared modulus makes them
  // one matrix product with the batch; q1, q1 mu_lo's high half and q in
  // one pass). mulmod/s (H200, runs M and N of bench/results/2026-11-28-h200-
  // session19.md; the best other variant in the same process):
  //   2560 bits 2.17e8 against 1.44e8 (barrett; wbarrett q16.l8 1.33e8): 1.51x
  //   3584      1.77e8 against 1.27e8 (wbarrett2):                        1.40x
  //   4096      1.39e8 against 1.28e8 (wbarrett2):                        1.08x
  //   4608      8.69e7 against 4.87e7 (barrett):                          1.79x
  //   8 Kbit    5.48e7 against 3.75e7 (wbarrett2):                        1.46x
  //   16 Kbit   1.75e7 against 9.56e6 (barrett):                          1.83x
  //   32 Kbit   5.74e6 against 4.46e6 (barrett, cached spectra):          1.29x
  //   64 Kbit   2.17e6 against 1.98e6 (same):                             1.10x
  // sqrmod 1.11-1.84x. At 2048 bits wbarrett2 keeps it (4.26e8 against
  // 3.11e8). Moduli per instance run the product and its remainder (the
  // runtime's default there, runtime/context_ops.cpp).
  if (!powm && bits > 2048 && bits <= 65536) return Preferred{prefixed(op, "tcbarrett.u64.q1"), 1};
  // Session 24: from 1536 to 2048 bits where the size is whole 64-bit limbs.
  // There a full-width modulus has its finish in the q m' pass (session 23),
  // and tcbarrett leads: mulmod/s 5.84e8 / 4.50e8 / 4.79e8 at 1536 / 1600 /
  // 2048 bits against wbarrett 4.70e8 / wbarrett2 4.10e8 / 4.27e8, one run
  // (bench/results/2026-11-29-h200-session24.md, call 1); sqrmod at 2048 bits
  // 5.00e8 against wbarrett2's 4.41e8 (sessions 19-23, H200). At 1800 bits (a
  // shifted modulus: plain q m' and the finish) it runs 1.47e8 against
  // wbarrett2's 3.95e8, so other sizes keep the warp kernels below.
  if (!powm && bits >= 1536 && bits <= 2048 && bits % 64 == 0)
    return Preferred{prefixed(op, "tcbarrett.u64.q1"), 1};
  if (bits > 8192) return Preferred{powm ? "powm.barrett.u64.q1.w6" : prefixed(op, "barrett.u64.q1"), 1};
  const uint32_t lanes = bits <= 1024 ? 4 : bits <= 2048 ? 8 : bits <= 4096 ? 16 : 32;
  const std::string l = "q8.l" + std::to_string(lanes);
  // Session 10: 513-1024 bits on the DFMA Montgomery powm (one thread an
  // instance, 52-bit limbs in doubles, the limb products on the FP64 pipe;
  // kernels/modular/dfma_montgomery.cuh), squarings by halves, window 5:
  // 3.25e6 powm/s at 1024 bits against 1.835e6 for bgsqr q16.l2 below, 4.46e6
  // against 3.05e6 (bgfixed) at 768 and 5.35e6 against 3.62e6 at 640, per-
  // instance moduli and full exponents; at 512 bits fixed.u32.q16 keeps it
  // (9.92e6 against 6.56e6): the DFMA kernel runs 20 limbs whatever the size
  // (bench/results/2026-11-23-h100-session10.md, run C).
  if (powm && bits > 512 && bits <= 1024) return Preferred{"powm.dfma.u64.q16.w5.sq", 128};
  // 1537-2048 bits: the same on 40 limbs in SOS form (64-thread blocks, four
  // an SM), squarings as products: 3.30e5 powm/s at 2048 bits against 2.42e5
  // for bgsqr q8.l8 below (1.18x CGBN), 3.50e5 / 2.61e5 at 1920, 3.74e5 /
  // 3.05e5 (bgfixed) at 1792, on whole waves (run E); the squaring-by-halves
  // form ran 0.64x (straight-line code, spills).
  if (powm && dfma_powm && bits > 1536 && bits <= 2048) return Preferred{"powm.dfma.u64.q32.w6", 64};
  // 1025-1536 bits (run F): 30 limbs in SOS form, 7.43e5 powm/s at 1536 bits
  // against 4.04e5 for bgfixed q8.l8, 8.87e5 / 5.75e5 at 1280, 1.08e6 /
  // 6.35e5 at 1152.
  if (powm && dfma_powm && bits > 1024 && bits <= 1536) return Preferred{"powm.dfma.u64.q24.w6", 64};
  // Session 11: 2049-8192 bits on the DFMA Montgomery powm shared by a team
  // of lanes (kernels/modular/dfma_team_montgomery.cuh; 32 / T teams a warp,
  // 128-thread blocks). H200 runs C-D, full exponents, moduli per instance,
  // against the warp default: 1.63e5 / 7.66e4 powm/s at 2560 bits (q40.t4 /
  // bgfixed q8.l16; q48.t4 1.055e5), 8.68e4 / 5.35e4 at 3072 (q48.t4), and
  // 1.11e4 / 6812 at 6144 (q96.t8 / bgfixed q8.l32); H100 run F: 4.361e4 /
  // 3.319e4 at 4096 (q64.t8 / bgsqr q16.l8), 5651 / 4283 at 8192 (q128.t16 /
  // bgsqr q16.l16); the other lane counts 0.85-0.97x
  // (bench/results/2026-11-27-h100-session11.md). Session 12 (H100 run H, full
  // exponents, batches of 16896): raw column sums and four steps a pass,
  // 4.533e4 at 4096 bits and 5823 at 8192 against 4.358e4 / 5647 for session
  // 11's build, and with the Montgomery-friendly modulus 4.978e4 / 5974 (run
  // J); the squarings by half the pairs (.sq) ran 0.998x at 8192
  // bits and 0.98x at 4096 (run E), so they stay at 10-16 Kbit only
  // (bench/results/2026-11-27-h100-session12.md).
  if (powm && bits > 2048 && bits <= 8192) {
    if (bits <= 2560) return Preferred{"powm.dfmat.u64.q40.t4.w6", 32};
    if (bits <= 3072) return Preferred{"powm.dfmat.u64.q48.t4.w6", 32};
    if (bits <= 4096) return Preferred{"powm.dfmat.u64.q64.t8.w6", 16};
    if (bits <= 6144) return Preferred{"powm.dfmat.u64.q96.t8.w6", 16};
    return Preferred{"powm.dfmat.u64.q128.t16.w6", 8};
  }
  // Window 5 at 1 Kbit, 6 above (1.4-2.3 % faster there, equal at 1 Kbit).
  // Task powmsqr: the squarings on the Montgomery squaring (bgsqr, w = 6),
  // 1.04x / 1.066x / 1.079x bgfixed at 2048 / 4096 / 8192 bits, 0.99x at 1024
  // (bench/results/2026-11-22-h100-powmsqr.md). Its square phase runs L/2
  // pair steps whatever the size, so with S = ceil(bits / 256) blocks below
  // the lanes' L it does wasted pairs while the product does S steps: by the
  // SASS counts (bench/notes/powmsqr-bound.md: instructions 1.09x the
  // product's at S = 7/8 L, 1.03x at S = L = 8, where the kernel, latency-
  // bound, ran 1.04x) it is chosen from S >= 15/16 L only (measured: S = L).
  const uint64_t blocks = (bits + 255) / 256;
  // At 4 and 8 Kbit the squaring kernel on Q = 16 blocks and half the lanes
  // (q16.l8 / q16.l16, 256-thread blocks): 3.26e4 vs 3.04e4 and 4078 vs 3968
  // powm/s (session 6, run 4: 1.07x / 1.03x), over the same size range.
  if (powm && lanes >= 16 && 16 * blocks >= 15 * uint64_t(lanes))
    return Preferred{"powm.bgsqr.u32.q16.l" + std::to_string(lanes / 2) + ".w6", 512 / lanes};
  if (powm && lanes >= 8 && 16 * blocks >= 15 * uint64_t(lanes))
    return Preferred{"powm.bgsqr.u32." + l + ".w6", 256 / lanes};
  // Task powm1k: 769-1024 bits on two-lane segments of Q = 16 limbs (the
  // squarings on kernels/warp/montgomery_sqr2.cuh), 64 instances per block
  // (128-thread blocks: 3 per SM at 162 registers, 12 warps): 1.896e6 against
  // 1.784e6 for the best q8.l4 (bgfixed.w6) on whole waves, 2.02e6 against
  // 1.98e6 at 896 bits; at 768 (q8.l4's S = 3 blocks) 2.34e6 against 2.92e6
  // (bench/results/2026-11-23-h100-powm1k.md).
  if (powm && lanes == 4 && bits > 768) return Preferred{"powm.bgsqr.u32.q16.l2.w5", 64};
  if (powm) return Preferred{"powm.bgfixed.u32." + l + (lanes == 4 ? ".w5" : ".w6"), 256 / lanes};
  // mulmod / sqrmod since task mulmodfast: the fused warp Barrett kernel
  // (kernels/warp/barrett_fused.cuh; a modulus per instance runs the bmont
  // variant of the same limbs from its launch, so it is never behind bmont):
  // shared full-width modulus 1.18x / 1.37x / 1.39x / 1.48x / 1.68x bmont at
  // 1 / 2 / 3 / 4 / 8 Kbit, sqrmod 1.22x - 1.69x
  // (bench/results/2026-11-22-h100-mulmodfast.md). q8.l4 at 1 Kbit, Q = 16
  // from 2 Kbit (2 Kbit: q16.l4 ties q8.l8 on mulmod, +4 % on sqrmod).
  // 128-thread blocks (the kernel's static shared memory is sized for them).
  // Task mulmodhalf: the warp Barrett by halves (kernels/warp/barrett_half.cuh,
  // wbarrett2: 2.25 N^2 digit products against 3 N^2) beats wbarrett at 2, 4
  // and 8 Kbit: mulmod 1.12x / 1.21x / 1.21x, sqrmod 1.09x / 1.14x / 1.20x
  // (bench/results/2026-11-23-h100-mulmodhalf.md, run 2). It always runs its
  // full width (n = N), while wbarrett runs ceil(limbs / 16) of its L blocks:
  // chosen only where wbarrett runs all L blocks (its last 512 bits), so
  // both run exactly the work measured. Same bmont fallback for moduli per
  // instance. Its 4- and 8-Kbit shapes, like wbarrett's from 2049 bits, are
  // no default since session 19: tcbarrett above 2048 bits (above).
  // From 989 to 1024 bits the DFMA Barrett (kernels/modular/barrett_dfma.cuh,
  // dfma_mod_instances.cu): a shared odd modulus of that size on the FP64
  // pipe, a modulus per instance on a DFMA Montgomery product (4.0e8 against
  // bmont's 2.5e8 mulmod/s, session 10 run K), a shared even or short one on
  // wbarrett.u32.q8.l4 as above. Session 9 ran the
  // same reduction inside the 32-limb thread kernel (255 registers): 2.42e9
  // against wbarrett's 1.25e9 mulmod/s at 1024 bits
  // (bench/results/2026-11-23-h100-session9.md, run E); session 10 by
  // columns in its own kernel (168 registers).
  // Session 10, runs B and C: mulmod on the rolled product, 2.39e9 against
  // 2.27e9 unrolled (measured as .r4, renamed .roll4 since: a ".r4" suffix
  // marks the warp products' rounds, rounds_for_batch), sqrmod unrolled
  // (2.93e9; .b4 2.67e9). Session 16: mulmod on warp tiles (.roll4.wtile,
  // coalesced operands, one wave of looping warps): 2.67-2.73e9 against
  // roll4's 2.35-2.39e9 in the same runs (bench/results/2026-11-28-h100-
  // session16.md, runs A and B); the square on tiles ran 0.88x, not taken.
  if (bits >= 989 && bits <= 1024)
    return Preferred{op == Op::MulMod ? "mulmod.dfma.u64.q16.roll4.wtile" : "sqrmod.dfma.u64.q16", 128};
  if (bits > 1536 && bits <= 2048) return Preferred{prefixed(op, "wbarrett2.u32.q8.l4.b32"), 8};
  if (lanes == 4) return Preferred{prefixed(op, "wbarrett.u32.q8.l4"), 32};
  const uint32_t l16 = lanes / 2;
  return Preferred{prefixed(op, "wbarrett.u32.q16.l") + std::to_string(l16), 128 / l16};
}

// Thresholds of the smallmul preferences (bench/results/2026-11-22-h100-smallmul.md,
// run 2). The q16.l2 product runs its two Q = 16 blocks at any size above 512
// bits; q8.l4 runs ceil(limbs / 8) blocks (3 up to 768 bits, 4 from 769), so
// the 2-lane form wins from 769 bits for mul (896 bits: 1.17x; 768: 0.96x)
// and mul_low (896: 1.03x; 768: 1.00x against comba.q32); sqr against
// comba.q32 from 897 bits (896: 1.01x, 768: 0.92x, 1000: 1.06x). mul_low.wlow
// (the full 4-Kbit cost at any size above 2 Kbit) against block classical:
// 3072 bits 0.95x, 3200 1.05x, 3328 1.05x, 3584 1.06x, 4096 1.25x.
constexpr uint64_t kMulL2From = 769;
constexpr uint64_t kSqrL2From = 897;
constexpr uint64_t kMulLowWlowFrom = 3137;

std::optional<Preferred> preferred(Op op, uint64_t bits) {
  switch (op) {
    case Op::Add:
    case Op::Sub:
      if (bits <= 64) return Preferred{prefixed(op, "direct.u64.q2"), 512};
      if (bits <= 1024) return Preferred{prefixed(op, "ripple.u64.q128"), bits <= 256 ? 512u : bits <= 512 ? 256u : 128u};
      // 2^14 .. 2^17 bits: the streaming kernel (one block per instance, here
      // one or two tiles; bench/results/2026-11-22-h100-addstream.md: 100.6 -
      // 101.7 % of copy against 98.4 - 100.8 % for the scan kernel's default);
      // above 2^21 bits (and past the chained family's 2^24-bit limit) its
      // three-stage 2^16-bit tiles (90.9 - 93.4 % at 2^22 against 90.5 - 93.1 %
      // for the chained kernel, 7 of 8 measurements ahead).
      if (bits >= 16384 && bits <= 131072)
        return Preferred{prefixed(op, bits > 65536 ? "stream.u64.q4.t512" : "stream.u64.q4.t256.s3"), 1};
      if (bits > 2097152) return Preferred{prefixed(op, "stream.u64.q4.t256.s3"), 1};
      // Past 2^19 bits one instance over several blocks of 2^19-bit tiles (the
      // chained family, bench/results/2026-11-22-h100-addbw.md: at 2^20 bits
      // 94.5 % / 96.0 % of copy for add / sub against 88.8 % / 90.1 % with
      // add.scan.u64.q16); up to 2^19 one block per instance is as fast.
      // (2^19, 2^20] bits: the cluster family (one thread block cluster of
      // 2^17-bit tiles per instance, carry through distributed shared memory,
      // sm_90; bench/results/2026-11-22-h100-add2.md: 97.3-98.4 % of copy at
      // 2^20 bits against 93.8-95.6 % for the chained kernel in the same runs).
      // Measured at 2^20 only; between 2^19 and 2^20 the chained kernel has
      // two tiles as at 2^20, the cluster kernel 5-8 (97-98 % at 4 and 8).
      if (bits > 524288 && bits <= 1048576) return Preferred{prefixed(op, "cluster.u64.q4.t512"), 1};
      if (bits > 524288) return Preferred{prefixed(op, "chained.u64.q16.t512"), 1};
      return std::nullopt;
    case Op::MulLow:
    case Op::Mul:
    case Op::Sqr:
      // Full product and square in the upper part of 2-16 Kbit: the warp
      // Karatsuba (kernels/variants/warp_kara.cuh, one level fused around
      // three block-rotate half products), one-warp blocks (IPB = 32 / L).
      // bench/results/2026-11-22-h100-warpkara.md: at the limits 1.21 / 1.28 /
      // 1.30x (mul) and 1.26 / 1.31 / 1.32x (sqr) the block-rotate defaults at
      // 4 / 8 / 16 Kbit; taken from the first measured size where it wins
      // (mul: 2560 bits 0.99x, 2816 1.07x; 4608 1.00x, 5120 1.05x; 9216 1.02x.
      // sqr: 2304 1.03x, 4608 1.03x, 9216 1.07x), below it the block-rotate.
      if ((op == Op::Mul || op == Op::Sqr) && bits > 2048 && bits <= 16384) {
        const uint32_t lanes = bits <= 4096 ? 4 : bits <= 8192 ? 8 : 16;
        const uint64_t from = op == Op::Sqr || lanes == 16 ? 576ull * lanes : lanes == 4 ? 2561 : 4609;
        if (bits >= from)
          return Preferred{prefixed(op, "wkara.u32.q16.l") + std::to_string(lanes) + ".k1", 32 / lanes};
      }
      // Full product from 257 bits to 8 Kbit: the warp block-rotate product
      // (kernels/warp/mul_block_rotate.cuh), 1.10-1.34x the sum-rotate and
      // ahead of the thread Comba from 512 bits (bench/results/
      // 2026-11-22-h100-warpmul.md); IPB = 512 / L.
      // From 513 bits (bench/results/2026-11-22-h100-mulsmall.md): 32-64-thread
      // blocks and 4 rounds of them per block (kernels/variants/
      // warp_mul_rounds.cuh; rounds_for_batch() drops the rounds for small
      // batches), 1.04-1.19x the 512-thread one-round blocks.
      if (op == Op::Mul && bits > 256 && bits <= 8192) {
        if (bits <= 512) return Preferred{"mul.blockrot.u32.q4.l4", 128};
        // smallmul (bench/results/2026-11-22-h100-smallmul.md): 2-lane segments
        // of Q = 16 blocks (16 instances per warp, 2.8 SASS instructions per
        // digit product against 4.3 at Q = 8): 4.74e9/s at 1 Kbit against
        // 4.21e9 for q8.l4.r4 (1.13x); q8.l4 stays below kMulL2From, where it
        // runs fewer blocks.
        if (bits <= 1024)
          return bits >= kMulL2From ? Preferred{"mul.blockrot.u32.q16.l2.r4", 32}
                                    : Preferred{"mul.blockrot.u32.q8.l4.r4", 16};
        if (bits <= 2048) return Preferred{"mul.blockrot.u32.q16.l4.r4", 8};
        if (bits <= 4096) return Preferred{"mul.blockrot.u32.q16.l8.r4", 4};
        return Preferred{"mul.blockrot.u32.q16.l16.r4", 4};
      }
      // mul_low and sqr in the upper part of 513 bits - 1 Kbit: the same
      // 2-lane block-rotate product, one round, 16 instances per block
      // (smallmul: mul_low 6.32e9/s against 5.29e9 for comba.q32, sqr 5.05e9
      // against 4.65e9 at 1 Kbit).
      if (((op == Op::MulLow && bits >= kMulL2From) || (op == Op::Sqr && bits >= kSqrL2From)) && bits <= 1024)
        return Preferred{prefixed(op, "blockrot.u32.q16.l2"), 16};
      // mul_low in the upper part of 2-4 Kbit: the warp low half by halves
      // (kernels/variants/warp_kara_low.cuh: a0 b0 + low halves of a0 b1 and
      // a1 b0), one-warp blocks. smallmul: 4.86e8/s at 4 Kbit against 3.90e8
      // for block classical (1.25x), 1.05-1.06x at 3200-3584 bits, 0.95x at
      // 3072 (its cost is that of the full 4-Kbit shape at any size above
      // 2 Kbit). At 8 Kbit wlow.l8 is within 1.5 % of block classical (kept).
      if (op == Op::MulLow && bits >= kMulLowWlowFrom && bits <= 4096) return Preferred{"mul_low.wlow.u32.q16.l4", 8};
      if (bits <= 2048) {
        uint32_t n = 2;
        while (n * 32 < bits) n *= 2;
        return Preferred{prefixed(op, "comba.u32.q") + std::to_string(n), n <= 8 ? 256u : n <= 32 ? 128u : 64u};
      }
      // sqr above 2 Kbit: the warp block-rotate product (seed 002 Alg. 3 with
      // one-lane shifts), 16 limbs per lane, 512/L instances per block
      // (bench/results/2026-11-22-h100-warpmul.md: 1.29-1.33x the sum-rotate);
      // mul_low keeps the block kernel, which is faster there.
      // 128-thread blocks: 1.06x / 1.03x the 512-thread ones at 4 / 8 Kbit
      // (bench/results/2026-11-22-h100-mulsmall.md).
      if (op != Op::MulLow && bits <= 8192)
        return Preferred{prefixed(op, bits <= 4096 ? "blockrot.u32.q16.l8" : "blockrot.u32.q16.l16"),
                         bits <= 4096 ? 16u : 8u};
      // 8 Kbit .. 64 Kbit (bench/results/2026-11-22-h100-kara.md, session 3):
      // mul to 16 Kbit on the 32-lane block-rotate product (2.33e7/s at 2^14
      // against 1.45e7 for block classical); above, Karatsuba over the 8-Kbit
      // block-rotate product, two levels to 32 Kbit (7.33e6/s at 2^15), three
      // to 40 Kbit (2.17e6/s at 2^16 against 1.64e6 for the Goldilocks NTT; the
      // CRT NTT below takes over from 40 Kbit). sqr: one
      // Karatsuba level to 16 Kbit (2.42e7/s), two below 32 Kbit, the NTT
      // square from 32 Kbit (session 4, below: 1.16e7/s at 2^15 against 7.89e6).
      // mulsmall (2026-11-22-h100-mulsmall.md): 16 Kbit on one-warp blocks in
      // rounds (2.41e7/s against 2.33e7); two Karatsuba levels over the 8-Kbit
      // product in rounds, 4 leaves per block (mul 7.55e6/s against 7.34e6,
      // sqr 7.89e6 against 7.75e6 with 4 leaves per block).
      if (op == Op::Mul && bits > 8192 && bits <= 16384) return Preferred{"mul.blockrot.u32.q16.l32.r4", 1};
      // mul from 20 Kbit: two Karatsuba levels over the warp Karatsuba at
      // 8 Kbit (5-8 Kbit leaves): 1.03x at 20480 bits, 1.19x at 2^15 (8.95e6/s
      // against 7.53e6); 18432 bits 1.00x.
      // nttbig (session 5, bench/results/2026-11-22-h100-nttbig.md): the NTT
      // on 2^11 points (16-32 Kbit, its cost flat there) runs 1.11e7 mul/s and
      // 1.53e7 sqr/s, 1.24x the warp-Karatsuba k2 mul (8.95e6) and 1.94x the
      // Karatsuba k2 sqr (7.89e6) at 2^15. Those scaled by n^1.585 from their
      // 2^15 figures meet the NTT near 28.7 Kbit (mul) and 22 Kbit (sqr) —
      // interpolated, not measured there — so the NTT takes over a little
      // above: from 30,721 (mul) and 24,577 (sqr) bits.
      if (op == Op::Mul && bits > 30720 && bits <= 131072) return Preferred{"mul.ntt.u64.q1.crt3.m13.t1024", 1};
      if (op == Op::Sqr && bits > 24576 && bits <= 32768) return Preferred{"sqr.ntt.u64.q1.crt3.m12.t256", 1};
      if (op == Op::Mul && bits >= 20480 && bits <= 32768)
        return Preferred{"mul.karatsuba.u64.q16.k2.wkara.u32.q16.l8.k1", 4};
      if (op != Op::MulLow && bits > 16384 && (op == Op::Mul ? bits <= 32768 : bits < 32768))
        return Preferred{op == Op::Mul ? "mul.karatsuba.u64.q16.k2.blockrot.u32.q16.l16.r4"
                                       : "sqr.karatsuba.u64.q16.k2.blockrot.u32.q16.l16",
                         4};
      if (op != Op::MulLow && bits > 8192 && bits < (op == Op::Mul ? 40961u : 32768u)) {
        const char* levels = bits <= 16384 ? "k1" : bits <= 32768 ? "k2" : "k3";
        return Preferred{prefixed(op, "karatsuba.u64.q16.") + levels + ".blockrot.u32.q16.l16", 32};
      }
      // Above: the NTT over three 31-bit primes with CRT (session 4,
      // bench/results/2026-11-22-h100-ntt2.md), in its 16-byte-element form
      // with the second spectrum in coalesced warp tiles (the run of the merged
      // ntt2-next, same file): mul 3.31e6 / 1.36e6 / 5.37e5 / 7.09e4 at 2^16 /
      // 2^17 / 2^18 / 2^20 on the 2^13-point, 1024-thread variant (Karatsuba
      // k3: 2.18e6 at 2^16). Its cost is flat up to the next power of two, so
      // it took over from 40,960 bits, where three Karatsuba levels measured
      // the same rate (3.36e6 at 40,000 bits); nttbig (above) moved that to
      // 30,721 bits (5.04e6 on 2^12 points against those 3.36e6). sqr from 32 Kbit: 1.16e7 at 2^15
      // (m12.t256) against Karatsuba's 7.89e6, 4.96e6 at 2^16 (m13.t512).
      // nttbig: above 2^17 bits (split transforms, D >= 2 sub-products with
      // m13) the 12-byte packed elements win (less global scratch traffic for
      // the sub-products): mul 9.24e5 / 3.58e5 / 1.17e5 at 2^18 / 2^19 / 2^20
      // against 8.80e5 / 3.14e5 / 1.16e5; sqr from 2^19 (5.36e5 / 1.64e5
      // against 5.04e5 / 1.51e5; 1 % apart at 2^18).
      if (op == Op::Mul && bits > 131072) return Preferred{"mul.ntt.u64.q1.crt3p.m13.t1024", 1};
      if (op == Op::Sqr && bits >= 32768)
        return Preferred{bits <= 32768    ? "sqr.ntt.u64.q1.crt3.m12.t256"
                         : bits <= 65536  ? "sqr.ntt.u64.q1.crt3.m13.t512"
                         : bits <= 262144 ? "sqr.ntt.u64.q1.crt3.m13.t1024"
                                          : "sqr.ntt.u64.q1.crt3p.m13.t1024",
                         1};
      return std::nullopt;
    case Op::DivMod:
      if (bits <= 2048) return Preferred{"divmod.knuth.u32.q64", 128};
      // Warp Newton reciprocal (bench/results/2026-11-22-h100-wdiv.md): 2.3x /
      // 2.7x / 3.4x the warp Knuth kernel at 4 / 8 / 16 Kbit; its cost is
      // fixed by N while Knuth's falls with the quotient's length, and the
      // Knuth figures scaled to the bottom of each range (2049, 4097, 8193
      // bits: 1.5e8, 4.9e7, 1.3e7) stay below Newton's.
      // div14 (-div14.md): its small products on mul_small (".sp"), 1.89e8 /
      // 7.57e7 / 2.67e7 at 4 / 8 / 16 Kbit, 1.03x / 1.15x / 1.19x.
      if (bits <= 4096) return Preferred{"divmod.newton.u32.q8.l8.c4.sp", 32};
      if (bits <= 8192) return Preferred{"divmod.newton.u32.q8.l16.c4.sp", 16};
      if (bits <= 16384) return Preferred{"divmod.newton.u32.q8.l32.c8.sp", 8};
      // Above 16 Kbit: Newton's reciprocal composed from the registered full
      // products (divmod.newtonc, kernels/block/div_newtonc.hpp; session 5:
      // 3.6x - 12x the block shinv kernel at 2^15 - 2^20, bench/results/
      // 2026-11-22-h100-divbig.md). div15 (-div15.md): its products from
      // preferred_plan, two passes per Newton step, the passes on one warp per
      // instance: 5.84e6 / 2.12e6 / 8.49e5 / 3.72e5 / 1.52e5 / 5.90e4 at 2^15 ..
      // 2^20, 1.55x / 1.43x / 1.20x / 1.09x / 1.05x / 1.08x session 5's; 1.3x -
      // 6.9x shinv at 16385 - 32767 bits (16385: 1.77e6 against 1.36e6).
      // Adds of 4 limbs per lane (.k4) from 2^16 (+2 %), one below (+5 % at 2^15).
      if (bits > 32768) return Preferred{"divmod.newtonc.u64.q4.pp.f.w1028.k4", 1};
      return Preferred{"divmod.newtonc.u64.q4.pp.f.w1028", 1};
    case Op::MulMod:
    case Op::SqrMod:
    case Op::PowM: return preferred_modular(op, bits);
    default: return std::nullopt;
  }
}

// The rounds variants (".r4": kernels/variants/warp_mul_rounds.cuh) pay off
// only when the batch fills the GPU with many blocks of 4 rounds: below 64
// such blocks per SM the one-round kernel is used (H100, 1 Kbit, 100,000
// instances: 2.80e9/s one-round against 2.45e9 in rounds;
// bench/results/2026-11-22-h100-mulsmall.md).
Preferred rounds_for_batch(Preferred p, uint64_t count, const DeviceLimits& limits) {
  const std::string suffix = ".r4";
  if (p.variant.size() < suffix.size() || p.variant.compare(p.variant.size() - suffix.size(), suffix.size(), suffix) != 0)
    return p;
  // A Karatsuba plan's base runs on 3^levels leaf products per instance.
  uint64_t products = count;
  const size_t kara = p.variant.find(".karatsuba.");
  if (kara != std::string::npos) {
    const size_t k = p.variant.find(".k", kara + 1);
    if (k != std::string::npos && k + 2 < p.variant.size() && p.variant[k + 2] >= '1' && p.variant[k + 2] <= '9')
      for (char l = '1'; l <= p.variant[k + 2]; ++l) products *= 3;
  }
  const uint64_t full = 64ull * p.ipb * 4 * uint64_t(std::max(limits.sm_count, 1));
  if (products < full) p.variant.resize(p.variant.size() - suffix.size());
  return p;
}}  // namespace

// The DFMA powm above 1 Kbit runs a whole exponentiation per thread (tens of
// milliseconds a wave): on a batch the warp kernels finish in one or two
// waves of their 64 instances an SM, they are sooner (run H, H100: one wave
// of bgfixed q8.l8 at 1536 bits 11.5 ms against 22.2 ms, of bgsqr q8.l8 at
// 2048 bits 19.6 ms against 54 ms; at 16384 instances the DFMA kernel leads,
// 23.0 / 41.5 ms and 56.7 / 69.9 ms). So 1025-1536 bits take it from one
// warp wave on, 1537-2048 bits from two.
bool small_powm_batch(Op op, uint64_t bits, uint64_t count, const DeviceLimits& limits) {
  if (op != Op::PowM || bits <= 1024 || bits > 2048) return false;
  const uint64_t wave = 64ull * uint64_t(std::max(limits.sm_count, 1));
  return count <= (bits <= 1536 ? wave : 2 * wave);
}

std::optional<PreferredPlan> preferred_plan(Op op, uint64_t bits, uint64_t count, const DeviceLimits& limits) {
  auto p = small_powm_batch(op, bits, count, limits) ? preferred_modular(op, bits, false) : preferred(op, bits);
  if (!p) return std::nullopt;
  p = rounds_for_batch(*p, count, limits);
  const Variant* v = find_variant(p->variant);
  if (!v) return std::nullopt;
  uint64_t ipb = std::min<uint64_t>(p->ipb, std::max<uint64_t>(count, 1));
  while (ipb > 1 && !why_invalid(*v, bits, count, uint32_t(ipb), limits).empty()) ipb /= 2;
  if (!why_invalid(*v, bits, count, uint32_t(ipb), limits).empty()) return std::nullopt;
  return PreferredPlan{v, uint32_t(ipb)};
}

}  // namespace bigtune::kernels
