// The bit-size no variant goes past (kernels::why_invalid). A variant of no
// size limit of its own (the streaming add/sub family) has this one, so
// kernels::max_operand_bits returns it for such a variant.
#pragma once
#include <cstdint>

namespace bigtune::kernels {

constexpr uint64_t kMaxOperandBits = uint64_t(1) << 31;

}  // namespace bigtune::kernels
