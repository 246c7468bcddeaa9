// The run-file and output layers know no model: the size keys that replace one another, the
// mixture's array of component tables and the parameters the summary table always shows are
// declared by the models and laws (KeySpec::alternatives, short_form, table_array;
// PlotHints::table_params), and runs/ and outputs/ only read those declarations.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "engine/study.hpp"
#include "outputs/summary_report.hpp"
#include "runs/point_factory.hpp"
#include "runs/presentation.hpp"
#include "runs/run_file.hpp"

using namespace collnoise;

namespace {

const char* kTreeWithN = R"(name = "neutral"
seed = 7
samples = 10
[collective]
kind = "tree_barrier"
w = 1.0e-3
N = 15
[noise]
law = "exponential"
f = 0.1
)";

std::string with(const std::string& base, const std::string& more) {
  return base + more;
}

std::string refusal(const std::string& text) {
  try {
    parse_run_text(text, "neutral.toml", std::nullopt);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

// The text with its // comments taken out (string literals holding "//" are not in these files'
// way: a comment starts at the first // of a line outside a string).
std::string code_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, code;
  while (std::getline(in, line)) {
    bool in_string = false;
    std::size_t cut = line.size();
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
      if (line[i] == '"' && (i == 0 || line[i - 1] != '\\')) in_string = !in_string;
      if (!in_string && line[i] == '/' && line[i + 1] == '/') {
        cut = i;
        break;
      }
    }
    code += line.substr(0, cut) + "\n";
  }
  return code;
}

}  // namespace

TEST_CASE("A sweep over log2_N replaces the N the collective table gives", "[model_neutral]") {
  for (const std::string axis : {"log2_N", "collective.log2_N"}) {
    INFO(axis);
    const RunSpec run = parse_run_text(with(kTreeWithN, "[sweep]\n" + axis + " = [3, 4]\n"),
                                       "neutral.toml", std::nullopt);
    REQUIRE(run.points.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      const ParamMap& p = run.points[i].params;
      CHECK(!p.contains("collective.N"));
      REQUIRE(p.contains("collective.log2_N"));
      CHECK(std::get<std::int64_t>(p.at("collective.log2_N")) == static_cast<std::int64_t>(3 + i));
    }
    // The point is prepared with the swept size alone (two sizes would be refused).
    const PreparedPoint point = prepare_point(run, run.points[1]);
    CHECK(std::get<std::string>(*point.params.find("collective.N_string")) == "16");
  }
}

TEST_CASE("A case's levels replace the N and log2_N given before it", "[model_neutral]") {
  const RunSpec run = parse_run_text(
      with(kTreeWithN,
           "[[case]]\nlevels = 3\n[[case]]\ncollective.log2_N = 5\n[sweep]\ncollective.w = "
           "[1.0e-3]\n"),
      "neutral.toml", std::nullopt);
  REQUIRE(run.points.size() == 2);
  CHECK(!run.points[0].params.contains("collective.N"));
  CHECK(std::get<std::int64_t>(run.points[0].params.at("collective.levels")) == 3);
  CHECK(!run.points[1].params.contains("collective.N"));
  CHECK(!run.points[1].params.contains("collective.levels"));
  CHECK(std::get<std::int64_t>(run.points[1].params.at("collective.log2_N")) == 5);
}

TEST_CASE("A mixture's component tables become keys of their own", "[model_neutral]") {
  const std::string mixture = R"(name = "neutral-mixture"
seed = 7
samples = 10
[collective]
kind = "tree_barrier"
w = 1.0e-3
N = 15
[noise]
law = "mixture"
f = 0.1
[[noise.components]]
law = "exponential"
weight = 0.75
[[noise.components]]
law = "pareto"
a = 2.5
weight = 0.25
)";
  const RunSpec run = parse_run_text(mixture, "neutral.toml", std::nullopt);
  REQUIRE(run.points.size() == 1);
  const ParamMap& p = run.points[0].params;
  CHECK(std::get<std::string>(p.at("noise.components[0].law")) == "exponential");
  CHECK(std::get<double>(p.at("noise.components[0].weight")) == 0.75);
  CHECK(std::get<std::string>(p.at("noise.components[1].law")) == "pareto");
  CHECK(std::get<double>(p.at("noise.components[1].a")) == 2.5);
  CHECK(!p.contains("noise.components"));
  CHECK(run.points[0].table_arrays.empty());
  // The mixture reads them: the point records the components as one line.
  const PreparedPoint point = prepare_point(run, run.points[0]);
  CHECK(std::get<std::string>(*point.params.find("noise.components")) ==
        "exponential weight=0.75;pareto a=2.5 weight=0.25;");
  // The same messages as when the run-file layer named the key itself.
  CHECK(refusal(with(kTreeWithN, "components = 3\n")) ==
        "neutral.toml:11: noise.components must be an array of tables");
  CHECK(refusal(with(kTreeWithN, "components = [1]\n")) ==
        "neutral.toml:11: noise.components[0] must be a table");
  CHECK(refusal(with(kTreeWithN, "[sweep]\n\"noise.components\" = [1]\n")) ==
        "neutral.toml:12: [sweep] key 'noise.components' is not a sweepable parameter");
}

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

TEST_CASE("runs/ and outputs/ name no model key in their code", "[model_neutral]") {
  // Comments may name keys as examples; the code reads the models' declarations instead. The
  // reference pages (runs/reference_docs.cpp) are prose about the keys, written out as docs.
  const std::string root = COLLNOISE_SOURCE_DIR;
  std::size_t files = 0;
  for (const std::string dir : {"runs", "outputs"})
    for (const auto& entry : std::filesystem::directory_iterator(root + "/" + dir)) {
      const std::string name = entry.path().filename().string();
      const std::string ext = entry.path().extension().string();
      if ((ext != ".cpp" && ext != ".hpp") || name == "reference_docs.cpp") continue;
      ++files;
      const std::string code = code_of(entry.path().string());
      for (const char* word :
           {"collective.N", "log2_N", "\"levels\"", "noise.components", "noise.law\"",
            "\"collective\"", "\"noise\"", "\"tree_barrier\"", "collective.kind"}) {
        INFO(dir + "/" + name + " names " + word);
        CHECK(code.find(word) == std::string::npos);
      }
    }
  CHECK(files > 20);
}
