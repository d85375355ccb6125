// A small streaming JSON writer for the profiler's results (DeviceProbe,
// TimingResult, counters). No parsing; output is compact and valid JSON:
// strings are escaped, non-finite numbers are written as null.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bigtune::profiler {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);  // inside an object, before each value
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // Inserts an already-serialized JSON value (e.g. another struct's to_json()).
  JsonWriter& raw(std::string_view json);
  template <class T>
  JsonWriter& field(std::string_view name, const T& v) { key(name); return value(v); }

  const std::string& str() const { return out_; }

 private:
  void before_value();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// `text` as a quoted, escaped JSON string.
std::string json_quote(std::string_view text);

}  // namespace bigtune::profiler
