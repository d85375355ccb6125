// `bigtune report`: the tuning report as one self-contained HTML page
// (tuner/report.hpp) from the database (models, decisions) and the TSV that
// `bigtune validate --out` wrote. Needs no GPU: --device-uuid picks the
// device (default: the only one, or the newest with models).
#include <fmt/format.h>

#include <fstream>
#include <memory>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"
#include "db/paths.hpp"
#include "db/store.hpp"
#include "tuner/report.hpp"
#include "tuner/select.hpp"

namespace bigtune::cli {
namespace {

struct ReportArgs {
  std::string validation, out = "bigtune-report.html", uuid;
  uint64_t count = 4096;
};

void run_report(const ReportArgs& a) {
  const std::string path = db::resolve_db_path(global_options().db_path);
  db::Store store(path, db::StoreOptions{db::OpenMode::ReadOnly});
  tuner::ReportInput in;
  std::string uuid = a.uuid;
  const auto models = store.models();
  if (uuid.empty() && !models.empty()) uuid = models.back().device_uuid;
  for (const db::DeviceRecord& d : store.devices())
    if (d.uuid == uuid) in.device = d.name + " (" + d.uuid + ")";
  if (uuid.empty()) throw Error(ErrorCode::InvalidArgument, "no tuner models in " + path, "run `bigtune tune` first");
  in.models = tuner::from_records(models, uuid);
  for (db::DecisionRecord& d : store.decisions())
    if (d.device_uuid == uuid) in.decisions.push_back(std::move(d));
  if (!a.validation.empty()) {
    std::ifstream f(a.validation);
    if (!f) throw Error(ErrorCode::InvalidArgument, "cannot read " + a.validation);
    try {
      in.validation = tuner::read_validation_tsv(f);
    } catch (const std::invalid_argument& e) {
      throw Error(ErrorCode::InvalidArgument, a.validation + ": " + e.what(), "write it with `bigtune validate --out`");
    }
  }
  in.decision_count = a.count;
  in.generated = db::utc_timestamp();
  std::ofstream out(a.out);
  out << tuner::render_report(in);
  if (!out) throw Error(ErrorCode::InvalidArgument, "cannot write " + a.out);
  std::fprintf(stderr, "wrote %s (%zu models, %zu decisions, %zu validation rows)\n", a.out.c_str(), in.models.size(),
               in.decisions.size(), in.validation.size());
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto a = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand("report", "Write the tuning report (HTML with SVG plots)");
  cmd->add_option("--validation", a->validation, "TSV from `bigtune validate --out`");
  cmd->add_option("-o,--out", a->out, "HTML file to write")->capture_default_str();
  cmd->add_option("--device-uuid", a->uuid, "Device whose models to show (default: the newest)");
  cmd->add_option("--count", a->count, "Batch count whose stored decisions are tabled")->capture_default_str();
  cmd->callback([a] { run_report(*a); });
}

}  // namespace bigtune::cli
