#include "runtime/launch_selector.hpp"

#include <cstdlib>
#include <utility>

namespace bigtune::runtime {

int family_variant_index(const std::string& family, const std::string& variant) {
  const std::string prefix = family + ".v";
  if (variant.size() <= prefix.size() || variant.compare(0, prefix.size(), prefix) != 0) return -1;
  char* end = nullptr;
  const long index = std::strtol(variant.c_str() + prefix.size(), &end, 10);
  return (*end == '\0' && index >= 0 && index < (1 << 20)) ? int(index) : -1;
}

void route_family_through_selector(const std::string& family, std::shared_ptr<Selector> selector,
                                   DeviceIdentity device, PlanToLaunch apply) {
  set_launch_policy(family, [family, selector = std::move(selector), device = std::move(device),
                             apply = std::move(apply)](const LaunchRequest& request,
                                                       bigtune_launch_params_t& params) {
    if (request.n_sizes == 0) return false;
    const uint64_t bits = request.sizes[0];
    const uint64_t count = request.n_sizes > 1 ? request.sizes[1] : 1;
    const Plan plan = selector->plan(family, bits, count, device);
    return apply(plan, request, params);
  });
}

}  // namespace bigtune::runtime
