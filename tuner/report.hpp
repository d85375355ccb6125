// `bigtune report`: one self-contained HTML page (inline SVG, no scripts, no
// external files) with, per op, predicted vs measured time of every variant
// over the held-out sizes, chosen/oracle ratios, the chosen plan per size
// and its crossovers, and the fit errors of every model.
#pragma once
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "db/records.hpp"
#include "tuner/time_model.hpp"

namespace bigtune::tuner {

// One line of `bigtune validate --out` (TSV with a header line).
struct ValidationRow {
  std::string op;
  uint64_t bits = 0, count = 0;
  std::string variant;
  uint32_t ipb = 1;
  double measured_us = 0, predicted_us = 0;  // NaN when unknown
  std::string role;  // candidate, oracle, chosen, occupancy_api, default
};
// Throws std::invalid_argument naming the line when a line is malformed.
std::vector<ValidationRow> read_validation_tsv(std::istream& in);

struct ReportInput {
  std::string title = "bigtune tuning report";
  std::string device;
  std::string generated;  // timestamp
  std::vector<ValidationRow> validation;
  std::map<std::string, VariantModel> models;
  std::vector<db::DecisionRecord> decisions;
  uint64_t decision_count = uint64_t(1) << 12;  // the batch count whose decisions are tabled
};

std::string render_report(const ReportInput& in);

}  // namespace bigtune::tuner
