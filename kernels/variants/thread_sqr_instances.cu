// Explicit instances of the thread-per-instance Comba square (32-bit limbs,
// N in {2, 4, 8, 16, 32, 64}, as thread_mul_instances.cu).
#include "kernels/thread/thread_shapes.hpp"
#include "kernels/variants/thread_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int N>
void comba_sqr(std::vector<Variant>& out) {
  out.push_back(make_variant(Op::Sqr, "thread", "comba", 32, N, comba_max_threads<N>(),
                             reinterpret_cast<const void*>(&thread_comba_kernel<N, CombaKind::Square>),
                             thread::kRegisterShape));
}
}  // namespace

void append_thread_sqr_variants(std::vector<Variant>& out) {
  comba_sqr<2>(out);
  comba_sqr<4>(out);
  comba_sqr<8>(out);
  comba_sqr<16>(out);
  comba_sqr<32>(out);
  comba_sqr<64>(out);
}

}  // namespace bigtune::kernels::variants
