// Products by a shared constant on Hopper's warpgroup MMA: the launcher of
// kernels/block/mul_const_wgmma.cuh and mul_const_wgmma_pair.cuh (two
// warpgroups a block where one block of one warpgroup is alone on its SM). This file alone is compiled for sm_90a
// (kernels/CMakeLists.txt: arch-specific instructions); launch_imma
// (mul_const_imma_instances.cu) calls it on compute capability 9.0 only,
// where the shape fits, and the mma.sync kernel otherwise.
#include <algorithm>

#include "kernels/block/barrett_fused_wgmma.cuh"
#include "kernels/block/mul_const_wgmma.cuh"
#include "kernels/block/mul_const_wgmma_pair.cuh"
#include "kernels/registry.hpp"
#include "kernels/variants/mul_const_imma_launch.hpp"
#include "kernels/variants/resident_launch.cuh"

namespace bigtune::kernels::variants {

bool mul_const_wgmma_fits(const block::ImmaArgs& args) {
  if (args.x_words == 0 || args.k_words == 0) return false;
  if (4ull * std::min(args.x_words, args.k_words) > block::kWgMaxConstBytes ||
      block::wgmma_const_words(args) > block::kWgMaxStagedWords)
    return false;
  return block::WgmmaShape::of(args).smem_bytes() <= DeviceLimits::h100().smem_per_block_optin;
}

namespace {
// Two warpgroups a block where a one-warpgroup block would be alone on its
// SM (two of them do not fit its shared memory) and the pair's block fits.
bool wgmma_pair_takes(const block::ImmaArgs& args) {
  const uint64_t limit = DeviceLimits::h100().smem_per_block_optin;
  return 2 * block::WgmmaShape::of(args).smem_bytes() > limit &&
         block::WgmmaPairShape::of(args).smem_bytes() <= limit;
}
}  // namespace

bool barrett_rem_wgmma_fits(const block::ImmaArgs& args) {
  return mul_const_wgmma_fits(args) && !wgmma_pair_takes(args) &&
         block::wg_rem_smem_bytes(args) <= DeviceLimits::h100().smem_per_block_optin;
}

cudaError_t launch_barrett_rem_wgmma(const block::ImmaArgs& args, int sms, cudaStream_t stream) {
  const uint64_t groups = (args.count + block::kWgInstances - 1) / block::kWgInstances;
  return launch_resident_wave(args.add_to_out ? block::barrett_rem_wgmma_add_kernel : block::barrett_rem_wgmma_kernel,
                              block::kWgmmaThreads, block::wg_rem_smem_bytes(args), groups, sms, args, stream);
}

bool barrett_fused_wgmma_fits(const block::BarrettFusedArgs& args) {
  // Two blocks an SM at least (one warpgroup alone on its SM leaves the
  // tensor cores idle while it forms words: the separate kernels run two
  // or more there), whole 32-byte blocks of q, eight guard words (A of q on
  // A of x, barrett_fused_wgmma.cuh), and each pass's shape whole.
  const block::ImmaArgs& q = args.quotient;
  return args.remainder.rem_words % 8 == 0 && q.x_words == args.remainder.rem_words + 8 &&
         mul_const_wgmma_fits(q) && !wgmma_pair_takes(q) &&
         barrett_rem_wgmma_fits(args.remainder) && barrett_fused_wgmma_blocks_per_sm(args) >= 2;
}

uint32_t barrett_fused_wgmma_blocks_per_sm(const block::BarrettFusedArgs& args) {
  return uint32_t(DeviceLimits::h100().smem_per_sm / (block::BarrettFusedShape::of(args).total + 1024));
}

cudaError_t launch_barrett_fused_wgmma(const block::BarrettFusedArgs& args, int sms, cudaStream_t stream) {
  const uint64_t groups = (args.quotient.count + block::kWgInstances - 1) / block::kWgInstances;
  return launch_resident_wave(block::barrett_fused_wgmma_kernel, block::kWgmmaThreads,
                              block::BarrettFusedShape::of(args).total, groups, sms, args, stream);
}

namespace {
// The split point within 24 words of h (steps of 8: `step` +8 or -8) where
// the part `tiles_of` counts takes one tile fewer and `fits` holds (the
// other part's shape), else h. A part whose last tile holds a few words
// runs that tile's words pass, and often all its wgmmas, for them.
template <class Tiles, class Fits>
uint32_t split_saving_a_tile(uint32_t h, int32_t step, Tiles tiles_of, Fits fits) {
  const uint32_t tiles = tiles_of(h);
  for (int64_t moved = int64_t(h) + step; moved >= 8 && moved <= int64_t(h) + 24 && moved + 24 >= int64_t(h);
       moved += step)
    if (fits(uint32_t(moved)) && tiles_of(uint32_t(moved)) < tiles) return uint32_t(moved);
  return h;
}
}  // namespace

uint32_t barrett_rem_wgmma_split(const block::ImmaArgs& args) {
  // (Where the whole product fits, the pair kernel takes it when the
  // remainder kernel does not: 12-16 Kbit. A low part that the pair kernel
  // would take, 21-30 Kbit, stays a plain product too: one warpgroup alone
  // on its SM.)
  if (args.x_words < 16 || mul_const_wgmma_fits(args)) return 0;
  const auto fits = [&](uint32_t h) {
    return h < args.x_words && mul_const_wgmma_fits(block::imma_barrett_rem_high_part_args(args, h)) &&
           barrett_rem_wgmma_fits(block::imma_barrett_rem_low_part_args(args, h));
  };
  const uint32_t even = ((args.x_words + 1) / 2 + 7) / 8 * 8;  // (whole 32-byte blocks of q)
  // The high part is a plain product of words [h, w + 2): its tiles meet
  // up to all of q's high blocks, the last one too. More words of q in the
  // low part (its w words take the same tiles whatever h is) where that
  // leaves the high part one tile fewer: at 32 Kbit h = 512 left it 17
  // tiles, the last for two words; 520 leaves 16.
  const uint32_t h = split_saving_a_tile(
      even, 8, [&](uint32_t hh) { return block::wgmma_tiles(block::imma_barrett_rem_high_part_args(args, hh)); }, fits);
  return fits(h) ? h : 0;
}

cudaError_t launch_mul_const_wgmma(const block::ImmaArgs& args, int sms, cudaStream_t stream) {
  const uint64_t groups = (args.count + block::kWgInstances - 1) / block::kWgInstances;
  if (!args.add_to_out && wgmma_pair_takes(args))
    return launch_resident_wave(block::mul_const_wgmma_pair_kernel, block::kWgPairThreads,
                                block::WgmmaPairShape::of(args).smem_bytes(), groups, sms, args, stream);
  return launch_resident_wave(args.add_to_out ? block::mul_const_wgmma_add_kernel : block::mul_const_wgmma_kernel,
                              block::kWgmmaThreads, block::WgmmaShape::of(args).smem_bytes(), groups, sms, args,
                              stream);
}

uint32_t mul_const_wgmma_part_words(const block::ImmaArgs& args, uint32_t parts) {
  const uint32_t h = ((args.x_words + parts - 1) / parts + 7) / 8 * 8;
  // Two parts of a product kept from a word above 0 (the composed Barrett's
  // quotient): the first part's product, which ends at word h +
  // imma_const_words, is the triangle of x's low words under the kept
  // words, its tiles mostly words pass; the second's take the same tiles
  // whatever its width. Fewer words in the first part (the second taking
  // them, if it fits) where that leaves it one tile fewer: at 32 Kbit
  // h = 520 left the first part 17 tiles, 504 leaves 16.
  if (parts != 2 || args.out_lo == 0) return h;
  return split_saving_a_tile(
      h, -8, [&](uint32_t hh) { return block::wgmma_tiles(block::imma_x_part_args(args, 0, hh, false)); },
      [&](uint32_t hh) {
        return mul_const_wgmma_fits(block::imma_x_part_args(args, hh, hh, true, args.x_words - hh));
      });
}

uint32_t mul_const_wgmma_parts(const block::ImmaArgs& args) {
  if (args.x_words == 0 || args.k_words == 0 || args.add_to_out) return 0;
  // Words from store_lo on are at most parts - 1 low where store_lo > 0 and
  // no low buffer takes the words below (imma_x_part_args): three parts keep
  // the composed Barrett's quotient within its corrections (one low from the
  // guard words, two from the parts; barrett_instances.cu allows five).
  static_assert(kMaxWgmmaParts <= 3, "more parts need the quotient's low buffer always");
  for (uint32_t parts = 2; parts <= kMaxWgmmaParts; ++parts) {
    const uint32_t h = mul_const_wgmma_part_words(args, parts);
    if (h < args.x_words && mul_const_wgmma_fits(block::imma_x_part_args(args, 0, h, false))) return parts;
  }
  return 0;
}

cudaError_t launch_mul_const_wgmma_parts(const block::ImmaArgs& args, uint32_t parts, int sms, cudaStream_t stream) {
  const uint32_t h = mul_const_wgmma_part_words(args, parts);
  for (uint32_t i = 0, d = 0; i < parts && d < args.x_words; ++i, d += h) {
    const block::ImmaArgs part =
        block::imma_x_part_args(args, d, h, d > 0, block::imma_x_part_width(args.x_words, h, parts, i));
    if (part.out_words <= part.out_lo) continue;  // (past the words asked for: nothing to add)
    if (const cudaError_t e = launch_mul_const_wgmma(part, sms, stream); e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

}  // namespace bigtune::kernels::variants
