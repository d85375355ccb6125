// A JSON string literal for `--json` output: quotes, escapes backslash, the
// double quote and control characters (the rest of UTF-8 passes through).
#pragma once
#include <fmt/core.h>

#include <string>

namespace bigtune::cli {

inline std::string json_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace bigtune::cli
