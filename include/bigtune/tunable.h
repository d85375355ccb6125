/* Marking kernels tunable for the bigtune-launch LLVM pass (llvm-pass/).
 *
 * A launch of a marked kernel asks bigtune_launch_params (bigtune/launch_hook.h)
 * for its grid, block, dynamic shared memory and variant at run time. Write
 * the mark once per kernel, at namespace scope, after the kernel's
 * declaration, in the translation unit that launches it:
 *
 *   __global__ void my_add(uint32_t* c, const uint32_t* a, const uint32_t* b,
 *                          uint64_t count);
 *   BIGTUNE_TUNABLE(my_add, "example.add_n", "3");
 *
 *   // several instantiations of one signature: variant i is the i-th kernel
 *   BIGTUNE_TUNABLE_VARIANTS("my_add", "example.add_n", "3",
 *                            my_add_q<1>, my_add_q<2>, my_add_q<4>);
 *
 *   // driver API: the variable(s) holding the CUfunction, and the kernel's
 *   // type (a typedef or decltype, since there is no host declaration)
 *   typedef void my_add_t(uint32_t*, const uint32_t*, const uint32_t*, uint64_t);
 *   BIGTUNE_TUNABLE_DRIVER("my_add", "example.add_n", "3", my_add_t, &g_my_add_fn);
 *
 * Arguments: the kernel's name as the hook sees it (BIGTUNE_TUNABLE uses the
 * kernel's own token), the variant family (the
 * key of the launch policy), and the size arguments: a string of 0-based
 * kernel parameter indices separated by commas ("3", "1,3"); each must be an
 * integer parameter (of 1, 2, 4 or 8 bytes). A wrong index or type is a
 * compile-time error from the pass, naming the kernel and the argument.
 *
 * Why a constant global and not __attribute__((annotate("..."))) on the
 * kernel: annotate does survive nvcc 13's cudafe++ (checked: it reaches
 * @llvm.global.annotations), but it only attaches a fixed string to one
 * declaration. The mark is an ordinary host variable (kept by `used`) that
 * also carries what the compiler knows and a string cannot: the kernel's
 * parameter types (so the pass can check the size arguments and read them
 * with the right width), the ordered table of variants (the instantiations
 * of a template, whose addresses the generated code launches), and for the
 * driver API the CUfunction variables, which are not functions at all. Its
 * references to the variants also make nvcc build and register every one.
 * The pass finds a mark by its spec prefix "bigtune.tunable.v1;" (not by
 * type or variable name, which compilers rename) and matches launches by the
 * kernel pointers in its table: the kernel's host entry for the runtime API
 * (cudaLaunchKernel; CUDA 13 stubs' __cudaLaunchKernel via __cudaGetKernel),
 * the CUfunction variable for the driver API (cuLaunchKernel). A mark costs a
 * few dozen bytes of constant data and no run time.
 *
 * Layout (what the pass reads; hand-written IR tests use the same):
 *   { i8* spec, i8* signature, i8** kernels, i32 n_kernels }
 * spec:      "bigtune.tunable.v1;name=<name>;family=<family>;size_args=<i,j>"
 * signature: one character per kernel parameter, Python `struct` codes:
 *            b/B h/H i/I q/Q = signed/unsigned integer of 1/2/4/8 bytes,
 *            P = pointer, ? = bool, * = anything else.
 *
 * The macros need C++17 (the signature is computed from the kernel's type).
 */
#ifndef BIGTUNE_TUNABLE_H
#define BIGTUNE_TUNABLE_H

#include <stdint.h>

#ifdef __cplusplus
#include <type_traits>
#endif

typedef struct bigtune_tunable_mark {
  const char* spec;
  const char* signature;
  const void* const* kernels;
  uint32_t n_kernels;
} bigtune_tunable_mark_t;

#define BIGTUNE_TUNABLE_SPEC_PREFIX "bigtune.tunable.v1;"

