/* bigtune's launch hook: the C ABI that launches instrumented by the
 * bigtune-launch LLVM pass (llvm-pass/) call right before a tunable kernel is
 * launched. Plain C types only, so any host compiler and any language with a
 * C FFI can provide or call it.
 *
 * The pass emits, before each launch of a kernel marked with
 * BIGTUNE_TUNABLE* (bigtune/tunable.h):
 *
 *     bigtune_launch_params_t p = { original grid, block, smem,
 *                                   original variant, number of variants };
 *     uint64_t sizes[n] = { the kernel's size arguments, widened to 64 bits };
 *     bigtune_launch_params(name, family, sizes, n, &p);
 *     launch kernels[p.variant] with p.grid, p.block, p.shared_bytes
 *
 * Contract the implementation must honour (the pass relies on it and does not
 * check the return value):
 *   - on return, *inout holds parameters that are safe to launch with: on any
 *     failure (status != 0) it is exactly what the caller passed in;
 *   - inout->variant < inout->n_variants, and grid and block dimensions are
 *     all >= 1 (the generated code clamps an out-of-range variant to the
 *     original one, nothing more);
 *   - it is thread-safe and never throws, exits or aborts;
 *   - `kernel`, `family` and `sizes` are only valid during the call.
 *
 * The implementation in runtime/launch_hook.cpp consults the per-family launch
 * policy (bigtune::runtime::set_launch_policy) and records every call in an
 * in-process history that tests read back with the functions below.
 */
#ifndef BIGTUNE_LAUNCH_HOOK_H
#define BIGTUNE_LAUNCH_HOOK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Field order and types are part of the ABI: the pass builds this struct as
 * { i32 x 8, i64 } (40 bytes, no padding). Only append fields. */
typedef struct bigtune_launch_params {
  uint32_t grid_x, grid_y, grid_z;    /* blocks per grid */
  uint32_t block_x, block_y, block_z; /* threads per block */
  uint32_t variant;     /* index into the kernel's variant table (in/out) */
  uint32_t n_variants;  /* number of variants (in, never changed) */
  uint64_t shared_bytes; /* dynamic shared memory per block */
} bigtune_launch_params_t;

/* Status codes of bigtune_launch_params. */
enum {
  BIGTUNE_LAUNCH_OK = 0,          /* *inout holds the chosen parameters */
  BIGTUNE_LAUNCH_KEPT = 1,        /* no policy for the family: *inout unchanged */
  BIGTUNE_LAUNCH_INVALID = 2,     /* bad arguments or a policy returned invalid
                                     parameters: *inout unchanged */
  BIGTUNE_LAUNCH_POLICY_FAILED = 3 /* the policy threw: *inout unchanged */
};

/* Called by instrumented launches. `kernel` is the name in the kernel's mark,
 * `family` its variant family, `sizes[0..n_sizes)` the run-time values of its
 * size arguments in the order the mark lists them. Returns a status above. */
int bigtune_launch_params(const char* kernel, const char* family, const uint64_t* sizes,
                          uint32_t n_sizes, bigtune_launch_params_t* inout);

/* In-process history of hook calls (for tests and diagnostics). */
typedef struct bigtune_launch_record {
  char kernel[64];  /* truncated, NUL-terminated */
  char family[64];
  uint64_t sizes[4]; /* the first four sizes */
  uint32_t n_sizes;
  int status;
  bigtune_launch_params_t requested; /* what the launch site passed in */
  bigtune_launch_params_t chosen;    /* what it launched with */
} bigtune_launch_record_t;

/* Number of hook calls since start or the last clear (counts past the
 * history's capacity). */
uint64_t bigtune_launch_history_count(void);
/* Copies record `index` (0 = oldest kept) into *out; returns 0, or -1 when
 * the index is out of range or out is NULL. The last 4096 records are kept. */
int bigtune_launch_history_get(uint64_t index, bigtune_launch_record_t* out);
void bigtune_launch_history_clear(void);

#ifdef __cplusplus
} /* extern "C" */

#include <functional>
#include <string_view>

namespace bigtune {
namespace runtime {

/* What an instrumented launch asks for (views valid during the call only). */
struct LaunchRequest {
  std::string_view kernel;
  std::string_view family;
  const uint64_t* sizes;
  uint32_t n_sizes;
};

/* A launch policy fills `params` (which holds the launch site's original
 * values) and returns true, or returns false to keep the originals. It may
 * throw: the hook then keeps the originals and reports
 * BIGTUNE_LAUNCH_POLICY_FAILED. Parameters it sets are checked (non-zero
 * dimensions, at most 1024 threads per block, variant < n_variants); invalid
 * ones are not used. Policies run on the launching thread, under no lock. */
using LaunchPolicy = std::function<bool(const LaunchRequest& request,
                                        bigtune_launch_params_t& params)>;

/* Installs (or, with an empty policy, removes) the policy of `family`.
 * Family "*" is the fallback for families without a policy of their own.
 * Without any policy the hook keeps the launch site's parameters. */
void set_launch_policy(std::string_view family, LaunchPolicy policy);

}  // namespace runtime
}  // namespace bigtune
#endif /* __cplusplus */

#endif /* BIGTUNE_LAUNCH_HOOK_H */
