// The thread-per-instance schoolbook divmod (Knuth D, 32-bit limbs; one
// kernel for every size up to 2 Kbit dividends: it keeps no register arrays,
// the cap is the family's regime, thread_shapes.hpp).
#include "kernels/thread/thread_shapes.hpp"
#include "kernels/variants/thread_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {

void append_thread_divmod_variants(std::vector<Variant>& out) {
  out.push_back(make_variant(Op::DivMod, "thread", "knuth", 32, 2048 / 32, 1024,
                             reinterpret_cast<const void*>(&thread_divmod_kernel<uint32_t>), thread::kStreamShape));
}

}  // namespace bigtune::kernels::variants
