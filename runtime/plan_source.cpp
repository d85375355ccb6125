#include "runtime/plan_source.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "runtime/default_plan.hpp"
#include "runtime/validate.hpp"

namespace bigtune::runtime {

std::optional<Op> op_from_name(const std::string& name) {
  if (auto k = kernels::parse_op(name)) return static_cast<Op>(static_cast<int>(*k));
  return std::nullopt;
}

PlanFunction default_plan_function(const kernels::DeviceLimits& limits) {
  return [limits](const std::string& op, uint64_t bits, uint64_t count,
                  const DeviceIdentity&) -> std::optional<Plan> {
    const auto o = op_from_name(op);
    if (!o) return std::nullopt;
    return default_plan(*o, bits, count, limits);
  };
}

PlanCheck plan_check(const kernels::DeviceLimits& limits) {
  return [limits](const std::string& op, uint64_t bits, uint64_t count, const DeviceIdentity&,
                  const Plan& plan) {
    const kernels::Variant* v = kernels::find_variant(plan.variant);
    const auto o = op_from_name(op);
    return v && o && v->op == to_kernel_op(*o) && kernels::why_invalid(*v, bits, count, plan.ipb, limits).empty();
  };
}

std::optional<DeviceIdentity> device_identity(int ordinal) {
  int n = 0;
  cudaDeviceProp p{};
  if (cudaGetDeviceCount(&n) != cudaSuccess || ordinal < 0 || ordinal >= n ||
      cudaGetDeviceProperties(&p, ordinal) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  DeviceIdentity d;
  d.name = p.name;
  char uuid[48];
  const unsigned char* u = reinterpret_cast<const unsigned char*>(p.uuid.bytes);
  std::snprintf(uuid, sizeof uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  d.uuid = uuid;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  return d;
}

kernels::DeviceLimits limits_for_model(const std::string& name) {
  kernels::DeviceLimits l = kernels::DeviceLimits::h100();
  if (!name.empty()) l.name = name;
  return l;
}

}  // namespace bigtune::runtime
