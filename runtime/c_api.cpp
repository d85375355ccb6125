// The C ABI (bigtune.h) over the C++ API: exceptions become status codes and
// a thread-local message.
#include "bigtune/bigtune.h"

#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "bigtune/bigtune.hpp"

struct bigtune_context {
  bigtune::Context ctx;
  explicit bigtune_context(int device) : ctx(device) {}
};
struct bigtune_batch {
  bigtune::Batch batch;
};
struct bigtune_flags {
  bigtune::Flags flags;
};

namespace {
thread_local std::string last_error;

template <class F>
bigtune_status guarded(F&& f) {
  try {
    f();
    last_error.clear();
    return BIGTUNE_OK;
  } catch (const bigtune::Error& e) {
    last_error = e.what();
    return static_cast<bigtune_status>(static_cast<int>(e.code()));
  } catch (const std::bad_alloc&) {
    last_error = "host memory exhausted";
    return BIGTUNE_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    last_error = e.what();
    return BIGTUNE_ERROR_INTERNAL;
  }
}

bigtune_status null_argument(const char* what) {
  last_error = std::string(what) + " is NULL — pass a handle created by bigtune";
  return BIGTUNE_ERROR_INVALID_ARGUMENT;
}

std::optional<bigtune::Plan> to_plan(const bigtune_plan* p) {
  if (!p || !p->variant) return std::nullopt;
  return bigtune::Plan{p->variant, p->ipb, "explicit", 0.0};
}

static_assert(int(BIGTUNE_OP_SQRT) == int(bigtune::Op::Sqrt), "bigtune_op mirrors bigtune::Op");
bigtune::Op to_op(bigtune_op op) { return static_cast<bigtune::Op>(static_cast<int>(op)); }
}  // namespace

extern "C" {

const char* bigtune_last_error(void) { return last_error.c_str(); }

bigtune_status bigtune_context_create(int device, bigtune_context** out) {
  if (!out) return null_argument("out");
  return guarded([&] { *out = new bigtune_context(device); });
}

void bigtune_context_destroy(bigtune_context* ctx) { delete ctx; }

bigtune_status bigtune_synchronize(bigtune_context* ctx) {
  if (!ctx) return null_argument("ctx");
  return guarded([&] { ctx->ctx.synchronize(); });
}

bigtune_status bigtune_plan_for(bigtune_context* ctx, bigtune_op op, uint64_t bits, uint64_t count, char* variant,
                                size_t variant_size, uint32_t* ipb) {
  if (!ctx || !variant || !ipb) return null_argument("ctx, variant or ipb");
  return guarded([&] {
    const bigtune::Plan p = ctx->ctx.plan(to_op(op), bits, count);
    if (p.variant.size() + 1 > variant_size)
      throw bigtune::Error(bigtune::ErrorCode::InvalidArgument, "variant buffer too small",
                           "pass at least " + std::to_string(p.variant.size() + 1) + " bytes");
    std::memcpy(variant, p.variant.c_str(), p.variant.size() + 1);
    *ipb = p.ipb;
  });
}

bigtune_status bigtune_batch_create(bigtune_context* ctx, uint64_t bits, uint64_t count, bigtune_batch** out) {
  if (!ctx || !out) return null_argument("ctx or out");
  return guarded([&] { *out = new bigtune_batch{bigtune::Batch(ctx->ctx, bits, count)}; });
}

void bigtune_batch_destroy(bigtune_batch* batch) { delete batch; }

uint64_t bigtune_batch_words_per_instance(const bigtune_batch* batch) {
  return batch ? batch->batch.words_per_instance() : 0;
}

bigtune_status bigtune_batch_upload(bigtune_batch* batch, const uint64_t* words, size_t n_words) {
  if (!batch || !words) return null_argument("batch or words");
  return guarded([&] { batch->batch.upload(words, n_words); });
}

bigtune_status bigtune_batch_download(const bigtune_batch* batch, uint64_t* words, size_t n_words) {
  if (!batch || !words) return null_argument("batch or words");
  return guarded([&] { batch->batch.download(words, n_words); });
}

bigtune_status bigtune_flags_create(bigtune_context* ctx, uint64_t count, bigtune_flags** out) {
  if (!ctx || !out) return null_argument("ctx or out");
  return guarded([&] { *out = new bigtune_flags{bigtune::Flags(ctx->ctx, count)}; });
}

void bigtune_flags_destroy(bigtune_flags* flags) { delete flags; }

bigtune_status bigtune_flags_download(const bigtune_flags* flags, int32_t* values, size_t n) {
  if (!flags || !values) return null_argument("flags or values");
  return guarded([&] {
    if (n != flags->flags.count())
      throw bigtune::Error(bigtune::ErrorCode::InvalidArgument, "flags hold " + std::to_string(flags->flags.count()) +
                                                                    " values, " + std::to_string(n) + " asked",
                           "pass the flags' count");
    const auto v = flags->flags.download();
    std::memcpy(values, v.data(), n * sizeof(int32_t));
  });
}

#define BIGTUNE_BINARY_OP(fn, method)                                                                  \
  bigtune_status fn(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b, \
                    const bigtune_plan* plan) {                                                        \
    if (!ctx || !r || !a || !b) return null_argument("ctx, r, a or b");                                \
    return guarded([&] {                                                                               \
      const auto p = to_plan(plan);                                                                    \
      ctx->ctx.method(r->batch, a->batch, b->batch, p ? &*p : nullptr);                                \
    });                                                                                                \
  }
BIGTUNE_BINARY_OP(bigtune_mul_low, mul_low)
BIGTUNE_BINARY_OP(bigtune_mul, mul)
BIGTUNE_BINARY_OP(bigtune_poly, poly)
BIGTUNE_BINARY_OP(bigtune_gcd, gcd)
#undef BIGTUNE_BINARY_OP

#define BIGTUNE_UNARY_OP(fn, method)                                                                   \
  bigtune_status fn(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_plan* plan) { \
    if (!ctx || !r || !a) return null_argument("ctx, r or a");                                         \
    return guarded([&] {                                                                               \
      const auto p = to_plan(plan);                                                                    \
      ctx->ctx.method(r->batch, a->batch, p ? &*p : nullptr);                                          \
    });                                                                                                \
  }
BIGTUNE_UNARY_OP(bigtune_sqr, sqr)
BIGTUNE_UNARY_OP(bigtune_sqrt, sqrt)
#undef BIGTUNE_UNARY_OP

bigtune_status bigtune_divmod(bigtune_context* ctx, bigtune_batch* q, bigtune_batch* r, const bigtune_batch* u,
                              const bigtune_batch* v, bigtune_flags* zero_divisor, const bigtune_plan* plan) {
  if (!ctx || !q || !r || !u || !v) return null_argument("ctx, q, r, u or v");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.divmod(q->batch, r->batch, u->batch, v->batch, zero_divisor ? &zero_divisor->flags : nullptr,
                    p ? &*p : nullptr);
  });
}

