// The text form of a tuning database, used by `bigtune db export/import` and
// by the shipped profiles under profiles/ (docs/database.md, "Export format").
//
// Line-based, tab-separated, UTF-8. The first line is the format name and
// version, `bigtune-tuning<TAB>2` (v1 differs only in its bit buckets, which
// a reader moves as the schema v3 migration does). Then one record per line: its kind
// (device, variant, sample, model, decision, history) and its fields in a
// fixed order. `\N` is an empty value (SQL NULL); in text, backslash, tab,
// newline and carriage return are written `\\`, `\t`, `\n`, `\r`. Reals are
// written with 17 significant digits, so export -> import is exact. Lines
// starting with '#' and blank lines are ignored, so a profile can carry notes
// on how it was made. Readers refuse a newer version and unknown kinds.
#pragma once
#include <iosfwd>
#include <string>

#include "db/records.hpp"

namespace bigtune::db {

constexpr int kTextFormatVersion = 2;

// Writes `dump` (all kinds, in Dump's order). Metric names in probes and
// counters must not contain spaces, '=' or control characters.
void write_text(std::ostream& out, const Dump& dump);

// Reads a whole text dump. `origin` names the input in errors ("file:line: ...").
// Throws bigtune::Error (InvalidArgument) on malformed input, with the line.
Dump read_text(std::istream& in, const std::string& origin);

}  // namespace bigtune::db
