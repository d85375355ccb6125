// Shipped default profiles: decisions measured on a known GPU model, kept in
// profiles/<file>.tsv in the export format (text_format.hpp), and used when
// the user's database has no decision for any device of that model name, so
// that plans are good before the first `bigtune tune` (docs/database.md,
// "Profiles").
//
// A profile holds one `device` line (uuid "model:<name>") and that model's
// `decision` lines; other kinds are refused. Its file name is the model name
// in lower case with every run of other characters than [a-z0-9] turned into
// one '-', plus ".tsv": "NVIDIA H100 80GB HBM3" -> nvidia-h100-80gb-hbm3.tsv.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "db/records.hpp"

namespace bigtune::db {

struct Profile {
  std::string file;         // where it was read from
  DeviceRecord device;      // the model it was measured on
  std::vector<DecisionRecord> decisions;

  // The decision whose buckets hold (bits, count) for `op`, if any.
  const DecisionRecord* find(const std::string& op, uint64_t bits, uint64_t count) const;
};

// "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3.tsv".
std::string profile_file_name(const std::string& device_name);

// $BIGTUNE_PROFILES if set, else the profiles/ folder of this source tree.
std::string default_profiles_dir();

// The profile for `device_name` in `dir`, or nothing when there is no file.
// Throws bigtune::Error (InvalidArgument) when the file is malformed, holds
// other kinds of records, or names another model.
std::optional<Profile> load_profile(const std::string& dir, const std::string& device_name);

// What `bigtune db export --profile NAME` writes: from a full dump, one device
// line for the model (limits from the newest device of that name) and, per
// (op, bucket), the newest decision of any device of that name; uuids are
// replaced by "model:<name>". Throws InvalidArgument when there are none.
Dump make_profile(const Dump& everything, const std::string& device_name);

}  // namespace bigtune::db
