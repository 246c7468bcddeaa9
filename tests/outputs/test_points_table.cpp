// Result files as tables and documents: units beside every quantity, the points table
// (one row per point, read back here with the HDF5 C API alone), and `summary --json` built with
// nlohmann-json holding the same keys and values as the hand-written output before it.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "outputs/hdf5.hpp"
#include "outputs/points_table.hpp"
#include "outputs/result_file.hpp"
#include "outputs/summary_report.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/points_table_reader.hpp"

using namespace collnoise;
using collnoise::testing::PointsTableReader;

namespace {

// Three points of two made-up kinds with different fields: the table is their union.
std::vector<PointResult> made_up_points(std::vector<Record>& params,
                                        std::vector<Record>& summaries) {
  params.assign(3, Record{});
  summaries.assign(3, Record{});
  params[0].set("x", Field(1.5));
  params[0].set_unit("x", "seconds");
  params[0].set("n", Field(std::int64_t{4}));
  params[0].set("name", Field(std::string("foo")));
  params[0].set("list", Field(series_of({1.0, 2.5})));
  summaries[0].set("mean", Field(2.5));
  summaries[0].set("ok", Field(true));
  summaries[0].set("count", Field(std::uint64_t{10}));
  summaries[0].set("curve", Field(series_of({1.0, 2.0, 3.0})));
  summaries[0].set("gone", Field(Null{"does not exist here"}));
  summaries[0].set_unit({"mean", "gone"}, "seconds");
  summaries[0].set_unit("never_written", "bytes");

  params[1].set("x", Field(2.5));
  params[1].set_unit("x", "seconds");
  params[1].set("n", Field(std::int64_t{5}));
  params[1].set("extra", Field(std::string("bar")));
  summaries[1].set("mean", Field(3.5));
  summaries[1].set_unit("mean", "bytes");  // another model's field of the same name
  summaries[1].set("ok", Field(false));
  summaries[1].set("count", Field(std::uint64_t{11}));
  summaries[1].set("other", Field(7.0));
  summaries[1].set("point", Field(1.0));  // a name the table's own column holds

  params[2].set("x", Field(3.5));
  params[2].set("n", Field(6.0));  // a double where the others hold integers
  summaries[2].set("mean", Field(Null{"no samples"}));
  summaries[2].set("ok", Field(true));

  std::vector<PointResult> points(3);
  const char* kinds[] = {"alpha", "beta", "alpha"};
  for (std::size_t i = 0; i < 3; ++i) {
    points[i].kind = kinds[i];
    points[i].params = params[i];
    points[i].summary = summaries[i];
  }
  return points;
}

void write_made_up(const std::string& path) {
  std::vector<Record> params, summaries;
  const auto points = made_up_points(params, summaries);
  RunIdentity run{.name = "table", .run_kind = "sample", .seed = 1, .samples = 2};
  write_result_file(path, run, RunInfo{.kind = "mixed"}, points);
}

bool is_nan(double x) {
  return std::isnan(x);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const char* kMixedRun = R"(name = "mixed"
seed = 3
samples = 200
[[case]]
"collective.kind" = "tree_barrier"
"collective.N" = 7
"collective.w" = 1.0e-3
"collective.tau" = 1.0e-6
"noise.law" = "exponential"
"noise.f" = 0.01
[[case]]
"collective.kind" = "tree_barrier"
"collective.N" = 15
"collective.w" = 1.0e-3
"collective.tau" = 1.0e-6
"noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 2.5e-5
[[case]]
"collective.kind" = "schedule"
"collective.algorithm" = "dissemination_barrier"
"collective.log2_N" = 3
"collective.message_bytes" = 8
"loggops.L" = 1.0e-6
"loggops.o" = 1.0e-9
"loggops.g" = 0.0
"loggops.G" = 1.0e-9
"noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 2.5e-5
)";

}  // namespace

