// Context: device selection, the stream, plan choice and launches.
#include <string>

#include "bigtune/bigtune.hpp"
#include "kernels/block/layout.hpp"
#include "kernels/variants/barrett_kept_modulus.hpp"
#include "runtime/context_impl.hpp"
#include "bigtune/detail/cuda_check.hpp"
#include "db/paths.hpp"
#include "db/store.hpp"
#include "runtime/default_plan.hpp"
#include "runtime/plan_source.hpp"
#include "runtime/validate.hpp"

namespace bigtune {

const char* op_name(Op op) { return kernels::op_name(runtime::to_kernel_op(op)); }

void Context::Impl::activate() const { BIGTUNE_CUDA_CHECK(cudaSetDevice(info.ordinal)); }

Context::Context(int device, const ContextOptions& options) : impl_(std::make_unique<Impl>()) {
  int n = 0;
  const cudaError_t st = cudaGetDeviceCount(&n);
  if (st != cudaSuccess || n == 0)
    throw Error(ErrorCode::NoDevice,
                std::string("no CUDA device found (") + (st != cudaSuccess ? cudaGetErrorString(st) : "0 devices") + ")",
                "run on a machine with an NVIDIA GPU and driver; `bigtune query` works without one");
  if (device < 0 || device >= n)
    throw Error(ErrorCode::InvalidArgument,
                "device " + std::to_string(device) + " does not exist (" + std::to_string(n) + " found)",
                "use a device index from 0 to " + std::to_string(n - 1));
  cudaDeviceProp p{};
  BIGTUNE_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  Impl& m = *impl_;
  m.info.ordinal = device;
  m.info.name = p.name;
  m.info.cc_major = p.major;
  m.info.cc_minor = p.minor;
  m.info.sm_count = p.multiProcessorCount;
  m.info.global_memory_bytes = p.totalGlobalMem;
  m.limits = kernels::DeviceLimits::from_properties(p);
  if (p.major < 8)
    throw Error(ErrorCode::Unsupported,
                std::string(p.name) + " has compute capability " + std::to_string(p.major) + "." +
                    std::to_string(p.minor) + "; bigtune's kernels need 8.0 or newer (cp.async)",
                "use an Ampere, Ada or Hopper GPU");
  m.activate();
  BIGTUNE_CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  if (auto id = runtime::device_identity(device)) m.identity = *id;
  if (options.use_tuning_db) {
    auto store = std::make_shared<db::Store>(db::resolve_db_path(options.tuning_db));
    runtime::SelectorOptions so;
    so.check = runtime::plan_check(m.limits);
    m.selector = std::make_unique<runtime::Selector>(store, runtime::default_plan_function(m.limits), so);
  }
}

Context::~Context() {
  if (impl_ && impl_->stream) {
    cudaSetDevice(impl_->info.ordinal);
    cudaStreamSynchronize(impl_->stream);
    kernels::variants::barrett_forget_stream(impl_->stream);  // its kept Barrett constants
    cudaStreamDestroy(impl_->stream);
    if (impl_->scratch) cudaFree(impl_->scratch);
  }
}

void* Context::Impl::scratch_of(uint64_t bytes) {
  if (bytes <= scratch_capacity) return scratch;
  activate();
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (scratch) BIGTUNE_CUDA_CHECK(cudaFree(scratch));
  scratch = nullptr;
  scratch_capacity = 0;
  if (cudaMalloc(&scratch, bytes) != cudaSuccess) {
    cudaGetLastError();
    throw Error(ErrorCode::OutOfMemory,
                "cannot allocate " + std::to_string(bytes) + " bytes of device scratch for this launch",
                "use smaller batches (scratch grows with the instance count)");
  }
  scratch_capacity = bytes;
  return scratch;
}

const DeviceInfo& Context::device() const { return impl_->info; }
void* Context::stream() const { return impl_->stream; }

void Context::synchronize() {
  impl_->activate();
  BIGTUNE_CUDA_CHECK(cudaStreamSynchronize(impl_->stream));
}

Plan Context::plan(Op op, uint64_t bits, uint64_t count) const {
  if (impl_->selector && runtime::default_plan(op, bits, count, impl_->limits))
    return impl_->selector->plan(op_name(op), bits, count, impl_->identity);
  if (auto p = runtime::default_plan(op, bits, count, impl_->limits)) return *p;
  uint64_t largest = 0;
  for (const kernels::Variant& v : kernels::registry())
    if (v.op == runtime::to_kernel_op(op)) largest = std::max(largest, kernels::max_operand_bits(v, impl_->limits));
  throw Error(ErrorCode::Unsupported,
              std::string(op_name(op)) + " of " + std::to_string(bits) + "-bit operands is not supported on " +
                  impl_->info.name + " (largest: " + std::to_string(largest) + " bits)",
              "split the operands, or wait for the multi-block kernels");
}

PreparedLaunch prepare_launch(Op op, const Plan& plan, uint64_t operand_bits, uint64_t count, uint64_t result_bits,
                              const kernels::DeviceLimits& limits) {
  const kernels::Variant& v = runtime::validate_plan(plan, op, operand_bits, count, limits);
  PreparedLaunch p{&v, kernels::geometry(v, operand_bits, count, plan.ipb, limits), {}};
  p.args.count = count;
  p.args.bits = result_bits;
  p.args.limbs = kernels::operand_limbs(v, operand_bits);
  p.args.out_limbs = kernels::block::limbs_for_bits(result_bits, v.limb_bits);
  p.args.threads_per_instance = p.geometry.threads_per_instance;
  p.args.ipb = p.geometry.ipb;
  p.args.stage_buffers = p.geometry.stage_buffers;
  return p;
}

void Context::Impl::launch(Op op, const Plan* plan, uint64_t operand_bits, uint64_t count, uint64_t result_bits,
                           kernels::KernelArgs args, const ExtraBits& extra) {
  Plan chosen;
  if (plan) {
    chosen = *plan;
  } else if (runtime::default_plan(op, operand_bits, count, limits)) {
    chosen = selector ? selector->plan(op_name(op), operand_bits, count, identity)
                      : *runtime::default_plan(op, operand_bits, count, limits);
  } else {
    throw Error(ErrorCode::Unsupported,
                std::string(op_name(op)) + " of " + std::to_string(operand_bits) + "-bit operands is not supported on " +
                    info.name,
                "see `bigtune variants --op " + std::string(op_name(op)) + "` for the sizes each variant supports");
  }
  PreparedLaunch p = prepare_launch(op, chosen, operand_bits, count, result_bits, limits);
  p.args.r = args.r;
  p.args.a = args.a;
  p.args.b = args.b;
  p.args.flags = args.flags;
  p.args.shift = args.shift;
  p.args.r2 = args.r2;
  p.args.c = args.c;
  p.args.m = args.m;
  p.args.e = args.e;
  p.args.m_shared = args.m_shared;
  p.args.e_shared = args.e_shared;
  const auto limbs = [&](uint64_t bits) { return bits ? kernels::block::limbs_for_bits(bits, p.variant->limb_bits) : 0; };
  p.args.b_limbs = extra.b ? limbs(extra.b) : p.args.limbs;
  p.args.c_limbs = limbs(extra.c);
  p.args.r2_limbs = limbs(extra.r2);
  p.args.m_limbs = limbs(extra.m);
  p.args.e_limbs = limbs(extra.e);
  if (const uint64_t bytes = kernels::scratch_bytes(*p.variant, operand_bits, count)) p.args.scratch = scratch_of(bytes);
  activate();
  BIGTUNE_CUDA_CHECK(kernels::launch(*p.variant, p.args, p.geometry, stream));
}

void Context::add(Batch& r, const Batch& a, const Batch& b, Flags* carry, const Plan* plan) {
  runtime::validate_shapes(Op::Add, shape_of(r), shape_of(a), shape_of(b));
  check_flags("add", carry, a.count());
  impl_->launch(Op::Add, plan, a.bits(), a.count(), r.bits(),
                args_for(r.device_data(), a.device_data(), b.device_data(), carry ? carry->device_data() : nullptr));
}

void Context::sub(Batch& r, const Batch& a, const Batch& b, Flags* borrow, const Plan* plan) {
  runtime::validate_shapes(Op::Sub, shape_of(r), shape_of(a), shape_of(b));
  check_flags("sub", borrow, a.count());
  impl_->launch(Op::Sub, plan, a.bits(), a.count(), r.bits(),
                args_for(r.device_data(), a.device_data(), b.device_data(), borrow ? borrow->device_data() : nullptr));
}

void Context::cmp(Flags& result, const Batch& a, const Batch& b, const Plan* plan) {
  runtime::validate_shapes(Op::Cmp, {0, result.count()}, shape_of(a), shape_of(b));
  impl_->launch(Op::Cmp, plan, a.bits(), a.count(), a.bits(),
                args_for(nullptr, a.device_data(), b.device_data(), result.device_data()));
}

void Context::shl(Batch& r, const Batch& a, uint64_t shift, const Plan* plan) {
  runtime::validate_shapes(Op::Shl, shape_of(r), shape_of(a), {});
  kernels::KernelArgs k = args_for(r.device_data(), a.device_data(), nullptr, nullptr);
  k.shift = shift;
  impl_->launch(Op::Shl, plan, a.bits(), a.count(), r.bits(), k);
}

void Context::shr(Batch& r, const Batch& a, uint64_t shift, const Plan* plan) {
  runtime::validate_shapes(Op::Shr, shape_of(r), shape_of(a), {});
  kernels::KernelArgs k = args_for(r.device_data(), a.device_data(), nullptr, nullptr);
  k.shift = shift;
  impl_->launch(Op::Shr, plan, a.bits(), a.count(), r.bits(), k);
}

void Context::mul_low(Batch& r, const Batch& a, const Batch& b, const Plan* plan) {
  runtime::validate_shapes(Op::MulLow, shape_of(r), shape_of(a), shape_of(b));
  impl_->launch(Op::MulLow, plan, a.bits(), a.count(), r.bits(),
                args_for(r.device_data(), a.device_data(), b.device_data(), nullptr));
}

void Context::mul(Batch& r, const Batch& a, const Batch& b, const Plan* plan) {
  runtime::validate_shapes(Op::Mul, shape_of(r), shape_of(a), shape_of(b));
  impl_->launch(Op::Mul, plan, a.bits(), a.count(), r.bits(),
                args_for(r.device_data(), a.device_data(), b.device_data(), nullptr));
}

}  // namespace bigtune
