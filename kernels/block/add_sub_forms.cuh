// The array forms of a limb backend's carry chain: add_n, sub_n, add_1, sub_1
// and pow_sub, written once over the backend's one primitive
//   add_sub<kSub>(n, a_at, b_at, emit, carry_in) -> carry (borrow) out
// (limb i read through a_at(i) / b_at(i), written through emit(i, r_i)).
// The block backend of the shifted-inverse division (block_ops.cuh: a block
// carry scan) and the warp pass backend of the composed division
// (newtonc_warp_ops.cuh: ballot votes per chunk) derive from it (CRTP), so
// both run the same division code (div_newtonc.hpp, div_shinv.hpp) on their
// own add_sub.
#pragma once
#include <cstdint>

namespace bigtune::kernels::block {

template <class Ops, class Limb>
struct AddSubForms {
  // r = a + b over n limbs; returns the carry out.
  __device__ Limb add_n(Limb* r, const Limb* a, const Limb* b, uint32_t n) {
    return ops().template add_sub<false>(n, [&](uint32_t i) { return a[i]; }, [&](uint32_t i) { return b[i]; },
                                         [&](uint32_t i, Limb x) { r[i] = x; }, Limb(0));
  }
  // r = a - b over n limbs; returns the borrow out.
  __device__ Limb sub_n(Limb* r, const Limb* a, const Limb* b, uint32_t n) {
    return ops().template add_sub<true>(n, [&](uint32_t i) { return a[i]; }, [&](uint32_t i) { return b[i]; },
                                        [&](uint32_t i, Limb x) { r[i] = x; }, Limb(0));
  }
  // r = a + x (x a carry-in limb) over n limbs.
  __device__ Limb add_1(Limb* r, const Limb* a, uint32_t n, Limb x) {
    return ops().template add_sub<false>(n, [&](uint32_t i) { return a[i]; }, [](uint32_t) { return Limb(0); },
                                         [&](uint32_t i, Limb v) { r[i] = v; }, x);
  }
  // r = a - x over n limbs.
  __device__ Limb sub_1(Limb* r, const Limb* a, uint32_t n, Limb x) {
    return ops().template add_sub<true>(n, [&](uint32_t i) { return a[i]; }, [](uint32_t) { return Limb(0); },
                                        [&](uint32_t i, Limb v) { r[i] = v; }, x);
  }
  // r[0, e) = B^e - a for 0 < a < B^e (a has an <= e limbs).
  __device__ void pow_sub(Limb* r, const Limb* a, uint32_t an, uint32_t e) {
    ops().template add_sub<true>(e, [](uint32_t) { return Limb(0); },
                                 [&](uint32_t i) { return i < an ? a[i] : Limb(0); },
                                 [&](uint32_t i, Limb v) { r[i] = v; }, Limb(0));
  }

 private:
  __device__ Ops& ops() { return *static_cast<Ops*>(this); }
};

}  // namespace bigtune::kernels::block
