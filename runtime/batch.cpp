// Batch and Flags: device memory that belongs to a Context, and the moves
// between host words, GMP integers and the device.
#include <cuda_runtime_api.h>

#include <string>
#include <utility>
#include <vector>

#include "bigtune/bigtune.hpp"
#include "runtime/context_impl.hpp"
#include "bigtune/detail/cuda_check.hpp"
#include "runtime/mpz_words.hpp"

namespace bigtune {

namespace {
void* device_alloc(Context& ctx, uint64_t bytes, const std::string& what) {
  ctx.impl().activate();
  void* p = nullptr;
  const cudaError_t st = cudaMalloc(&p, bytes);
  if (st == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear the sticky-free allocation error
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw Error(ErrorCode::OutOfMemory,
                "cannot allocate " + std::to_string(bytes) + " bytes of device memory for " + what + " (" +
                    std::to_string(free_b) + " of " + std::to_string(total_b) + " bytes free)",
                "use a smaller batch, or free other device memory");
  }
  BIGTUNE_CUDA_CHECK(st);
  return p;
}
}  // namespace

Batch::Batch(Context& ctx, uint64_t bits, uint64_t count) : ctx_(&ctx), bits_(bits), count_(count) {
  if (bits == 0 || count == 0)
    throw Error(ErrorCode::InvalidArgument,
                "batch of " + std::to_string(count) + " instances of " + std::to_string(bits) + " bits is empty",
                "use bits >= 1 and count >= 1");
  words_ = (bits + 63) / 64;
  if (words_ > (uint64_t(1) << 40) / count)
    throw Error(ErrorCode::InvalidArgument, "batch of " + std::to_string(count) + " x " + std::to_string(bits) +
                                                " bits exceeds 8 TiB",
                "use a smaller batch");
  data_ = device_alloc(ctx, words_ * count * 8,
                       "a batch of " + std::to_string(count) + " x " + std::to_string(bits) + " bits");
}

Batch::~Batch() {
  if (data_) cudaFree(data_);
}

Batch::Batch(Batch&& o) noexcept
    : ctx_(o.ctx_), bits_(o.bits_), count_(o.count_), words_(o.words_), data_(std::exchange(o.data_, nullptr)) {}

Batch& Batch::operator=(Batch&& o) noexcept {
  if (this != &o) {
    if (data_) cudaFree(data_);
    ctx_ = o.ctx_;
    bits_ = o.bits_;
    count_ = o.count_;
    words_ = o.words_;
    data_ = std::exchange(o.data_, nullptr);
  }
  return *this;
}

void Batch::upload(const uint64_t* words, size_t n_words) {
  if (n_words != words_ * count_)
    throw Error(ErrorCode::InvalidArgument,
                "upload of " + std::to_string(n_words) + " words to a batch of " + std::to_string(count_) + " x " +
                    std::to_string(words_) + " words",
                "pass exactly count * words_per_instance words");
  for (uint64_t i = 0; i < count_; ++i)
    if (!runtime::words_fit_bits(words + i * words_, words_, bits_))
      throw Error(ErrorCode::InvalidArgument,
                  "instance " + std::to_string(i) + " does not fit in " + std::to_string(bits_) + " bits",
                  "clear the bits at and above `bits` or use a wider batch");
  ctx_->impl().activate();
  BIGTUNE_CUDA_CHECK(cudaMemcpyAsync(data_, words, n_words * 8, cudaMemcpyHostToDevice, ctx_->impl().stream));
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(ctx_->impl().stream));
}

void Batch::download(uint64_t* words, size_t n_words) const {
  if (n_words != words_ * count_)
    throw Error(ErrorCode::InvalidArgument,
                "download of " + std::to_string(n_words) + " words from a batch of " + std::to_string(count_) +
                    " x " + std::to_string(words_) + " words",
                "pass exactly count * words_per_instance words");
  ctx_->impl().activate();
  BIGTUNE_CUDA_CHECK(cudaMemcpyAsync(words, data_, n_words * 8, cudaMemcpyDeviceToHost, ctx_->impl().stream));
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(ctx_->impl().stream));
}

std::vector<uint64_t> Batch::download() const {
  std::vector<uint64_t> w(words_ * count_);
  download(w.data(), w.size());
  return w;
}

void Batch::from_mpz(const mpz_t* values, size_t n) {
  if (n != count_)
    throw Error(ErrorCode::InvalidArgument,
                std::to_string(n) + " values for a batch of " + std::to_string(count_), "pass count() values");
  std::vector<uint64_t> w(words_ * count_);
  for (size_t i = 0; i < n; ++i) runtime::mpz_to_words(w.data() + i * words_, words_, bits_, values[i]);
  upload(w.data(), w.size());
}

void Batch::to_mpz(mpz_t* values, size_t n) const {
  if (n != count_)
    throw Error(ErrorCode::InvalidArgument,
                std::to_string(n) + " values for a batch of " + std::to_string(count_), "pass count() values");
  const std::vector<uint64_t> w = download();
  for (size_t i = 0; i < n; ++i) runtime::words_to_mpz(values[i], w.data() + i * words_, words_);
}

void Batch::set_zero() {
  ctx_->impl().activate();
  BIGTUNE_CUDA_CHECK(cudaMemsetAsync(data_, 0, words_ * count_ * 8, ctx_->impl().stream));
}

Flags::Flags(Context& ctx, uint64_t count) : ctx_(&ctx), count_(count) {
  if (count == 0) throw Error(ErrorCode::InvalidArgument, "flags for 0 instances", "use count >= 1");
  data_ = static_cast<uint32_t*>(device_alloc(ctx, count * 4, "flags of " + std::to_string(count) + " instances"));
}

Flags::~Flags() {
  if (data_) cudaFree(data_);
}

Flags::Flags(Flags&& o) noexcept : ctx_(o.ctx_), count_(o.count_), data_(std::exchange(o.data_, nullptr)) {}

std::vector<int32_t> Flags::download() const {
  std::vector<int32_t> v(count_);
  ctx_->impl().activate();
  BIGTUNE_CUDA_CHECK(cudaMemcpyAsync(v.data(), data_, count_ * 4, cudaMemcpyDeviceToHost, ctx_->impl().stream));
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(ctx_->impl().stream));
  return v;
}

}  // namespace bigtune