bigtune_status bigtune_mul_add(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                               const bigtune_batch* c, const bigtune_plan* plan) {
  if (!ctx || !r || !a || !b || !c) return null_argument("ctx, r, a, b or c");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.mul_add(r->batch, a->batch, b->batch, c->batch, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_mulmod(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                              const bigtune_batch* m, const bigtune_plan* plan) {
  if (!ctx || !r || !a || !b || !m) return null_argument("ctx, r, a, b or m");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.mulmod(r->batch, a->batch, b->batch, m->batch, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_sqrmod(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* m,
                              const bigtune_plan* plan) {
  if (!ctx || !r || !a || !m) return null_argument("ctx, r, a or m");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.sqrmod(r->batch, a->batch, m->batch, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_powm(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* x, const bigtune_batch* e,
                            const bigtune_batch* m, const bigtune_plan* plan) {
  if (!ctx || !r || !x || !e || !m) return null_argument("ctx, r, x, e or m");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.powm(r->batch, x->batch, e->batch, m->batch, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_modinv(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* m,
                              bigtune_flags* no_inverse, const bigtune_plan* plan) {
  if (!ctx || !r || !a || !m || !no_inverse) return null_argument("ctx, r, a, m or no_inverse");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.modinv(r->batch, a->batch, m->batch, &no_inverse->flags, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_add(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                           bigtune_flags* carry, const bigtune_plan* plan) {
  if (!ctx || !r || !a || !b) return null_argument("ctx, r, a or b");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.add(r->batch, a->batch, b->batch, carry ? &carry->flags : nullptr, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_sub(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, const bigtune_batch* b,
                           bigtune_flags* borrow, const bigtune_plan* plan) {
  if (!ctx || !r || !a || !b) return null_argument("ctx, r, a or b");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.sub(r->batch, a->batch, b->batch, borrow ? &borrow->flags : nullptr, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_cmp(bigtune_context* ctx, bigtune_flags* result, const bigtune_batch* a,
                           const bigtune_batch* b, const bigtune_plan* plan) {
  if (!ctx || !result || !a || !b) return null_argument("ctx, result, a or b");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.cmp(result->flags, a->batch, b->batch, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_shl(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, uint64_t shift,
                           const bigtune_plan* plan) {
  if (!ctx || !r || !a) return null_argument("ctx, r or a");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.shl(r->batch, a->batch, shift, p ? &*p : nullptr);
  });
}

bigtune_status bigtune_shr(bigtune_context* ctx, bigtune_batch* r, const bigtune_batch* a, uint64_t shift,
                           const bigtune_plan* plan) {
  if (!ctx || !r || !a) return null_argument("ctx, r or a");
  return guarded([&] {
    const auto p = to_plan(plan);
    ctx->ctx.shr(r->batch, a->batch, shift, p ? &*p : nullptr);
  });
}

}  // extern "C"
