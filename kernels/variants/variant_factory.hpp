// Helpers the *_instances.cu files use to describe their kernels.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/block/block_shapes.hpp"
#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

// A variant named "<op>.<algorithm>.u<limb>.q<Q>", plus ".<extra>" when given
// (e.g. "l8" for 8 lanes per instance, "w4" for a 4-bit window).
inline Variant make_variant(Op op, const char* family, const char* algorithm, uint32_t limb_bits, uint32_t q,
                            uint32_t max_threads, const void* kernel, const ShapeRules& shape,
                            const std::string& extra = {}, uint32_t param = 0) {
  std::string name = std::string(op_name(op)) + "." + algorithm + ".u" + std::to_string(limb_bits) + ".q" +
                     std::to_string(q);
  if (!extra.empty()) name += "." + extra;
  return Variant{name, op, family, algorithm, limb_bits, q, max_threads, kernel, &shape, param};
}

void append_add_sub_variants(std::vector<Variant>& out);
void append_cmp_shift_variants(std::vector<Variant>& out);
void append_mul_u32_variants(std::vector<Variant>& out);
void append_mul_u64_variants(std::vector<Variant>& out);
void append_ntt_variants(std::vector<Variant>& out);  // ntt_instances.cu: mul and sqr by NTT
void append_ntt_crt_variants(std::vector<Variant>& out);  // ntt_crt_instances.cu: NTT over three 31-bit primes
void append_sqr_classical_variants(std::vector<Variant>& out);
void append_div_fused_variants(std::vector<Variant>& out);  // divmod.shinv, mul_add, poly (block)
void append_thread_add_sub_variants(std::vector<Variant>& out);  // kernels/thread, issue 4
void append_thread_mul_variants(std::vector<Variant>& out);
void append_thread_sqr_variants(std::vector<Variant>& out);
void append_thread_divmod_variants(std::vector<Variant>& out);
void append_thread_mul_rows_variants(std::vector<Variant>& out);
void append_mod64_variants(std::vector<Variant>& out);  // thread-level modular, one 64-bit word
void append_mod_small_variants(std::vector<Variant>& out);  // thread-level modular, 8-64 limbs
void append_mod_large_variants(std::vector<Variant>& out);  // thread-level modular, 128-256 limbs
void append_dfma_mod_variants(std::vector<Variant>& out);  // mulmod/sqrmod on the FP64 pipe, to 1024 bits
void append_dfma_team_variants(std::vector<Variant>& out);  // powm on the FP64 pipe, a team of lanes an instance
void append_warp_add_sub_variants(std::vector<Variant>& out);
void append_warp_mul_variants(std::vector<Variant>& out);
void append_warp_mul_block_variants(std::vector<Variant>& out);
void append_warp_divmod_variants(std::vector<Variant>& out);
void append_karatsuba_variants(std::vector<Variant>& out);  // mul/sqr over a base variant already in `out`
void append_warp_mod_small_variants(std::vector<Variant>& out);  // warp Montgomery, 32-64 limbs
void append_warp_mod_large_variants(std::vector<Variant>& out);  // warp Montgomery, 128-256 limbs

}  // namespace bigtune::kernels::variants
