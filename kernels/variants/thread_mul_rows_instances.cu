// Explicit instances of the thread-per-instance operand-scanning full product
// (mul_rows: mad_row chains, 32-bit limbs, N in {8, 16, 32}), the alternative
// to the Comba columns of thread_mul_instances.cu where products dominate
// (512 bits and up); the benchmark picks between them per size.
#include "kernels/thread/thread_shapes.hpp"
#include "kernels/variants/thread_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int N>
void rows_mul(std::vector<Variant>& out) {
  out.push_back(make_variant(Op::Mul, "thread", "rows", 32, N, rows_max_threads<N>(),
                             reinterpret_cast<const void*>(&thread_comba_kernel<N, CombaKind::FullRows>),
                             thread::kRegisterShape));
}
}  // namespace

void append_thread_mul_rows_variants(std::vector<Variant>& out) {
  rows_mul<8>(out);
  rows_mul<16>(out);
  rows_mul<32>(out);
}

}  // namespace bigtune::kernels::variants