TEST_CASE("the points table: one row per point, the union of their fields, units per column",
          "[outputs]") {
  write_made_up("made_up.h5");
  const PointsTableReader table("made_up.h5");
  REQUIRE(table.rows() == 3);
  // Parameters, then scalar summary fields, each in the order first written; lists of the
  // summary are curves, not columns; a taken name gets its source as a prefix.
  CHECK(table.names() == std::vector<std::string>{"point", "kind", "x", "n", "name", "list",
                                                  "extra", "mean", "ok", "count", "gone", "other",
                                                  "summary.point"});
  CHECK(table.integers("point") == std::vector<std::int64_t>{0, 1, 2});
  CHECK(table.texts("kind") == std::vector<std::string>{"alpha", "beta", "alpha"});
  CHECK(table.column_class("x") == H5T_FLOAT);
  CHECK(table.numbers("x") == std::vector<double>{1.5, 2.5, 3.5});
  // Integers and a double: float64.
  CHECK(table.column_class("n") == H5T_FLOAT);
  CHECK(table.numbers("n") == std::vector<double>{4.0, 5.0, 6.0});
  // Text, absent as empty; a parameter's list as text.
  CHECK(table.texts("name") == std::vector<std::string>{"foo", "", ""});
  CHECK(table.texts("extra") == std::vector<std::string>{"", "bar", ""});
  CHECK(table.texts("list") == std::vector<std::string>{"[1, 2.5]", "", ""});
  // A null is NaN.
  const auto mean = table.numbers("mean");
  CHECK(mean[0] == 2.5);
  CHECK(mean[1] == 3.5);
  CHECK(is_nan(mean[2]));
  // Booleans in every row: the enum h5py reads as bool.
  CHECK(table.column_class("ok") == H5T_ENUM);
  CHECK(table.booleans("ok") == std::vector<std::int8_t>{1, 0, 1});
  // Unsigned counts with a gap: float64 with NaN.
  CHECK(table.column_class("count") == H5T_FLOAT);
  const auto count = table.numbers("count");
  CHECK((count[0] == 10.0 && count[1] == 11.0 && is_nan(count[2])));
  const auto gone = table.numbers("gone");
  CHECK((is_nan(gone[0]) && is_nan(gone[1]) && is_nan(gone[2])));
  CHECK(table.numbers("summary.point")[1] == 1.0);

  const auto units = table.string_array_attribute("units");
  const auto sources = table.string_array_attribute("sources");
  REQUIRE(units.size() == table.names().size());
  REQUIRE(sources.size() == table.names().size());
  CHECK(units == std::vector<std::string>{"", "", "seconds", "", "", "", "", "seconds | bytes", "",
                                          "", "seconds", "", ""});
  CHECK(sources == std::vector<std::string>{"point", "point", "params", "params", "params",
                                            "params", "params", "summary", "summary", "summary",
                                            "summary", "summary", "summary"});
}

TEST_CASE("units are written beside their values and read back as units, not fields", "[outputs]") {
  write_made_up("units.h5");
  const ResultFile file = read_result_file("units.h5");
  REQUIRE(file.params.size() == 3);
  CHECK(file.params[0].unit_of("x") == "seconds");
  CHECK(file.params[0].find("x_units") == nullptr);
  CHECK(file.params[2].unit_of("x").empty());
  CHECK(file.summaries[0].unit_of("mean") == "seconds");
  CHECK(file.summaries[1].unit_of("mean") == "bytes");
  // A null's unit stands beside its reason; a unit declared for a field not written is not.
  CHECK(file.summaries[0].unit_of("gone") == "seconds");
  CHECK(std::holds_alternative<Null>(*file.summaries[0].find("gone")));
  CHECK(file.summaries[0].unit_of("never_written").empty());
  CHECK(file.root.unit_of("wall_time_s") == "seconds");

  // "<key>_units" with no <key> beside it is a field of its own (a tally's metric_units).
  auto out = h5::File::create();
  Record r;
  r.set("metric_units", Field(std::string("seconds,1")));
  r.set("mean_units", Field(3.0));  // not text: a field
  r.set("mean", Field(1.0));
  out.root().write_record(r);
  out.commit("plain.h5");
  const Record back = h5::File::open("plain.h5").root().read_record();
  CHECK(back.find("metric_units") != nullptr);
  CHECK(back.find("mean_units") != nullptr);
  CHECK(back.unit_of("mean").empty());
}

