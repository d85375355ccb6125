// `bigtune db info|check|export|import|vacuum`: look after the tuning
// database (docs/database.md). Export and import use the text format of
// db/text_format.hpp; `export --profile NAME` writes a shipped profile.
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "bigtune/error.hpp"
#include "cli/commands.hpp"
#include "cli/json_quote.hpp"
#include "db/migrations.hpp"
#include "db/paths.hpp"
#include "db/profiles.hpp"
#include "db/store.hpp"
#include "db/text_format.hpp"

namespace bigtune::cli {
namespace {

db::Store open_store() { return db::Store(db::resolve_db_path(global_options().db_path)); }

void print_info_json(const db::StoreInfo& info, const std::vector<db::DeviceRecord>& devices,
                     const std::vector<db::DecisionRecord>& decisions) {
  fmt::print("{{\"path\":{},\"schema_version\":{},\"found_version\":{},\"file_bytes\":{},"
             "\"wal_bytes\":{},\"journal_mode\":{},\"rows\":{{",
             json_quote(info.path), info.schema_version, info.found_version, info.file_bytes,
             info.wal_bytes, json_quote(info.journal_mode));
  bool first = true;
  for (const auto& [table, n] : info.row_counts) {
    fmt::print("{}{}:{}", first ? "" : ",", json_quote(table), n);
    first = false;
  }
  fmt::print("}},\"devices\":[");
  first = true;
  for (const db::DeviceRecord& d : devices) {
    size_t n = 0;
    for (const auto& dec : decisions) n += dec.device_uuid == d.uuid;
    fmt::print("{}{{\"uuid\":{},\"name\":{},\"cc\":\"{}.{}\",\"sm_count\":{},\"decisions\":{},"
               "\"first_seen\":{}}}",
               first ? "" : ",", json_quote(d.uuid), json_quote(d.name), d.cc_major, d.cc_minor,
               d.sm_count, n, json_quote(d.first_seen));
    first = false;
  }
  fmt::print("]}}\n");
}

void run_info() {
  db::Store store = open_store();
  const db::StoreInfo info = store.info();
  if (global_options().json) {
    print_info_json(info, store.devices(), store.decisions());
    return;
  }
  fmt::print("database:  {}\n", info.path);
  fmt::print("schema:    v{}", info.schema_version);
  if (info.found_version != info.schema_version) {
    fmt::print(info.found_version == 0 ? " (created now)" : " (migrated now from v{})",
               info.found_version);
  }
  fmt::print("\nsize:      {} bytes + {} in the write-ahead log ({} pages of {}, {} free), "
             "journal {}\n", info.file_bytes, info.wal_bytes, info.page_count, info.page_size,
             info.freelist_count, info.journal_mode);
  std::string rows;
  for (const auto& [table, n] : info.row_counts) {
    rows += fmt::format("{}{} {}", rows.empty() ? "" : ", ", table, n);
  }
  fmt::print("rows:      {}\n", rows);
  const auto devices = store.devices();
  if (devices.empty()) {
    fmt::print("devices:   none yet (run `bigtune tune`, or `bigtune db import FILE`)\n");
  }
  const auto decisions = store.decisions();
  for (const db::DeviceRecord& d : devices) {
    size_t n = 0;
    for (const auto& dec : decisions) n += dec.device_uuid == d.uuid;
    fmt::print("device:    {} [{}] sm_{}{}, {} SMs, {} decisions, first seen {}\n", d.name, d.uuid,
               d.cc_major, d.cc_minor, d.sm_count, n, d.first_seen);
  }
}

void run_check() {
  db::Store store = open_store();
  const auto problems = store.check();
  if (problems.empty()) {
    fmt::print("ok: {} (schema v{}, integrity and foreign keys checked)\n", store.path(),
               db::kSchemaVersion);
    return;
  }
  for (const std::string& p : problems) fmt::print("problem: {}\n", p);
  throw Error(ErrorCode::Database,
              fmt::format("tuning database {} has {} problem(s)", store.path(), problems.size()),
              "export what can be read (`bigtune db export -o saved.tsv`), move the file aside "
              "and import the export into a new one");
}

struct ExportArgs {
  std::string output;
  std::string profile;
  bool force = false;
};

void run_export(const ExportArgs& args) {
  db::Store store = open_store();
  db::Dump dump = store.dump();
  if (!args.profile.empty()) dump = db::make_profile(dump, args.profile);
  if (args.output.empty() || args.output == "-") {
    db::write_text(std::cout, dump);
    std::cout.flush();
    return;
  }
  if (std::filesystem::exists(args.output) && !args.force) {
    throw Error(ErrorCode::InvalidArgument, args.output + " already exists",
                "choose another name, or pass --force to replace it");
  }
  // Write beside the target, then rename: a failed export never leaves half a file.
  const std::string partial = args.output + ".partial";
  try {
    std::ofstream out(partial, std::ios::trunc);
    db::write_text(out, dump);
    if (!out.flush()) {
      throw Error(ErrorCode::InvalidArgument, "cannot write " + partial,
                  "check the folder and free space");
    }
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw;
  }
  std::filesystem::rename(partial, args.output);
  fmt::print(stderr, "exported {} devices, {} variants, {} samples, {} models, {} decisions, {} "
             "history rows to {}\n", dump.devices.size(), dump.variants.size(),
             dump.samples.size(), dump.models.size(), dump.decisions.size(), dump.history.size(),
             args.output);
}

void run_import(const std::string& file) {
  std::ifstream in(file);
  if (!in) {
    throw Error(ErrorCode::InvalidArgument, "cannot read " + file, "check the path");
  }
  const db::Dump dump = db::read_text(in, file);
  db::Store store = open_store();
  store.load(dump);  // one transaction: all or nothing
  fmt::print("imported {} devices, {} variants, {} samples, {} models, {} decisions, {} history "
             "rows from {} into {}\n", dump.devices.size(), dump.variants.size(),
             dump.samples.size(), dump.models.size(), dump.decisions.size(),
             dump.history.size(), file, store.path());
}

void run_vacuum() {
  db::Store store = open_store();
  const int64_t before = store.info().file_bytes;
  store.vacuum();
  fmt::print("vacuumed {}: {} -> {} bytes\n", store.path(), before, store.info().file_bytes);
}

}  // namespace

void add_db_command(CLI::App& app) {
  CLI::App* db = app.add_subcommand("db", "Inspect and maintain the tuning database "
                                          "(schema: docs/database.md)");
  db->require_subcommand(1);
  db->add_subcommand("info", "Path, schema version, size, row counts and devices")
      ->callback(run_info);
  db->add_subcommand("check", "Integrity and foreign-key check (fails, with a non-zero exit code, on problems)")
      ->callback(run_check);

  auto export_args = std::make_shared<ExportArgs>();
  CLI::App* exp = db->add_subcommand("export", "Write the database as text (to move tuning "
                                               "between machines)");
  exp->add_option("-o,--output", export_args->output, "file to write (default: standard output)");
  exp->add_option("--profile", export_args->profile,
                  "write only a shipped profile for this GPU model (see docs/database.md)");
  exp->add_flag("--force", export_args->force, "replace an existing output file");
  exp->callback([export_args] { run_export(*export_args); });

  auto import_file = std::make_shared<std::string>();
  CLI::App* imp = db->add_subcommand("import", "Add an export (or a profile) to the database, "
                                               "in one transaction");
  imp->add_option("file", *import_file, "a file written by `bigtune db export`")
      ->required()->check(CLI::ExistingFile);
  imp->callback([import_file] { run_import(*import_file); });

  db->add_subcommand("vacuum", "Compact the file and truncate its write-ahead log")
      ->callback(run_vacuum);
}

}  // namespace bigtune::cli
