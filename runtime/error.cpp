#include "bigtune/error.hpp"

namespace bigtune {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::OutOfMemory: return "out of memory";
    case ErrorCode::NoDevice: return "no device";
    case ErrorCode::Cuda: return "CUDA error";
    case ErrorCode::Database: return "database error";
    case ErrorCode::Profiler: return "profiler error";
    case ErrorCode::Internal: return "internal error";
    case ErrorCode::DivisionByZero: return "division by zero";
  }
  return "unknown error";
}

}  // namespace bigtune
