// A launch plan: which registry variant runs a call, with how many instances
// per block, and where that choice came from.
#pragma once
#include <cstdint>
#include <string>

namespace bigtune {

struct Plan {
  std::string variant;        // registry name, e.g. "mul.classical.u64.q4"
  uint32_t ipb = 1;           // instances per block
  std::string source;         // "explicit", "default", later "decision", "history", "model"
  double predicted_us = 0.0;  // predicted kernel time, 0 when unknown
};

}  // namespace bigtune
