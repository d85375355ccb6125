// bigtune's C++ host API: batched big-integer arithmetic on an NVIDIA GPU.
//
//   bigtune::Context ctx;                         // device 0
//   bigtune::Batch a(ctx, bits, n), b(ctx, bits, n), p(ctx, 2 * bits, n);
//   a.from_mpz(xs, n); b.from_mpz(ys, n);
//   ctx.mul(p, a, b);                             // plan chosen by bigtune
//   p.to_mpz(zs, n);
//
// A Batch holds `count` unsigned integers of `bits` bits each, in device
// memory, instance-major, little-endian 64-bit words (ceil(bits/64) words per
// instance). Values must be below 2^bits; results of add, sub, shl and mul_low
// are reduced modulo 2^bits of the result batch. Operations are queued on the
// context's stream and run asynchronously; download/to_mpz synchronise.
// Exceptions, each one stream synchronisation per call to read a small value
// back: the warp Barrett mulmod/sqrmod with a shared modulus (its reciprocal
// is prepared on the host), the composed Barrett mulmod/sqrmod (whether an
// operand is >= m), the warp modular kernels above 2048 bits (whether a
// modulus is even) and the composed Newton divmod (how many instances need
// its fallback). Context::plan() names the variant a call will run.
// Every error is a bigtune::Error (error.hpp) that says what to do.
#pragma once
#include <gmp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bigtune/error.hpp"
#include "bigtune/plan.hpp"

namespace bigtune {

// The same values, in the same order, as the registry's kernels::Op.
enum class Op {
  Add,
  Sub,
  Cmp,
  Shl,
  Shr,
  MulLow,
  Mul,
  Sqr,
  DivMod,
  MulAdd,
  Poly,
  MulMod,
  SqrMod,
  PowM,
  Gcd,
  ModInv,
  Sqrt,
};
const char* op_name(Op op);

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  uint64_t global_memory_bytes = 0;
};

class Context;

struct ContextOptions {
  // The tuning database plans are looked up in and choices recorded to:
  // empty means $BIGTUNE_DB, then $XDG_DATA_HOME/bigtune/tuning.db.
  std::string tuning_db;
  // false: no database at all; plans come from the built-in default.
  bool use_tuning_db = true;
};

class Batch {
 public:
  Batch(Context& ctx, uint64_t bits, uint64_t count);
  ~Batch();
  Batch(Batch&& other) noexcept;
  Batch& operator=(Batch&& other) noexcept;
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  uint64_t bits() const { return bits_; }
  uint64_t count() const { return count_; }
  uint64_t words_per_instance() const { return words_; }  // 64-bit words
  void* device_data() { return data_; }
  const void* device_data() const { return data_; }

  // Host words, count * words_per_instance() of them, instance-major. upload
  // rejects values that do not fit in `bits` bits.
  void upload(const uint64_t* words, size_t n_words);
  void download(uint64_t* words, size_t n_words) const;
  std::vector<uint64_t> download() const;
  void from_mpz(const mpz_t* values, size_t n);  // n == count(), 0 <= v < 2^bits
  void to_mpz(mpz_t* values, size_t n) const;    // values already mpz_init'ed
  void set_zero();

 private:
  Context* ctx_;
  uint64_t bits_, count_, words_;
  void* data_ = nullptr;
};

// One 32-bit value per instance: carries and borrows (0/1), cmp results (-1/0/1).
class Flags {
 public:
  Flags(Context& ctx, uint64_t count);
  ~Flags();
  Flags(Flags&& other) noexcept;
  Flags(const Flags&) = delete;
  Flags& operator=(const Flags&) = delete;
  uint64_t count() const { return count_; }
  uint32_t* device_data() { return data_; }
  std::vector<int32_t> download() const;

 private:
  Context* ctx_;
  uint64_t count_;
  uint32_t* data_ = nullptr;
};

class Context {
 public:
  explicit Context(int device = 0, const ContextOptions& options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const DeviceInfo& device() const;
  void* stream() const;  // the cudaStream_t all operations are queued on
  void synchronize();

  // The plan bigtune uses without an explicit one: the selector's answer
  // (cache, the tuning database's decisions and history, the shipped profile
  // of this GPU model, the built-in default), recorded in the history.
  // `bits` is the operand bit-size. plan.source says where it came from.
  Plan plan(Op op, uint64_t bits, uint64_t count) const;

  // Each takes an optional explicit plan; without one, plan() decides.
  // r may be the same batch as a or b (exact in-place), except for mul.
  void add(Batch& r, const Batch& a, const Batch& b, Flags* carry = nullptr, const Plan* plan = nullptr);
  void sub(Batch& r, const Batch& a, const Batch& b, Flags* borrow = nullptr, const Plan* plan = nullptr);
  void cmp(Flags& result, const Batch& a, const Batch& b, const Plan* plan = nullptr);
  void shl(Batch& r, const Batch& a, uint64_t shift, const Plan* plan = nullptr);
  void shr(Batch& r, const Batch& a, uint64_t shift, const Plan* plan = nullptr);
  void mul_low(Batch& r, const Batch& a, const Batch& b, const Plan* plan = nullptr);  // r = a*b mod 2^bits
  void mul(Batch& r, const Batch& a, const Batch& b, const Plan* plan = nullptr);  // r.bits() >= 2*a.bits()
  void sqr(Batch& r, const Batch& a, const Plan* plan = nullptr);                  // r.bits() >= 2*a.bits()

  // q = u / v, r = u mod v, for divisors of any length up to the dividend's
  // (q has u's bits, r has v's). An instance with v = 0 gets q = r = 0 and a 1
  // in `zero_divisor`; without that array, a zero divisor raises
  // ErrorCode::DivisionByZero (which synchronises the stream).
  void divmod(Batch& q, Batch& r, const Batch& u, const Batch& v, Flags* zero_divisor = nullptr,
              const Plan* plan = nullptr);

  // Fused, intermediates kept on chip; results reduced modulo 2^r.bits().
  void mul_add(Batch& r, const Batch& a, const Batch& b, const Batch& c, const Plan* plan = nullptr);  // a*b + c
  void poly(Batch& r, const Batch& a, const Batch& b, const Plan* plan = nullptr);  // (a*a+b)*(b*b+b) + a*b

  // Modular arithmetic: m holds one modulus for the whole batch (count 1) or
  // one per instance; operands and results have m's bit-size, operands >= m
  // are reduced first, m = 1 gives 0, and m must not be 0. With one modulus
  // for the batch, the tensor-core Barrett (from 1536 bits) keeps m's
  // constants on the device for the context and operand size (4n + 3 words,
  // freed with the context): m is compared with them on the device each
  // call, and only a new or rewritten modulus is prepared again.
  void mulmod(Batch& r, const Batch& a, const Batch& b, const Batch& m, const Plan* plan = nullptr);
  void sqrmod(Batch& r, const Batch& a, const Batch& m, const Plan* plan = nullptr);
  // r = x^e mod m; e of any bit-size, one exponent (count 1) or one per instance.
  void powm(Batch& r, const Batch& x, const Batch& e, const Batch& m, const Plan* plan = nullptr);
  void gcd(Batch& r, const Batch& a, const Batch& b, const Plan* plan = nullptr);
  // r = a^-1 mod m; where gcd(a, m) != 1, r = 0 and no_inverse gets a 1.
  void modinv(Batch& r, const Batch& a, const Batch& m, Flags* no_inverse, const Plan* plan = nullptr);
  void sqrt(Batch& r, const Batch& a, const Plan* plan = nullptr);  // floor(sqrt(a)), r.bits() >= ceil(a.bits()/2)

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace bigtune
