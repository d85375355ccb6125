// Explicit instances of the thread-per-instance Comba mul_low and mul (32-bit
// limbs, N in {2, 4, 8, 16, 32, 64}: 64 bits .. 2 Kbit, at most a factor 2 of
// padding at any size).
#include "kernels/thread/thread_shapes.hpp"
#include "kernels/variants/thread_kernels.cuh"
#include "kernels/variants/variant_factory.hpp"

namespace bigtune::kernels::variants {
namespace {
template <int N>
void comba_pair(std::vector<Variant>& out) {
  constexpr uint32_t threads = comba_max_threads<N>();
  out.push_back(make_variant(Op::MulLow, "thread", "comba", 32, N, threads,
                             reinterpret_cast<const void*>(&thread_comba_kernel<N, CombaKind::Low>),
                             thread::kRegisterShape));
  out.push_back(make_variant(Op::Mul, "thread", "comba", 32, N, threads,
                             reinterpret_cast<const void*>(&thread_comba_kernel<N, CombaKind::Full>),
                             thread::kRegisterShape));
}
}  // namespace

void append_thread_mul_variants(std::vector<Variant>& out) {
  comba_pair<2>(out);
  comba_pair<4>(out);
  comba_pair<8>(out);
  comba_pair<16>(out);
  comba_pair<32>(out);
  comba_pair<64>(out);
}

}  // namespace bigtune::kernels::variants
