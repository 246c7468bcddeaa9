// Free keys fitted to measured tables (runs/table_fit.hpp), on a machine known exactly: the
// "measured" times are those of a known LogGOPS point, computed by hand, so the fit must find
// its value to the optimiser's tolerance, and a key that changes nothing is reported.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "runs/table_fit.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

MeasuredTable hand_table(double seconds) {
  MeasuredTable t;
  t.path = "hand";
  t.point = {{"collective.kind", std::string("schedule")},
             {"collective.goal", std::string("table-fit-ping.goal")}};
  t.times.seconds.assign(40, seconds);
  return t;
}

}  // namespace

TEST_CASE("a fit finds the o of a known machine, and says which key it cannot see") {
  collnoise::testing::write_text("table-fit-ping.goal",
                                 "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\n"
                                 "rank 1 {\nl1: recv 8b from 0 tag 0\n}\n");
  const ParamMap machine = {{"loggops.L", 1e-6}, {"loggops.G", 1e-9}, {"loggops.g", 0.0}};
  // o + 7 G + L + o with o = 300 ns: 1607 ns.
  const std::vector<MeasuredTable> tables = {hand_table(1.607e-6)};
  const std::vector<FreeKey> keys = {{"loggops.o", 0.0, 1e-6},
                                     {"loggops.rendezvous_regime.g", 0.0, 1e-6}};
  TableFitOptions options;
  options.samples = 4;
  options.evaluations = 400;
  options.bootstrap = 3;
  options.origin = "hand.toml";
  const TableFitResult fit = fit_tables(machine, {}, tables, keys, options);
  // The optimiser stops within 1e-4 of the range: 0.1 ns.
  CHECK(fit.best[0] == Approx(3e-7).margin(2e-10));
  CHECK(fit.table_distance[0] == Approx(0.0).margin(1e-3));
  // An 8-byte message never takes the rendezvous regime.
  REQUIRE(fit.warnings.size() == 1);
  CHECK_THAT(fit.warnings[0], Contains("loggops.rendezvous_regime.g is not identifiable"));
  // Resamples of identical times refit to the same o.
  REQUIRE(fit.draws.size() == 3);
  for (const auto& draw : fit.draws) CHECK(draw[0] == Approx(3e-7).margin(2e-10));
  CHECK(fit.intervals[0].first <= fit.best[0]);
  CHECK(fit.intervals[0].second >= fit.best[0]);

  // A measured time beyond the range's end: o at the end, said so.
  const std::vector<MeasuredTable> slow = {hand_table(5e-6)};
  const std::vector<FreeKey> o_only = {{"loggops.o", 0.0, 1e-6}};
  options.bootstrap = 0;
  const TableFitResult end = fit_tables(machine, {}, slow, o_only, options);
  CHECK(end.best[0] == Approx(1e-6).margin(1e-9));
  REQUIRE_FALSE(end.warnings.empty());
  CHECK_THAT(end.warnings[0], Contains("sits at an end of its range"));

  // A point its model refuses names the table.
  const ParamMap bad = {{"loggops.L", -1.0}};
  CHECK_THROWS_WITH(fit_tables(bad, {}, tables, o_only, options),
                    Contains("hand.toml: table 'hand'") && Contains("loggops.L"));
}

TEST_CASE("fit distances: W1 and quantiles relative to the measured median, KS as it is") {
  const std::vector<double> measured = {1.0, 2.0, 3.0};
  const std::vector<double> shifted = {2.0, 3.0, 4.0};
  CHECK(fit_distance(FitDistance::kW1, shifted, measured) == Approx(0.5));
  CHECK(fit_distance(FitDistance::kQuantiles, shifted, measured) == Approx(0.5));
  CHECK(fit_distance(FitDistance::kKS, shifted, measured) == Approx(1.0 / 3.0));
  // Samples come in any order (a simulation's, a table's iterations): the same distances.
  const std::vector<double> unsorted = {3.0, 1.0, 2.0};
  const std::vector<double> shifted_unsorted = {4.0, 2.0, 3.0};
  CHECK(fit_distance(FitDistance::kW1, shifted_unsorted, unsorted) == Approx(0.5));
  CHECK(fit_distance(FitDistance::kW1, unsorted, measured) == 0.0);
  CHECK(fit_distance(FitDistance::kKS, shifted_unsorted, unsorted) == Approx(1.0 / 3.0));
  CHECK(fit_distance(FitDistance::kQuantiles, shifted_unsorted, unsorted) == Approx(0.5));
}

