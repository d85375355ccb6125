/* bigtune's C ABI: the same calls as bigtune.hpp for C and other languages.
 *
 * Every function returns a bigtune_status; on failure, bigtune_last_error()
 * returns this thread's message (what went wrong and what to do), valid until
 * the thread's next bigtune call. Handles are opaque; destroy what you create.
 * Batches hold `count` integers of `bits` bits as ceil(bits/64) little-endian
 * 64-bit words each, instance-major. */
#ifndef BIGTUNE_BIGTUNE_H
#define BIGTUNE_BIGTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bigtune_status {
  BIGTUNE_OK = 0,
  BIGTUNE_ERROR_INVALID_ARGUMENT = 1,
  BIGTUNE_ERROR_UNSUPPORTED = 2,
  BIGTUNE_ERROR_OUT_OF_MEMORY = 3,
  BIGTUNE_ERROR_NO_DEVICE = 4,
  BIGTUNE_ERROR_CUDA = 5,
  BIGTUNE_ERROR_DATABASE = 6,
  BIGTUNE_ERROR_PROFILER = 7,
  BIGTUNE_ERROR_INTERNAL = 8,
  BIGTUNE_ERROR_DIVISION_BY_ZERO = 9
} bigtune_status;

typedef enum bigtune_op {
  BIGTUNE_OP_ADD = 0,
  BIGTUNE_OP_SUB = 1,
  BIGTUNE_OP_CMP = 2,
  BIGTUNE_OP_SHL = 3,
  BIGTUNE_OP_SHR = 4,
  BIGTUNE_OP_MUL_LOW = 5,
  BIGTUNE_OP_MUL = 6,
  BIGTUNE_OP_SQR = 7,
  BIGTUNE_OP_DIVMOD = 8,
  BIGTUNE_OP_MUL_ADD = 9,
  BIGTUNE_OP_POLY = 10,
  BIGTUNE_OP_MULMOD = 11,
  BIGTUNE_OP_SQRMOD = 12,
  BIGTUNE_OP_POWM = 13,
  BIGTUNE_OP_GCD = 14,
  BIGTUNE_OP_MODINV = 15,
  BIGTUNE_OP_SQRT = 16
} bigtune_op;

typedef struct bigtune_context bigtune_context;
typedef struct bigtune_batch bigtune_batch;
typedef struct bigtune_flags bigtune_flags;

/* An explicit plan; pass NULL wherever a plan is taken to let bigtune choose. */
typedef struct bigtune_plan {
  const char* variant; /* registry name, e.g. "mul.classical.u64.q4" */
  uint32_t ipb;        /* instances per block */
} bigtune_plan;

const char* bigtune_last_error(void);

bigtune_status bigtune_context_create(int device, bigtune_context** out);
void bigtune_context_destroy(bigtune_context* ctx);
bigtune_status bigtune_synchronize(bigtune_context* ctx);
/* The plan bigtune would choose; the variant name is copied into `variant`. */
bigtune_status bigtune_plan_for(bigtune_context* ctx, bigtune_op op, uint64_t bits, uint64_t count,
                                char* variant, size_t variant_size, uint32_t* ipb);

bigtune_status bigtune_batch_create(bigtune_context* ctx, uint64_t bits, uint64_t count, bigtune_batch** out);
void bigtune_batch_destroy(bigtune_batch* batch);
uint64_t bigtune_batch_words_per_instance(const bigtune_batch* batch);
bigtune_status bigtune_batch_upload(bigtune_batch* batch, const uint64_t* words, size_t n_words);
bigtune_status bigtune_batch_download(const bigtune_batch* batch, uint64_t* words, size_t n_words);

bigtune_status bigtune_flags_create(bigtune_context* ctx, uint64_t count, bigtune_flags** out);
void bigtune_flags_destroy(bigtune_flags* flags);
bigtune_status bigtune_flags_download(const bigtune_flags* flags, int32_t* values, size_t n);

/* carry/borrow may be NULL. */
bigtune_status bigtune_add(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                           bigtune_flags* carry, const bigtune_plan* plan);
bigtune_status bigtune_sub(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                           bigtune_flags* borrow, const bigtune_plan* plan);
bigtune_status bigtune_cmp(bigtune_context* ctx, bigtune_flags* result, const bigtune_batch* a,
                           const bigtune_batch* b, const bigtune_plan* plan);
bigtune_status bigtune_shl(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, uint64_t shift,
                           const bigtune_plan* plan);
bigtune_status bigtune_shr(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, uint64_t shift,
                           const bigtune_plan* plan);
bigtune_status bigtune_mul_low(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a,
                               const bigtune_batch* b, const bigtune_plan* plan);
bigtune_status bigtune_mul(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                           const bigtune_plan* plan);
bigtune_status bigtune_sqr(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_plan* plan);
/* q = u / v, r = u mod v. With zero_divisor, instances with v = 0 get q = r = 0
   and a 1 there; without it (NULL), a zero divisor returns
   BIGTUNE_ERROR_DIVISION_BY_ZERO. */
bigtune_status bigtune_divmod(bigtune_context* ctx, bigtune_batch* q, bigtune_batch* r, const bigtune_batch* u,
                              const bigtune_batch* v, bigtune_flags* zero_divisor, const bigtune_plan* plan);
/* r = a*b + c and r = (a*a + b)*(b*b + b) + a*b, modulo 2^bits of r. */
bigtune_status bigtune_mul_add(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                               const bigtune_batch* c, const bigtune_plan* plan);
bigtune_status bigtune_poly(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                            const bigtune_plan* plan);
/* Modular ops: m holds one modulus (count 1) or one per instance; operands
   below their modulus. */
bigtune_status bigtune_mulmod(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                              const bigtune_batch* m, const bigtune_plan* plan);
bigtune_status bigtune_sqrmod(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* m,
                              const bigtune_plan* plan);
bigtune_status bigtune_powm(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* x, const bigtune_batch* e,
                            const bigtune_batch* m, const bigtune_plan* plan);
bigtune_status bigtune_gcd(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                           const bigtune_plan* plan);
/* r = a^-1 mod m; instances without an inverse get r = 0 and a 1 in no_inverse. */
bigtune_status bigtune_modinv(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* m,
                              bigtune_flags* no_inverse, const bigtune_plan* plan);
bigtune_status bigtune_sqrt(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_plan* plan);

#ifdef __cplusplus
}
#endif
#endif /* BIGTUNE_BIGTUNE_H */
