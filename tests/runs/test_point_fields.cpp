// The fields every point carries (runs/point_fields.hpp): written once, after the model's own,
// for every model, and the same in a merged result as in an unsplit run.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/fixtures/command_line.hpp"

namespace {

using namespace collnoise::testing;

// The keys of the first point of `summary --json`, in order.
std::vector<std::string> point_keys(const std::string& json) {
  std::vector<std::string> keys;
  const auto points = json.find("\"points\"");
  REQUIRE(points != std::string::npos);
  const auto end = json.find("\n    }", points);  // the first point's closing brace
  for (auto at = json.find("\n      \"", points); at < end; at = json.find("\n      \"", at + 1)) {
    const auto open = at + 7;
    keys.push_back(json.substr(open + 1, json.find('"', open + 1) - open - 1));
  }
  return keys;
}

std::string summary_of(const std::string& name, const std::string& run_file) {
  write_text("pf_" + name + ".toml", run_file);
  const auto run = run_command_line("run pf_" + name + ".toml --out pf_" + name +
                                    ".h5 --force --quiet --no-checkpoint --threads 1");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto summary = run_command_line("summary pf_" + name + ".h5 --json");
  REQUIRE(summary.code == 0);
  return summary.output;
}

// The shared fields close every point: `confidence` then `warnings`, then what follows them.
void expect_shared_tail(const std::vector<std::string>& keys,
                        const std::vector<std::string>& tail) {
  REQUIRE(keys.size() > tail.size());
  const std::vector<std::string> last(keys.end() - static_cast<long>(tail.size()), keys.end());
  CHECK(last == tail);
}

const char* kTree = R"(name = "shared-tree"
seed = 3
samples = 400
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
N = 63
[noise]
law = "exponential"
f = 0.1
)";

}  // namespace

TEST_CASE("point fields: confidence and warnings close a sampled point's summary") {
  const auto keys = point_keys(summary_of("tree", kTree));
  INFO(keys.size() << " keys");
  expect_shared_tail(keys, {"confidence", "warnings"});
}

TEST_CASE("point fields: the precision results follow the shared fields") {
  const std::string run =
      replace_text(replace_text(kTree, "samples = 400\n", ""), "[collective]",
                   "[precision]\nmean_relative_half_width = 0.05\nmin_samples = 200\n"
                   "max_samples = 4000\n[collective]");
  const auto keys = point_keys(summary_of("precise", run));
  const auto confidence = std::find(keys.begin(), keys.end(), "confidence");
  REQUIRE(confidence != keys.end());
  REQUIRE(confidence + 1 != keys.end());
  CHECK(*(confidence + 1) == "warnings");
  CHECK(*(confidence + 2) == "precision_met");
  CHECK(keys.back() == "precision_mean_achieved");
}

TEST_CASE("point fields: an N_1/2 point has warnings and no run confidence") {
  const auto keys = point_keys(summary_of("nhalf", R"(name = "shared-nhalf"
kind = "nhalf"
seed = 4
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_level"
[nhalf]
check_samples = 200
check_confidence = 0.99
[noise]
law = "exponential"
f = 0.01
)"));
  CHECK(keys.back() == "warnings");
  CHECK(std::find(keys.begin(), keys.end(), "confidence") == keys.end());
  CHECK(std::find(keys.begin(), keys.end(), "check_confidence") != keys.end());
}

TEST_CASE("point fields: a merged result carries the shared fields an unsplit run writes") {
  write_text("pf_parts.toml",
             replace_text(kTree, "samples = 400", "samples = 400\nchunk_size = 100"));
  const std::string common = " --force --quiet --no-checkpoint --threads 1";
  REQUIRE(run_command_line("run pf_parts.toml --out pf_whole.h5" + common).code == 0);
  for (const std::string part : {"1", "2"})
    REQUIRE(run_command_line("run pf_parts.toml --part " + part + "/2 --out pf_part" + part +
                             ".h5" + common)
                .code == 0);
  REQUIRE(
      run_command_line("merge pf_part1.h5 pf_part2.h5 --out pf_merged.h5 --force --quiet").code ==
      0);
  const auto whole = point_keys(run_command_line("summary pf_whole.h5 --json").output);
  const auto merged = point_keys(run_command_line("summary pf_merged.h5 --json").output);
  CHECK(merged == whole);
  expect_shared_tail(merged, {"confidence", "warnings"});
}
