// Thread-level modular variants for 4, 8, 16, 32 and 64 limbs (128 to 2048
// bits): the operands, modulus and accumulator of a product fit the
// registers. 4 limbs since session 8 for mulmod / sqrmod (on 8 limbs a 128-bit
// mulmod did 4x the limb products it needs; H100, session 8 call C: 2.33e10
// against 1.08e10 mulmod/s), since session 9 for every op (powm, gcd, modinv,
// sqrt: session 9 run C). Not on 2 limbs: that build returned 0 for moduli
// that are not shared and odd on the GPU (call C) though the host core passes
// at N = 2 (tests/unit/mod_core_test.cpp); not investigated, since up to 64
// bits the one-word kernels (mod64_instances.cu) are the default: 3.2x the
// 4-limb mulmod at 64 bits (session 9, run A).
#include "kernels/variants/mod_variants.cuh"

namespace bigtune::kernels::variants {

void append_mod_small_variants(std::vector<Variant>& out) {
  append_mod_for<4>(out);
  append_mod_for<8>(out);
  append_mod_for<16>(out);
  append_mod_for<32>(out);
  append_mod_for<64>(out);
}

}  // namespace bigtune::kernels::variants