#if defined(__cplusplus)
namespace bigtune {
namespace tunable_detail {

template <class T>
constexpr char param_code() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return '?';
  } else if constexpr (std::is_integral_v<U>) {
    constexpr bool s = std::is_signed_v<U>;
    switch (sizeof(U)) {
      case 1: return s ? 'b' : 'B';
      case 2: return s ? 'h' : 'H';
      case 4: return s ? 'i' : 'I';
      case 8: return s ? 'q' : 'Q';
      default: return '*';
    }
  } else if constexpr (std::is_pointer_v<U>) {
    return 'P';
  } else {
    return '*';
  }
}

template <class F>
struct Signature;
template <class R, class... A>
struct Signature<R(A...)> {
  static constexpr char value[] = {param_code<A>()..., '\0'};
};

/* The variant table: kernel entry points (runtime API) or addresses of
 * CUfunction variables (driver API), in variant order. */
template <auto First, auto... Rest>
struct Table {
  static_assert((std::is_same_v<decltype(First), decltype(Rest)> && ...),
                "bigtune: all variants of a tunable kernel must have the same parameters");
  using Entry = std::remove_pointer_t<decltype(First)>;
  static inline const void* const value[] = {(const void*)First, (const void*)Rest...};
  static constexpr uint32_t size = 1 + sizeof...(Rest);
};

template <class Type, class Tab>
using EntryOr = std::conditional_t<std::is_void_v<Type>, typename Tab::Entry, Type>;

}  // namespace tunable_detail
}  // namespace bigtune

#define BIGTUNE_DETAIL_CAT2(a, b) a##b
#define BIGTUNE_DETAIL_CAT(a, b) BIGTUNE_DETAIL_CAT2(a, b)

/* `type` is the kernel's function type, or void to take it from the table.
 * The mark is also seen by nvcc's device compilation (as a host variable,
 * which emits nothing there): its references to the variants make nvcc
 * instantiate and register every variant, even one never launched with
 * <<<...>>> in this file, so that the hook can choose it. */
#define BIGTUNE_DETAIL_MARK(id, name, family, size_args, type, ...)                               \
  __attribute__((used)) static const bigtune_tunable_mark_t id = {                                \
      BIGTUNE_TUNABLE_SPEC_PREFIX "name=" name ";family=" family ";size_args=" size_args,        \
      ::bigtune::tunable_detail::Signature<::bigtune::tunable_detail::EntryOr<                    \
          type, ::bigtune::tunable_detail::Table<__VA_ARGS__>>>::value,                           \
      ::bigtune::tunable_detail::Table<__VA_ARGS__>::value,                                       \
      ::bigtune::tunable_detail::Table<__VA_ARGS__>::size}
#define BIGTUNE_DETAIL_ID BIGTUNE_DETAIL_CAT(bigtune_tunable_mark_, __COUNTER__)

/* One kernel (runtime API); the hook sees the token `kernel` as its name. */
#define BIGTUNE_TUNABLE(kernel, family, size_args) \
  BIGTUNE_DETAIL_MARK(BIGTUNE_DETAIL_ID, #kernel, family, size_args, void, kernel)

/* Several instantiations with the same parameters (runtime API). */
#define BIGTUNE_TUNABLE_VARIANTS(name, family, size_args, ...) \
  BIGTUNE_DETAIL_MARK(BIGTUNE_DETAIL_ID, name, family, size_args, void, __VA_ARGS__)

/* Driver API: the arguments after kernel_type are the addresses of the
 * CUfunction variables (&g_fn), one per variant. */
#define BIGTUNE_TUNABLE_DRIVER(name, family, size_args, kernel_type, ...) \
  BIGTUNE_DETAIL_MARK(BIGTUNE_DETAIL_ID, name, family, size_args, kernel_type, __VA_ARGS__)

#endif /* __cplusplus */

#endif /* BIGTUNE_TUNABLE_H */
