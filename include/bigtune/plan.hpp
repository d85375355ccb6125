// A launch plan: which variant runs a call and how it is laid out. Plain data,
// shared by the runtime's selector, the host API and the `bigtune` command.
#pragma once
#include <cstdint>
#include <string>

namespace bigtune {

struct Plan {
  std::string variant;      // registry name, e.g. "mul.classical.u64.q4"
  uint32_t ipb = 1;         // instances per block
  std::string source;       // who chose it: "decision", "history", "profile", "model", "default"
  double predicted_us = 0;  // predicted (or last measured) kernel time; 0 when unknown
};

inline bool operator==(const Plan& a, const Plan& b) {
  return a.variant == b.variant && a.ipb == b.ipb && a.source == b.source &&
         a.predicted_us == b.predicted_us;
}
inline bool operator!=(const Plan& a, const Plan& b) { return !(a == b); }

}  // namespace bigtune
