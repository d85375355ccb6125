// Helpers the *_instances.cu files use to describe their kernels.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/registry.hpp"

namespace bigtune::kernels::variants {

inline Variant make_variant(Op op, Algorithm algorithm, uint32_t limb_bits, uint32_t q, uint32_t max_threads,
                            const void* kernel) {
  std::string name = std::string(op_name(op)) + "." + algorithm_name(algorithm) + ".u" +
                     std::to_string(limb_bits) + ".q" + std::to_string(q);
  return Variant{name, op, "block", algorithm, limb_bits, q, max_threads, kernel};
}

void append_add_sub_variants(std::vector<Variant>& out);
void append_cmp_shift_variants(std::vector<Variant>& out);
void append_mul_u32_variants(std::vector<Variant>& out);
void append_mul_u64_variants(std::vector<Variant>& out);

}  // namespace bigtune::kernels::variants
