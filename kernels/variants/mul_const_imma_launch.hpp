// Host side of the products by a constant shared by the batch on the integer
// tensor cores (kernels/block/mul_const_imma.cuh), for callers that multiply
// many operands by one fixed number: the composed Barrett's reduction
// products with a shared modulus (`<op>.tcbarrett.*`, barrett_instances.cu).
// Defined in mul_const_imma_instances.cu.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace bigtune::kernels::block {
struct ImmaArgs;
struct BarrettFusedArgs;
}

namespace bigtune::kernels::variants {

// Whether x_words-word operands times a k_words-word constant (32-bit words)
// fit the kernel: column sums below 2^31 (the shorter factor at most 16384
// bytes) and one block's shared memory within the H100's 227 KB.
bool mul_const_imma_fits(uint32_t x_words, uint32_t k_words);

// out_i (words [out_lo, out_words), out_stride apart) = x_i * k modulo
// 2^(32 out_words) for i < count, exact for out_lo = 0; from out_lo > 0 the
// columns below word out_lo are not summed (the high half of a product that
// tolerates it): word out_lo is then less than 2^31 low, the words above it
// at most one. x_i has x_words words, x_stride apart.
// cudaErrorInvalidValue where the shape does not fit.
cudaError_t launch_mul_const_imma(uint32_t* out, uint32_t out_lo, uint32_t out_words, uint32_t out_stride, const uint32_t* x,
                                  uint32_t x_words, uint32_t x_stride, uint64_t count, const uint32_t* k,
                                  uint32_t k_words, cudaStream_t stream);

// The composed Barrett's quotient in one pass, with guard words
// (kernels/modular/barrett.hpp, n = w / 2 words of 64 bits): q_i =
// floor(q1' mu2 / 2^(N+32+32g)) with q1' = words [w - g, 2w) of t_i << s
// (t_i: t_words words, t_words apart; s = shift[0]; g =
// barrett_x_guard_words(w)) and mu2 = 2^(N+32) + mu2_lo (w + 1 words), from
// the columns of words >= w + g - 1 (at most one low); q's w words to
// q + i w, its bit N to q_top[i]. scratch (at least 10 words an instance,
// scratch_stride apart; may be null) holds the words below q's where the
// wgmma kernel takes x in parts (mul_const_wgmma_parts), so that q is as
// exact as from one launch; without it q is up to three low there.
cudaError_t launch_barrett_imma_quotient(uint32_t* q, uint32_t* q_top, const uint32_t* t, uint32_t t_words,
                                         uint64_t count, const uint32_t* mu2_lo, const uint32_t* shift, uint32_t w,
                                         uint32_t* scratch, uint32_t scratch_stride, cudaStream_t stream);

// The composed Barrett's q m' pass (n = w / 2 words of 64 bits; q_i = q + i w
// plus q_top[i] 2^N, t_i of t_words words, m' of w words, s = shift[0]):
// where the one-warpgroup wgmma kernel takes the shape (compute capability
// 9.0, up to ~10 Kbit), the finish comes with it: for s = 0, rem_i = (t_i
// - q_i m') mod m' (r < 6 m', kernels/block/mul_const_args.hpp) and
// *finished = true; the rows form's finish (barrett_kernels.cuh) then has
// only instances with s > 0 left, for which p_i (2w words apart) holds
// words [0, w + 2) of q_i's low w words times m' as always. Elsewhere only
// that product, *finished = false.
cudaError_t launch_barrett_imma_remainder(uint32_t* rem, uint32_t* p, const uint32_t* q, const uint32_t* q_top,
                                          const uint32_t* t, uint32_t t_words, uint64_t count, const uint32_t* mprime,
                                          const uint32_t* shift, uint32_t w, bool* finished, cudaStream_t stream);

// Both passes above, the quotient then q m' with its finish, for one t:
// where the fused wgmma kernel takes the shape (block::barrett_fused_wgmma_kernel:
// q kept on chip, 2-4 Kbit), one launch, q's words not written (q_top is);
// elsewhere the two launches. *finished as launch_barrett_imma_remainder.
cudaError_t launch_barrett_imma_reduction(uint32_t* rem, uint32_t* p, uint32_t* q, uint32_t* q_top, const uint32_t* t,
                                          uint32_t t_words, uint64_t count, const uint32_t* mu2_lo,
                                          const uint32_t* mprime, const uint32_t* shift, uint32_t w, uint32_t* scratch,
                                          uint32_t scratch_stride, bool* finished, cudaStream_t stream);

// The wgmma form (mul_const_wgmma_instances.cu, sm_90a): whether a shape
// fits it, and its launch for ImmaArgs (one wave of blocks on `sms` SMs).
// launch_imma takes it on compute capability 9.0 where it fits.
bool mul_const_wgmma_fits(const block::ImmaArgs& args);
cudaError_t launch_mul_const_wgmma(const block::ImmaArgs& args, int sms, cudaStream_t stream);
// Where the whole shape does not fit: the fewest parts of x (at most
// kMaxWgmmaParts) whose shapes do (block::imma_x_part_args: 32 Kbit operands
// in two), 0 where none; and the parts' launches, one after another on
// `stream`, the first storing, the others adding. Every part runs the words
// pass over nearly the whole output where k is about as long as it (the
// Barrett products), so the words-pass tiles grow with the parts. H200,
// session 29, mulmod against mma.sync: two parts 1.15x at 32 Kbit; three
// 0.978x at 40000 bits while the first part ran tiles of zeros up to the
// output's end, 1.012x since it stops at its product's end
// (imma_x_part_args; 36000 bits 1.00x); seven 0.91x at 64 Kbit. Hence three.
constexpr uint32_t kMaxWgmmaParts = 3;
uint32_t mul_const_wgmma_parts(const block::ImmaArgs& args);
// x's words of the first of `parts` (whole 32-byte blocks; the last part
// takes the rest of x, the others as many as the first).
uint32_t mul_const_wgmma_part_words(const block::ImmaArgs& args, uint32_t parts);
cudaError_t launch_mul_const_wgmma_parts(const block::ImmaArgs& args, uint32_t parts, int sms, cudaStream_t stream);
// The remainder kernel (barrett_rem_wgmma_kernel) for
// imma_barrett_remainder_args: where the one-warpgroup block takes the shape.
bool barrett_rem_wgmma_fits(const block::ImmaArgs& args);
cudaError_t launch_barrett_rem_wgmma(const block::ImmaArgs& args, int sms, cudaStream_t stream);
// The fused kernel (launch_barrett_imma_reduction): whether it takes the
// two passes' shapes (w % 8 == 0, two blocks an SM), the blocks an SM's
// shared memory holds (the H100's 228 KB, 1 KB reserved a block), and its
// launch.
bool barrett_fused_wgmma_fits(const block::BarrettFusedArgs& args);
uint32_t barrett_fused_wgmma_blocks_per_sm(const block::BarrettFusedArgs& args);
cudaError_t launch_barrett_fused_wgmma(const block::BarrettFusedArgs& args, int sms, cudaStream_t stream);
// Where it does not fit whole: q's words h of the low part (q's high words
// first, a plain product; block::imma_barrett_rem_low_part_args) where both
// parts fit, else 0.
uint32_t barrett_rem_wgmma_split(const block::ImmaArgs& args);

}  // namespace bigtune::kernels::variants
