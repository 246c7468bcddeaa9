// The summary table (outputs/summary_report.hpp) shows the parameters the models declare
// (PlotHints::table_params) though every point has the same, and otherwise only what varies.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/study.hpp"
#include "outputs/summary_report.hpp"
#include "runs/point_factory.hpp"
#include "runs/presentation.hpp"
#include "runs/run_file.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise;

namespace {

const std::string kTreeWithN = testing::tiny_tree_run("neutral");

std::string with(const std::string& base, const std::string& more) {
  return base + more;
}

}  // namespace

TEST_CASE("The summary table shows N and the law though every point has the same",
          "[model_neutral][outputs]") {
  const RunSpec run = parse_run_text(with(kTreeWithN, "[sweep]\ncollective.w = [1.0e-3, 2.0e-3]\n"),
                                     "neutral.toml", std::nullopt);
  std::vector<PointResult> results;
  for (const PreparedPoint& point : prepare_points(run))
    results.push_back(point_result(point, Record{}, nullptr, 0));
  REQUIRE(results.size() == 2);
  CHECK(results[0].table_params == "collective.N\nnoise.law\n");
  const auto header_words = [](const std::string& table) {
    std::istringstream words(table.substr(0, table.find('\n')));
    std::vector<std::string> columns;
    for (std::string w; words >> w;) columns.push_back(w);
    return columns;
  };
  const auto shows = [](const std::vector<std::string>& columns, const std::string& word) {
    return std::find(columns.begin(), columns.end(), word) != columns.end();
  };
  const std::string table = summary_table(results);
  INFO(table);
  const std::vector<std::string> columns = header_words(table);
  CHECK(shows(columns, "N"));
  CHECK(shows(columns, "law"));
  CHECK(shows(columns, "w"));
  // Without the model's list only what varies is shown.
  std::vector<Record> params, summaries;
  for (const auto& r : results) {
    params.push_back(r.params);
    summaries.push_back(r.summary);
  }
  const std::string bare = summary_table(params, summaries, results[0].table_columns, "");
  INFO(bare);
  const std::vector<std::string> bare_columns = header_words(bare);
  CHECK(!shows(bare_columns, "N"));
  CHECK(!shows(bare_columns, "law"));
  CHECK(shows(bare_columns, "w"));
}