TEST_CASE("a table's rank count is its point's, before any simulation") {
  const ParamMap machine = {{"loggops.L", 1e-6}, {"loggops.G", 1e-9}, {"loggops.g", 0.0}};
  MeasuredTable t;
  t.path = "ranks";
  t.times.seconds.assign(4, 1e-6);
  t.point = {{"collective.kind", std::string("schedule")},
             {"collective.algorithm", std::string("nway_dissemination")},
             {"collective.N", std::int64_t{8}},
             {"collective.message_bytes", std::int64_t{16}}};
  CHECK(table_ranks(machine, t, ".") == std::optional<std::uint64_t>(8));
  t.point.erase("collective.N");
  t.point["collective.log2_N"] = std::int64_t{5};
  CHECK(table_ranks(machine, t, ".") == std::optional<std::uint64_t>(32));
  // A GOAL file's point does not say before it is read: a list says nothing, a per-rank table
  // its columns.
  collnoise::testing::write_text(
      "table-fit-ranks.goal",
      "num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n");
  t.point = {{"collective.kind", std::string("schedule")},
             {"collective.goal", std::string("table-fit-ranks.goal")}};
  CHECK_FALSE(table_ranks(machine, t, ".").has_value());
  t.times.per_rank = true;
  t.times.ranks = 2;
  t.times.seconds.assign(8, 1e-6);
  CHECK(table_ranks(machine, t, ".") == std::optional<std::uint64_t>(2));
}

TEST_CASE("a fit's answer does not depend on its thread count") {
  // Under noise, so each table's times depend on their streams: with 2 threads the three tables
  // are simulated side by side, with 4 one after another on all threads; the answer is the same.
  const ParamMap machine = {{"loggops.L", 1e-6},
                            {"loggops.g", 0.0},
                            {"loggops.G", 1e-9},
                            {"latency.law", std::string("exponential")},
                            {"latency.mean", 1e-6}};
  std::vector<MeasuredTable> tables;
  for (const std::int64_t bytes : {8, 512, 32768}) {
    const std::string goal = "table-fit-threads-" + std::to_string(bytes) + ".goal";
    collnoise::testing::write_text(
        goal, "num_ranks 2\nrank 0 {\nl1: send " + std::to_string(bytes) + "b to 1 tag 0\n}\n" +
                  "rank 1 {\nl1: recv " + std::to_string(bytes) + "b from 0 tag 0\n}\n");
    MeasuredTable t = hand_table(3e-6 + 1e-9 * static_cast<double>(bytes));
    t.path = goal;
    t.point["collective.goal"] = goal;
    tables.push_back(t);
  }
  const std::vector<FreeKey> keys = {{"loggops.o", 0.0, 1e-6}};
  TableFitOptions options;
  options.samples = 64;
  options.evaluations = 40;
  options.bootstrap = 2;
  options.origin = "threads.toml";
  std::vector<TableFitResult> fits;
  for (const int threads : {1, 2, 4}) {
    options.threads = threads;
    fits.push_back(fit_tables(machine, {}, tables, keys, options));
  }
  for (std::size_t i = 1; i < fits.size(); ++i) {
    CHECK(fits[i].best == fits[0].best);
    CHECK(fits[i].table_distance == fits[0].table_distance);
    CHECK(fits[i].draws == fits[0].draws);
  }
}
