// Explicit instances of the thread-per-instance add and sub (64-bit limbs;
// one kernel serves every size up to the family's 8 Kbit cap, thread_shapes.hpp).
#include "kernels/thread/thread_shapes.hpp"
#include "kernels/variants/thread_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {

void append_thread_add_sub_variants(std::vector<Variant>& out) {
  constexpr uint32_t kCapLimbs = 8192 / 64;
  out.push_back(make_variant(Op::Add, "thread", "ripple", 64, kCapLimbs, 1024,
                             reinterpret_cast<const void*>(&thread_add_sub_kernel<uint64_t, false>),
                             thread::kStreamShape));
  out.push_back(make_variant(Op::Sub, "thread", "ripple", 64, kCapLimbs, 1024,
                             reinterpret_cast<const void*>(&thread_add_sub_kernel<uint64_t, true>),
                             thread::kStreamShape));
  out.push_back(make_variant(Op::Add, "thread", "direct", 64, 2, 1024,
                             reinterpret_cast<const void*>(&thread_add_sub_direct_kernel<false, 2>),
                             thread::kDirectShape));
  out.push_back(make_variant(Op::Sub, "thread", "direct", 64, 2, 1024,
                             reinterpret_cast<const void*>(&thread_add_sub_direct_kernel<true, 2>),
                             thread::kDirectShape));
}

}  // namespace bigtune::kernels::variants
