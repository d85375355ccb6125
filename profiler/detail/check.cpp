#include "profiler/detail/check.hpp"

#include <cupti.h>

#include <cstring>

namespace bigtune::profiler::detail {
namespace {

std::string where(const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  return std::string(" in ") + call + " at " + (base ? base + 1 : file) + ":" + std::to_string(line);
}

}  // namespace

std::string cupti_status_text(CUptiResult status) {
  const char* text = nullptr;
  if (cuptiGetResultString(status, &text) != CUPTI_SUCCESS || text == nullptr)
    return "CUPTI error " + std::to_string(static_cast<int>(status));
  return text;
}

void throw_cupti_error(CUptiResult status, const char* call, const char* file, int line) {
  throw Error(ErrorCode::Profiler, "CUPTI error " + cupti_status_text(status) + where(call, file, line));
}

}  // namespace bigtune::profiler::detail
