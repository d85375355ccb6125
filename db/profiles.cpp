// Finding, reading and making shipped profiles (see profiles.hpp).
#include "db/profiles.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "bigtune/error.hpp"
#include "db/text_format.hpp"

#ifndef BIGTUNE_PROFILES_DIR
#define BIGTUNE_PROFILES_DIR "profiles"
#endif

namespace bigtune::db {

const DecisionRecord* Profile::find(const std::string& op, uint64_t bits, uint64_t count) const {
  for (const DecisionRecord& d : decisions) {
    if (d.op == op && d.bits.contains(bits) && d.count.contains(count)) return &d;
  }
  return nullptr;
}

std::string profile_file_name(const std::string& device_name) {
  std::string out;
  bool dash = false;
  for (unsigned char c : device_name) {
    if (std::isalnum(c)) {
      if (dash && !out.empty()) out += '-';
      out += static_cast<char>(std::tolower(c));
      dash = false;
    } else {
      dash = true;
    }
  }
  return out + ".tsv";
}

std::string default_profiles_dir() {
  const char* env = std::getenv("BIGTUNE_PROFILES");
  if (env != nullptr && *env != '\0') return env;
  return BIGTUNE_PROFILES_DIR;
}

std::optional<Profile> load_profile(const std::string& dir, const std::string& device_name) {
  const std::string file = (std::filesystem::path(dir) / profile_file_name(device_name)).string();
  std::ifstream in(file);
  if (!in) return std::nullopt;
  Dump dump = read_text(in, file);
  auto refuse = [&](const std::string& what) {
    throw Error(ErrorCode::InvalidArgument, "profile " + file + " " + what,
                "make profiles with `bigtune db export --profile NAME` (docs/database.md)");
  };
  if (!dump.variants.empty() || !dump.samples.empty() || !dump.models.empty() ||
      !dump.history.empty()) {
    refuse("holds records other than device and decision");
  }
  if (dump.devices.size() != 1) refuse("must hold exactly one device line");
  if (dump.devices[0].name != device_name) {
    refuse("is for '" + dump.devices[0].name + "', not '" + device_name + "'");
  }
  Profile profile{file, std::move(dump.devices[0]), std::move(dump.decisions)};
  for (DecisionRecord& d : profile.decisions) {
    if (d.device_uuid != profile.device.uuid) refuse("has a decision for another device");
    d.device_name = device_name;
  }
  return profile;
}

Dump make_profile(const Dump& everything, const std::string& device_name) {
  Dump out;
  const std::string uuid = "model:" + device_name;
  std::map<std::string, const DeviceRecord*> of_model;  // uuid -> device
  for (const DeviceRecord& d : everything.devices) {
    if (d.name != device_name) continue;
    of_model[d.uuid] = &d;
    if (out.devices.empty() || d.first_seen > out.devices[0].first_seen) {
      out.devices = {d};
    }
  }
  if (out.devices.empty()) {
    throw Error(ErrorCode::InvalidArgument, "no device named '" + device_name + "' in the database",
                "see `bigtune db info` for the devices it holds");
  }
  out.devices[0].uuid = uuid;
  out.devices[0].probes.clear();  // probes belong to one card, not the model
  // Newest decision per (op, bucket) across devices of the model.
  std::map<std::tuple<std::string, uint64_t, uint64_t>, DecisionRecord> newest;
  for (const DecisionRecord& d : everything.decisions) {
    if (of_model.count(d.device_uuid) == 0) continue;
    auto key = std::make_tuple(d.op, d.bits.lo, d.count.lo);
    auto it = newest.find(key);
    if (it == newest.end() || d.decided_at > it->second.decided_at) newest[key] = d;
  }
  if (newest.empty()) {
    throw Error(ErrorCode::InvalidArgument, "no decisions for '" + device_name + "' to make a profile of",
                "run `bigtune tune` on that GPU first");
  }
  for (auto& [key, d] : newest) {
    d.device_uuid = uuid;
    d.device_name.clear();
    out.decisions.push_back(std::move(d));
  }
  return out;
}

}  // namespace bigtune::db
