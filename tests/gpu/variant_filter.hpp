// A sanitizer run, or a GPU call with little time, checks only what changed:
// an environment variable of comma-separated parts selects the variants whose
// names contain one of them (unset or empty: every variant). The GPU tests
// name their variable in their header comment (BIGTUNE_TEST_VARIANTS: ModVsGmp,
// ArithVsGmp and others;
// BIGTUNE_WARP_VARIANTS, BIGTUNE_ROUNDS_VARIANTS, BIGTUNE_WKARA_VARIANTS,
// BIGTUNE_WLOW_VARIANTS).
#pragma once
#include <algorithm>
#include <cstdlib>
#include <string>

namespace bigtune::test {

inline bool selected_by_env(const char* variable, const std::string& name) {
  const char* env = std::getenv(variable);
  const std::string list = env ? env : "";
  if (list.empty()) return true;
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    if (comma > at && name.find(list.substr(at, comma - at)) != std::string::npos) return true;
    at = comma + 1;
  }
  return false;
}

}  // namespace bigtune::test