TEST_CASE("a run's points table holds its points' parameters and summaries with their units",
          "[outputs][cli]") {
  using collnoise::testing::run_command_line;
  collnoise::testing::write_text("table_mixed.toml", kMixedRun);
  const auto run = run_command_line("run table_mixed.toml --out table_mixed.h5 --force --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  CHECK(run_command_line("verify table_mixed.h5").code == 0);

  const ResultFile file = read_result_file("table_mixed.h5");
  const PointsTableReader table("table_mixed.h5");
  REQUIRE(table.rows() == file.params.size());
  REQUIRE(table.rows() == 3);
  const auto names = table.names();
  const auto units = table.string_array_attribute("units");
  const auto unit_of = [&](const std::string& column) {
    const auto at = std::find(names.begin(), names.end(), column);
    REQUIRE(at != names.end());
    return units.at(static_cast<std::size_t>(at - names.begin()));
  };
  // A column's values are the points' parameters and summary fields.
  const auto n = table.numbers("collective.N");
  const auto w = table.numbers("collective.w");
  const auto mean = table.numbers("mean");
  const auto completion = table.numbers("completion_mean");
  for (std::size_t i = 0; i < 3; ++i) {
    const Field* given_n = file.params[i].find("collective.N");
    REQUIRE(given_n);
    CHECK(n[i] == (std::holds_alternative<double>(*given_n)
                       ? std::get<double>(*given_n)
                       : static_cast<double>(std::get<std::int64_t>(*given_n))));
    if (const Field* f = file.summaries[i].find("mean"))
      CHECK(mean[i] == std::get<double>(*f));
    else
      CHECK(is_nan(mean[i]));
    CHECK(is_nan(completion[i]) == (file.summaries[i].find("completion_mean") == nullptr));
  }
  CHECK(n == std::vector<double>{7.0, 15.0, 8.0});
  CHECK((w[0] == 1.0e-3 && w[1] == 1.0e-3 && is_nan(w[2])));
  CHECK(table.texts("kind") ==
        std::vector<std::string>{"tree_barrier", "tree_barrier", "schedule"});
  CHECK(table.texts("noise.law") ==
        std::vector<std::string>{"exponential", "periodic", "periodic"});
  // Units from the key declarations and the models' summaries.
  CHECK(unit_of("collective.w") == "seconds");
  CHECK(unit_of("collective.message_bytes") == "bytes");
  CHECK(unit_of("loggops.G") == "seconds per byte");
  CHECK(unit_of("mean") == "seconds");
  CHECK(unit_of("completion_ci_high") == "seconds");
  CHECK(unit_of("p99") == "seconds");
  CHECK(unit_of("samples").empty());
  CHECK(unit_of("z_score").empty());
  // Lists of the summary are no columns (the timed tree's phase-time curve).
  CHECK(std::find(names.begin(), names.end(), "phase_time_means") == names.end());
}

TEST_CASE("the points table of merged parts is the unsplit run's, bit for bit", "[outputs][cli]") {
  using collnoise::testing::run_command_line;
  collnoise::testing::write_text("table_split.toml", kMixedRun);
  REQUIRE(run_command_line("run table_split.toml --out whole.h5 --force --quiet").code == 0);
  for (int i = 1; i <= 2; ++i)
    REQUIRE(run_command_line("run table_split.toml --part " + std::to_string(i) +
                             "/2 --out table_part" + std::to_string(i) + ".h5 --force --quiet")
                .code == 0);
  const auto merged =
      run_command_line("merge table_part2.h5 table_part1.h5 --out table_merged.h5 --force --quiet");
  INFO(merged.output);
  REQUIRE(merged.code == 0);
  CHECK(PointsTableReader("table_merged.h5").bytes() == PointsTableReader("whole.h5").bytes());
}

TEST_CASE("summary --json through nlohmann-json: the keys and values of the hand-written output",
          "[outputs]") {
  // The output of the hand-written writer (collnoise before this change) on two result files: a
  // file of format 2 before seals, and an isoefficiency curve with lists holding nulls.
  for (const std::string name : {"old-format-645c846", "isoefficiency-8ed3981"}) {
    INFO(name);
    const std::string data = std::string(COLLNOISE_SOURCE_DIR) + "/tests/fixtures/data/" + name;
    const ResultFile file = read_result_file(data + ".h5", {h5::Verify::kNo, {}});
    const std::string text = summary_json(file.root, file.params, file.summaries);
    auto now = nlohmann::ordered_json::parse(text);
    const auto before = nlohmann::ordered_json::parse(read_text(data + ".summary.json"));
    // Files written before units have none; the units object is the one key added, last.
    REQUIRE(now.contains("units"));
    CHECK(now.back() == nlohmann::ordered_json::object());
    now.erase("units");
    CHECK(now == before);  // the same keys in the same order, numbers to the last bit
    CHECK(text.find("NaN") == std::string::npos);
  }
}

TEST_CASE("summary --json of a fresh result lists the units of its parameters and fields",
          "[outputs][cli]") {
  using collnoise::testing::run_command_line;
  collnoise::testing::write_text("json_units.toml", kMixedRun);
  REQUIRE(run_command_line("run json_units.toml --out json_units.h5 --force --quiet").code == 0);
  const ResultFile file = read_result_file("json_units.h5");
  const auto json =
      nlohmann::ordered_json::parse(summary_json(file.root, file.params, file.summaries));
  REQUIRE(json["points"].size() == 3);
  const auto& units = json["units"];
  CHECK(units["collective.w"] == "seconds");
  CHECK(units["collective.message_bytes"] == "bytes");
  CHECK(units["mean"] == "seconds");
  CHECK(units["completion_mean"] == "seconds");
  CHECK(!units.contains("samples"));
  // Values as stored: a double stays a double (7.0), counts integers.
  CHECK(json["points"][0]["params"]["collective.N"].is_number_float());
  CHECK(json["points"][0]["params"]["collective.N"] == 7.0);
  CHECK(json["points"][0]["samples"].is_number_unsigned());
  CHECK(json["points"][0]["mean"] == std::get<double>(*file.summaries[0].find("mean")));
}
