// The variant registry: the one place that lists what can run (DESIGN.md).
//
// A variant is (op, family, algorithm, limb type, Q). Bit-size, batch count and
// instances per block (IPB) are run-time values; from them and the device's
// limits the registry states whether the variant is valid and its launch
// geometry, without launching anything. The tuner and the runtime iterate it.
#pragma once
#include <cuda_runtime_api.h>
#include <driver_types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/variants/kernel_args.hpp"

namespace bigtune::kernels {

// Every operation bigtune knows, one per line (the public bigtune::Op mirrors
// it). An op without variants in the registry is reported as unsupported.
enum class Op : uint8_t {
  Add,
  Sub,
  Cmp,
  Shl,
  Shr,
  MulLow,
  Mul,
  Sqr,     // full square
  DivMod,  // quotient and remainder
  MulAdd,  // a*b + c
  Poly,    // (a*a + b)*(b*b + b) + a*b, seed 000's fused benchmark
  MulMod,
  SqrMod,
  PowM,
  Gcd,
  ModInv,
  Sqrt,    // integer square root
};
constexpr Op kAllOps[] = {Op::Add,    Op::Sub,    Op::Cmp,    Op::Shl,    Op::Shr,  Op::MulLow,
                          Op::Mul,    Op::Sqr,    Op::DivMod, Op::MulAdd, Op::Poly, Op::MulMod,
                          Op::SqrMod, Op::PowM,   Op::Gcd,    Op::ModInv, Op::Sqrt};
const char* op_name(Op op);
std::optional<Op> parse_op(std::string_view name);

// What validity depends on. Read from the device, or a named model offline.
struct DeviceLimits {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  uint32_t max_threads_per_block = 1024;
  uint64_t smem_per_block_optin = 48 * 1024;  // bytes of dynamic + static shared memory
  uint64_t smem_per_sm = 100 * 1024;
  uint32_t max_threads_per_sm = 2048;
  uint32_t regs_per_block = 65536;
  uint64_t global_memory_bytes = 0;
  static DeviceLimits h100();  // NVIDIA H100 80GB HBM3 (sm_90), for use without a GPU
  static DeviceLimits from_properties(const cudaDeviceProp& p);
};

struct Variant;

// How an algorithm maps instances onto threads and memory. Each kernel family
// supplies one (kernels/<family>/), so that the registry can state geometry and
// validity for any variant without knowing its algorithm.
struct ShapeRules {
  // Threads one instance of `operand_bits` bits takes (1 for thread-level
  // kernels, the lanes for warp-level ones).
  uint32_t (*threads_per_instance)(const Variant& v, uint64_t operand_bits);
  // Dynamic shared memory of a block of `ipb` instances (the minimum).
  uint64_t (*smem_bytes)(const Variant& v, uint64_t operand_bits, uint32_t ipb);
  // Largest operand bit-size the kernel can hold whatever the device (fixed
  // register arrays of thread- and warp-level kernels); 0: no such bound.
  uint64_t (*fixed_max_bits)(const Variant& v);
  // Global scratch the launch needs, for all `count` instances; null: none.
  uint64_t (*scratch_bytes)(const Variant& v, uint64_t operand_bits, uint64_t count);
  // The launch, for variants made of several kernels; null: one
  // cudaLaunchKernel of v.kernel with the geometry.
  cudaError_t (*launch)(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream);
  // Two staging buffers for two-operand scans when they cost no residency.
  bool may_double_stage = false;
};

struct Variant {
  std::string name;       // "<op>.<algorithm>.u<limb>.q<Q>[.<extra>]", e.g. "mul.classical.u64.q4"
  Op op;
  const char* family;     // "thread", "warp" or "block": what one instance runs on
  const char* algorithm;  // e.g. "scan", "classical", "ntt", "newton"
  uint32_t limb_bits;
  uint32_t q;             // limbs per thread (the family's sequentialisation factor)
  uint32_t max_threads;   // __launch_bounds__ of the kernel
  const void* kernel;     // the (first) __global__ function, for attributes and launches
  const ShapeRules* shape;
  uint32_t param = 0;     // algorithm parameter named in the name's extra part (lanes, window, field)
};

const std::vector<Variant>& registry();
const Variant* find_variant(std::string_view name);
// True when b is a's kernel at another block size: same op and kernel, names
// that differ only in one ".t<threads>" component (mul.ntt.u64.q1.gl.m14.t512
// and ...t1024). The tuner times these next to a measured winner.
bool same_kernel_other_threads(const Variant& a, const Variant& b);

// Shape of a launch; operand_bits is the bit-size of the operands (for a full
// product the result has 2 * operand_bits bits).
uint32_t operand_limbs(const Variant& v, uint64_t operand_bits);
uint64_t scratch_bytes(const Variant& v, uint64_t operand_bits, uint64_t count);
uint32_t threads_per_instance(const Variant& v, uint64_t operand_bits);
// Dynamic shared memory with one staging buffer (the minimum the variant needs).
uint64_t smem_bytes(const Variant& v, uint64_t operand_bits, uint32_t ipb);
// The launch; scan-family variants stage both operands at once (two buffers)
// when that costs no resident blocks on this device.
Geometry geometry(const Variant& v, uint64_t operand_bits, uint64_t count, uint32_t ipb,
                  const DeviceLimits& limits);

// Empty when (bits, count, ipb) can run on a device with these limits;
// otherwise the reason, in words a user can act on.
std::string why_invalid(const Variant& v, uint64_t operand_bits, uint64_t count, uint32_t ipb,
                        const DeviceLimits& limits);

// Largest operand bit-size (a multiple of 64) the variant supports with IPB 1.
uint64_t max_operand_bits(const Variant& v, const DeviceLimits& limits);

// Launches through cudaLaunchKernel; raises the kernel's dynamic shared-memory
// limit first when the geometry needs more than the 48 KB default.
cudaError_t launch(const Variant& v, const KernelArgs& args, const Geometry& g, cudaStream_t stream);

}  // namespace bigtune::kernels
