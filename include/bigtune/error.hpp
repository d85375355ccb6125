// bigtune's one exception type. Every failure a user can meet says what went
// wrong and what to do about it; the code lets programs react without parsing.
#pragma once
#include <stdexcept>
#include <string>

namespace bigtune {

enum class ErrorCode {
  InvalidArgument = 1,  // wrong sizes, mismatched batches, unknown names
  Unsupported = 2,      // no variant can run this size on this device
  OutOfMemory = 3,      // device (or host) memory exhausted
  NoDevice = 4,         // no usable CUDA device
  Cuda = 5,             // a CUDA call failed (fault, launch failure, ...)
  Database = 6,         // the tuning database is missing, locked, corrupt or newer
  Profiler = 7,         // CUPTI refused or failed
  Internal = 8,         // a bug in bigtune: please report it
  DivisionByZero = 9,   // a divisor (or modulus) of 0
};

const char* error_code_name(ErrorCode code);

class Error : public std::runtime_error {
 public:
  // `what` says what went wrong; `what_to_do` the next step for the user.
  Error(ErrorCode code, const std::string& what, const std::string& what_to_do = {})
      : std::runtime_error(what_to_do.empty() ? what : what + " — " + what_to_do), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace bigtune
