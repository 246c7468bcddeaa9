// Runs with many user bounds ([[bound]] tables, docs/bounds.md): written to the bounds table of
// the result (docs/hdf5-layout.md, "The bounds table"), summarised in time linear in their
// number, read back by `summary`, and heard when a stop is requested while they are checked.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/stop_request.hpp"
#include "runs/bound_check.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/points_table_reader.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

// A cheap point (a tree barrier of 3 ranks, 20 samples) with `count` bounds; bound i (from 1)
// has the value i, and every third is an upper bound.
std::string many_bounds_run(std::size_t count) {
  std::string text = R"(name = "many bounds"
seed = 3
samples = 20
[collective]
kind = "tree_barrier"
tau = 2.0e-6
sampling = "per_level"
w = 1.0e-3
levels = 1
[noise]
law = "exponential"
f = 0.05
)";
  for (std::size_t i = 1; i <= count; ++i)
    text += fmt::format(
        "[[bound]]\nname = \"b{}\"\nrelation = \"{}\"\nexpression = \"collective_N * 0 + {}\"\n", i,
        i % 3 == 0 ? "<=" : ">=", i);
  return text;
}

}  // namespace

TEST_CASE("any number of bounds is written to the bounds table and summarised in full",
          "[bounds][many]") {
  for (const std::size_t count : {std::size_t{1}, std::size_t{145}, std::size_t{10000}}) {
    INFO(count << " bounds");
    const std::string name = fmt::format("many_bounds_{}", count);
    const std::string file = write_text(name + ".toml", many_bounds_run(count));
    const CommandResult r =
        run_command_line("run " + file + " --out " + name + ".h5 --force --quiet");
    INFO(r.output);
    REQUIRE(r.code == 0);

    // The table: a row per bound, the values exactly i; the points table has none of them.
    {
      const PointsTableReader bounds(name + ".h5", "points_bounds");
      REQUIRE(bounds.rows() == count);
      const std::vector<std::string> names = bounds.names();
      CHECK(names == std::vector<std::string>{"point",          "bound",
                                              "name",           "statistic",
                                              "relation",       "value",
                                              "estimate",       "ci_low",
                                              "ci_high",        "ci_method",
                                              "level",          "level_method",
                                              "verdict",        "verdict_adjusted",
                                              "distance",       "unit",
                                              "value_reason",   "estimate_reason",
                                              "ci_low_reason",  "ci_high_reason",
                                              "verdict_reason", "verdict_adjusted_reason",
                                              "distance_reason"});
      const auto values = bounds.numbers("value");
      const auto index = bounds.integers("bound");
      const auto labels = bounds.texts("name");
      const auto units = bounds.texts("unit");
      for (std::size_t i = 0; i < count; ++i) {
        CHECK(values[i] == static_cast<double>(i + 1));
        CHECK(index[i] == static_cast<std::int64_t>(i + 1));
        CHECK(labels[i] == fmt::format("b{}", i + 1));
        CHECK(units[i] == "seconds");
      }
      CHECK(bounds.string_array_attribute("units")[5] == "seconds");  // value
      const PointsTableReader points(name + ".h5");
      const std::regex bound_column("bound_[0-9]+_.*");  // not the model's bound_lower
      for (const std::string& column : points.names())
        CHECK_FALSE(std::regex_match(column, bound_column));
      CHECK(points.column_class("bounds_decided") == H5T_ENUM);
    }

    // `summary --json` holds every bound's fields, as a run with few bounds always did.
    const CommandResult s = run_command_line("summary " + name + ".h5 --json");
    REQUIRE(s.code == 0);
    const nlohmann::ordered_json p = nlohmann::ordered_json::parse(s.output)["points"][0];
    std::size_t named = 0;
    for (const auto& [key, value] : p.items())
      if (key.rfind("bound_", 0) == 0 && key.ends_with("_name")) ++named;
    CHECK(named == count);
    const std::string last = fmt::format("bound_{}_", count);
    CHECK(p[last + "name"] == fmt::format("b{}", count));
    CHECK(p[last + "value"].get<double>() == static_cast<double>(count));
    CHECK(p[last + "relation"] == (count % 3 == 0 ? "<=" : ">="));
    CHECK(p[last + "estimate"].get<double>() == p["mean"].get<double>());
    // The mean is about 1e-3 s, below every bound (1 s and up).
    CHECK(p[last + "verdict"] == (count % 3 == 0 ? "holds" : "violated"));
    CHECK(p["bound_1_verdict"] == "violated");
    CHECK(p["bounds_decided"] == true);
    const nlohmann::json units = nlohmann::json::parse(s.output)["units"];
    CHECK(units[last + "value"] == "seconds");
    // Field order as the run wrote it: the bounds' fields, then bounds_decided.
    std::vector<std::string> keys;
    for (const auto& [key, value] : p.items()) keys.push_back(key);
    REQUIRE(keys.size() > 2);
    CHECK(keys.back() == "bounds_decided");
    CHECK(keys[keys.size() - 2] == last + "distance");
  }
}

TEST_CASE("a stop request is heard while bounds are checked", "[bounds][many]") {
  const RunSpec run = parse_run_text(many_bounds_run(200), "many.toml");
  std::vector<PreparedPoint> points = prepare_points(run);
  REQUIRE(points.size() == 1);
  request_stop(15);
  CHECK_THROWS_AS(check_bounds_apply(run.bounds, points[0], run.path, false), StopRequested);
  clear_stop_request();
  CHECK_NOTHROW(check_bounds_apply(run.bounds, points[0], run.path, false));
}
