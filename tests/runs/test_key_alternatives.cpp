// Keys that replace one another, declared by the models and laws (KeySpec::alternatives,
// short_form, table_array), read by the run-file layer, which knows no model: a swept log2_N or a
// case's levels replace the N given before them, and a mixture's array of component tables
// becomes keys of their own.
#include <catch2/catch.hpp>
#include <string>

#include "core/errors.hpp"
#include "engine/study.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise;

namespace {

const std::string kTreeWithN = testing::tiny_tree_run("neutral");

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
