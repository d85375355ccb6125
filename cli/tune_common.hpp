// What bigtune tune, validate and report share: the build id samples and
// models are keyed by, the device model from a probe, op lists.
#pragma once
#include <string>
#include <vector>

#include "cli/device_record.hpp"
#include "db/records.hpp"
#include "kernels/registry.hpp"
#include "profiler/device_probe.hpp"
#include "tuner/time_model.hpp"

namespace bigtune::cli {

// Identifies the kernels measured: a hash of the registry (names, limbs, Q,
// launch bounds) and the build date, so that a rebuilt library re-samples.
std::string tuner_build_id();

// The device model from a probe's properties and (when benchmarked) rates.
tuner::DeviceModel device_model_from_probe(const profiler::DeviceProbe& p);
// The rates stored with the device (bigtune probe/tune) fill what a
// properties-only probe lacks.
void apply_stored_rates(tuner::DeviceModel& m, const db::DeviceRecord& d);

// "add,mul" -> ops; empty or "all": every op with variants in the registry
// that the tuner's batches support.
std::vector<kernels::Op> parse_op_list(const std::string& text);

}  // namespace bigtune::cli
