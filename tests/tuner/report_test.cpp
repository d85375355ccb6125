// The HTML report: structure checked here (balanced tags, one plot pair per
// op, escaped names), and the page rendered by a headless Chromium when one
// is installed (scripts/setup.sh installs it; the test says so and skips
// otherwise).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <vector>

#include "tuner/report.hpp"

namespace bigtune::tuner {
namespace {

ReportInput sample_input() {
  ReportInput in;
  in.device = "NVIDIA H100 <test>";
  in.generated = "2026-11-22T00:00:00Z";
  for (const char* op : {"add", "mul"})
    for (uint64_t bits : {32768u, 65536u, 100000u}) {
      const double base = bits / 1000.0;
      for (int k = 0; k < 3; ++k) {
        ValidationRow r{op, bits, 4096, std::string(op) + ".v" + std::to_string(k), uint32_t(1 << k),
                        base * (1 + 0.1 * k), base * (1.05 + 0.1 * k), "candidate"};
        in.validation.push_back(r);
        if (k == 0) r.role = "oracle", in.validation.push_back(r);
        if (k == 1) r.role = "chosen", in.validation.push_back(r);
        if (k == 2) r.role = "occupancy_api", in.validation.push_back(r);
      }
    }
  VariantModel m;
  m.variant = "add.v0";
  m.metrics[kMetricInst].f.degrees = Degrees{{1, 0, 0}, {0, 0, 0}};
  m.metrics[kMetricInst].cv_error = 0.001;
  m.time_error = 0.04;
  in.models["add.v0"] = m;
  db::DecisionRecord d;
  d.op = "add";
  d.count = {4096, 8192};
  d.variant = "add.v0";
  d.bits = {1024, 1280};
  in.decisions.push_back(d);
  d.variant = "add.v1";
  d.bits = {1280, 1536};
  in.decisions.push_back(d);
  return in;
}

// Every element closed in order (HTML void elements aside).
std::string unbalanced(const std::string& html) {
  std::vector<std::string> stack;
  const std::regex tag("<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), tag); it != std::sregex_iterator(); ++it) {
    const std::string close = (*it)[1], name = (*it)[2], rest = (*it)[3];
    if (name == "meta" || (!rest.empty() && rest.back() == '/')) continue;
    if (close.empty()) {
      stack.push_back(name);
    } else {
      if (stack.empty() || stack.back() != name) return "unexpected </" + name + ">";
      stack.pop_back();
    }
  }
  return stack.empty() ? "" : "unclosed <" + stack.back() + ">";
}

size_t count_of(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Report, StructureAndContent) {
  const std::string html = render_report(sample_input());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(unbalanced(html), "");
  EXPECT_EQ(count_of(html, "<svg"), 4u);            // two plots per op
  EXPECT_EQ(count_of(html, "class=\"series\""), 2u * 6 + 2 * 2);  // 3 variants x 2 lines per op + 2 ratio lines per op
  EXPECT_NE(html.find("NVIDIA H100 &lt;test&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<test>"), std::string::npos);
  EXPECT_NE(html.find("class=\"x\""), std::string::npos);  // the crossover add.v0 -> add.v1
  EXPECT_EQ(html.find("<script"), std::string::npos);       // self-contained, static
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no external resources
}

TEST(Report, ReadsValidationTsv) {
  std::istringstream in(
      "op\tbits\tcount\tvariant\tipb\tmeasured_us\tpredicted_us\trole\n"
      "add\t32768\t32768\tadd.scan.u64.q8\t2\t120.5\tnan\tcandidate\n");
  const auto rows = read_validation_tsv(in);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].ipb, 2u);
  EXPECT_DOUBLE_EQ(rows[0].measured_us, 120.5);
  EXPECT_TRUE(std::isnan(rows[0].predicted_us));
  std::istringstream bad("add\t1\t2\n");
  EXPECT_THROW(read_validation_tsv(bad), std::invalid_argument);
}

std::string find_browser() {
  for (const char* b : {"chromium", "chromium-browser", "google-chrome"}) {
    const std::string cmd = std::string("command -v ") + b + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) return b;
  }
  return "";
}

TEST(Report, RendersInHeadlessBrowser) {
  const std::string browser = find_browser();
  if (browser.empty()) GTEST_SKIP() << "no headless browser (chromium) installed; scripts/setup.sh installs one";
  const std::string file = ::testing::TempDir() + "bigtune_report_test.html";
  {
    std::ofstream f(file);
    f << render_report(sample_input());
  }
  // --dump-dom prints the DOM after parsing and layout: the SVG elements must
  // be there as elements (a parse error would leave them as text or drop them).
  const std::string cmd = browser + " --headless --no-sandbox --disable-gpu --dump-dom 'file://" + file + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  ASSERT_TRUE(p);
  std::string dom;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p.get())) > 0) dom.append(buf.data(), n);
  ASSERT_FALSE(dom.empty()) << "the browser printed nothing for " << cmd;
  EXPECT_EQ(count_of(dom, "<svg"), 4u);
  EXPECT_EQ(count_of(dom, "class=\"series\""), 16u);
  EXPECT_NE(dom.find("NVIDIA H100 &lt;test&gt;"), std::string::npos);
}

}  // namespace
}  // namespace bigtune::tuner
