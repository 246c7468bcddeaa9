// User bounds (docs/bounds.md): expressions, verdicts, levels, the quantiles of raw samples, and
// whole runs whose exact answers are known (the tree barrier's exact mean and Theorem 1).
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <vector>

#include "estimators/histogram.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/quantile_interval.hpp"
#include "runs/bound_check.hpp"
#include "runs/bound_expression.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

UserBound bound_of(BoundRelation relation, double tolerance = 0.0) {
  UserBound b;
  b.name = "b";
  b.relation = relation;
  b.expression = "1";
  b.tolerance = tolerance;
  return b;
}

double evaluate(const std::string& text, const std::map<std::string, double>& values = {}) {
  std::vector<std::string> names;
  for (const auto& [name, value] : values) names.push_back(name);
  BoundExpression e(text, names);
  REQUIRE_FALSE(e.fault());
  return e.evaluate(values);
}

// A tree barrier under exponential noise, per level: its exact mean is known (exact_mean).
std::string tree_run(std::uint64_t samples, const std::string& bounds, std::uint64_t seed = 4) {
  return fmt::format(R"(name = "bounds"
seed = {}
samples = {}
[collective]
kind = "tree_barrier"
tau = 2.0e-6
sampling = "per_level"
w = 1.0e-3
levels = 20
[noise]
law = "exponential"
f = 0.05
{})",
                     seed, samples, bounds);
}

nlohmann::json first_point(const std::string& result) {
  const CommandResult s = run_command_line("summary " + result + " --json");
  REQUIRE(s.code == 0);
  return nlohmann::json::parse(s.output)["points"][0];
}

nlohmann::json run_point(const std::string& name, const std::string& text) {
  const std::string file = write_text(name + ".toml", text);
  const CommandResult r =
      run_command_line("run " + file + " --out " + name + ".h5 --force --quiet");
  INFO(r.output);
  REQUIRE(r.code == 0);
  return first_point(name + ".h5");
}

std::string bound_table(const std::string& name, const std::string& relation,
                        const std::string& expression, const std::string& extra = "") {
  return fmt::format("[[bound]]\nname = \"{}\"\nrelation = \"{}\"\nexpression = \"{}\"\n{}\n", name,
                     relation, expression, extra);
}

}  // namespace

TEST_CASE("a bound's verdict follows its interval, edges included", "[bounds]") {
  const UserBound at_least = bound_of(BoundRelation::kAtLeast);
  CHECK(bound_verdict(at_least, 1.0, 1.0, 2.0) == BoundVerdict::kHolds);  // lo == B: holds
  CHECK(bound_verdict(at_least, 1.0, 0.5, 2.0) == BoundVerdict::kUndecided);
  CHECK(bound_verdict(at_least, 1.0, 0.2, 0.9) == BoundVerdict::kViolated);
  CHECK(bound_verdict(at_least, 1.0, 0.2, 1.0) == BoundVerdict::kUndecided);  // hi == B
  const UserBound at_most = bound_of(BoundRelation::kAtMost);
  CHECK(bound_verdict(at_most, 1.0, 0.2, 1.0) == BoundVerdict::kHolds);
  CHECK(bound_verdict(at_most, 1.0, 0.2, 1.1) == BoundVerdict::kUndecided);
  CHECK(bound_verdict(at_most, 1.0, 1.1, 1.2) == BoundVerdict::kViolated);
  const UserBound equal = bound_of(BoundRelation::kEqual, 0.1);  // band [0.9, 1.1]
  CHECK(bound_verdict(equal, 1.0, 0.9, 1.1) == BoundVerdict::kHolds);
  CHECK(bound_verdict(equal, 1.0, 0.95, 1.2) == BoundVerdict::kUndecided);
  CHECK(bound_verdict(equal, 1.0, 1.11, 1.2) == BoundVerdict::kViolated);
  CHECK(bound_verdict(equal, -2.0, -2.1, -1.9) == BoundVerdict::kHolds);  // band of |B|
  const UserBound exact = bound_of(BoundRelation::kEqual);
  CHECK(bound_verdict(exact, 1.0, 0.99, 1.01) == BoundVerdict::kUndecided);
  CHECK(bound_verdict(exact, 1.0, 1.0, 1.0) == BoundVerdict::kHolds);
}

TEST_CASE("levels spent over the looks sum to the run's error", "[bounds]") {
  const BoundLevels fixed = bound_levels(0.95, 10, 2, std::nullopt);
  CHECK(fixed.level == 0.95);
  CHECK(fixed.adjusted == Approx(1.0 - 0.05 / 20).epsilon(1e-15));
  CHECK(fixed.method == "fixed");
  double spent = 0.0;
  for (std::uint64_t k = 1; k <= 1000000; ++k) spent += 1.0 - bound_levels(0.95, 1, 1, k).level;
  // sum over k <= K of 6/(pi^2 k^2) = 1 - 6/(pi^2 K) + O(1/K^2)
  CHECK(spent ==
        Approx(0.05 * (1.0 - 6.0 / (std::numbers::pi * std::numbers::pi * 1e6))).epsilon(1e-9));
  CHECK(bound_levels(0.95, 1, 1, 1).level == Approx(1.0 - 0.05 * 6.0 / 9.869604401089358));
  CHECK(bound_levels(0.95, 1, 1, 2).method == "spent over looks");
}

TEST_CASE("bound expressions: the functions, the names, the faults", "[bounds]") {
  CHECK(evaluate("H(4)") == Approx(25.0 / 12.0).epsilon(1e-15));
  CHECK(evaluate("H(1099511627775)") ==
        Approx(std::log(1099511627775.0) + 0.5772156649015329 + 0.5 / 1099511627775.0)
            .epsilon(1e-15));
  CHECK(evaluate("lgamma(5)") == Approx(std::log(24.0)).epsilon(1e-15));
  CHECK(evaluate("log(_e^2)") == Approx(2.0).epsilon(1e-15));  // natural
  CHECK(evaluate("log2(1024) + pow(2, 10) + floor(2.7) + ceil(2.2) + sqrt(16)") ==
        10.0 + 1024.0 + 2.0 + 3.0 + 4.0);
  CHECK(evaluate("min(3, 1, 2) + max(3, 1, 2) + exp(0)") == 5.0);
  CHECK(evaluate("collective_N * noise_f", {{"collective_N", 31.0}, {"noise_f", 0.5}}) == 15.5);
  CHECK(std::isnan(evaluate("H(-1)")));
  CHECK(variable_name("collective.N") == "collective_N");
  CHECK(variable_name("noise.components[0].f") == "noise_components_0__f");

  const BoundExpression unknown("1 + noise_g", {"noise_f"});
  REQUIRE(unknown.fault());
  CHECK(unknown.fault()->column == 5);
  CHECK(unknown.fault()->message == "unknown name \"noise_g\"");
  const BoundExpression malformed("2 * (1 + ", {});
  REQUIRE(malformed.fault());
  CHECK(malformed.fault()->message.find("position") == std::string::npos);
  CHECK(BoundExpression("noise_f * 2", {"noise_f", "other"}).used() ==
        std::vector<std::string>{"noise_f"});
}

TEST_CASE("quantiles of raw samples are exact order statistics", "[bounds]") {
  // 1..200 (sorted) against a histogram of unit bins centred on the integers: the same
  // ranks, the histogram's interval half a bin wider on each side.
  std::vector<double> values;
  Histogram h(0.5, 200.5, 200, BinSpacing::kLinear);
  for (int i = 1; i <= 200; ++i) values.push_back(i), h.add(i);
  std::vector<double> sorted = values;  // already in order
  for (const double p : {0.5, 0.9, 0.99}) {
    const QuantileEstimate raw = quantile_from_sorted(sorted, p, 0.95);
    const QuantileEstimate binned = quantile_from_histogram(h, p, 0.95);
    CHECK(*raw.estimate.value == std::ceil(p * 200));
    REQUIRE(raw.ci_low.has_value());
    CHECK(*raw.ci_low.value == Approx(*binned.ci_low.value + 0.5).epsilon(1e-12));
    if (binned.ci_high.has_value())
      CHECK(*raw.ci_high.value == Approx(*binned.ci_high.value - 0.5).epsilon(1e-12));
    CHECK_FALSE(raw.resolution.has_value());
  }
  const QuantileEstimate few = quantile_from_sorted(std::span(sorted).first(10), 0.999, 0.95);
  CHECK_FALSE(few.ci_high.has_value());
}

TEST_CASE("the error spent over the looks keeps its coverage under optional stopping", "[bounds]") {
  // The worst stopping rule for coverage: sample Exp(1) in batches that double, and stop as soon
  // as the mean's interval excludes the true mean 1 (or at the cap). At a fixed 95% per look,
  // some look excludes it far more often than 5%; spent over the looks (level of look k:
  // 1 - 0.05 * 6 / (pi^2 k^2)) it excludes it at most 5% of the time. 2000 replications: the
  // observed rate's sd is at most 0.0049, so the checks below (0.065 and 0.10) fail by chance with
  // probability below 1e-3.
  const int replications = 2000;
  int naive_misses = 0, spent_misses = 0;
  std::mt19937_64 rng(2026);
  std::exponential_distribution<double> exp1(1.0);
  for (int r = 0; r < replications; ++r) {
    Accumulator acc;
    bool naive_missed = false, spent_missed = false;
    std::uint64_t look = 0;
    for (std::uint64_t end = 50; end <= 50 * 1024; end *= 2) {
      while (acc.count < end) acc.add(exp1(rng));
      ++look;
      const auto misses = [&](double level) {
        const MeanInterval ci = student_t_interval(acc, level);
        return *ci.ci_low.value > 1.0 || *ci.ci_high.value < 1.0;
      };
      naive_missed = naive_missed || misses(0.95);
      spent_missed = spent_missed || misses(bound_levels(0.95, 1, 1, look).level);
    }
    naive_misses += naive_missed ? 1 : 0;
    spent_misses += spent_missed ? 1 : 0;
  }
  const double naive = naive_misses / double(replications);
  const double spent = spent_misses / double(replications);
  CHECK(spent <= 0.065);
  CHECK(naive >= 0.10);
}

TEST_CASE("true bounds hold, false ones are violated, exact values hold within a tolerance",
          "[bounds]") {
  const std::string bounds =
      bound_table("true lower", ">=", "collective_w") +
      bound_table("false upper", "<=", "exact_mean * 0.98") +
      bound_table("exact", "==", "exact_mean", "tolerance = 0.01") +
      bound_table("exact p90", "<=", "p90_exact * 1.01", "statistic = \"p90\"");
  const nlohmann::json p = run_point("bounds_true_false", tree_run(4000, bounds));
  CHECK(p["bound_1_verdict"] == "holds");
  CHECK(p["bound_2_verdict"] == "violated");
  CHECK(p["bound_3_verdict"] == "holds");
  CHECK(p["bound_4_ci_method"] == "order_statistics_binned");
  CHECK(p["bound_3_value"].get<double>() == p["exact_mean"].get<double>());
  CHECK(p["bound_3_estimate"].get<double>() == p["mean"].get<double>());
  CHECK(p["bound_3_ci_low"].get<double>() == p["ci_low"].get<double>());
  CHECK(p["bound_2_distance"].get<double>() ==
        Approx(p["mean"].get<double>() / (0.98 * p["exact_mean"].get<double>()) - 1.0));
  CHECK(p["bound_1_verdict_adjusted"] == "holds");
  CHECK(p["bound_4_verdict"] == "holds");
  CHECK(p["bounds_decided"] == true);  // every verdict is holds or violated
  // With the raw samples kept, the quantile's interval comes from them, exactly.
  const nlohmann::json raw = run_point(
      "bounds_raw",
      tree_run(4000, bound_table("exact p90", "<=", "p90_exact * 1.01", "statistic = \"p90\"") +
                         "[output]\nraw_samples = true\n"));
  CHECK(raw["bound_1_ci_method"] == "order_statistics_raw");
  CHECK(raw["bound_1_verdict"] == "holds");
  CHECK(raw["bound_1_ci_low"].get<double>() >= p["bound_4_ci_low"].get<double>());
  CHECK(raw["bound_1_ci_high"].get<double>() <= p["bound_4_ci_high"].get<double>());
}

TEST_CASE("a bound's verdict moves from undecided to decided as samples grow", "[bounds]") {
  const std::string bound = bound_table("close", "<=", "exact_mean * 1.002");
  CHECK(run_point("bounds_few", tree_run(200, bound))["bound_1_verdict"] == "undecided");
  CHECK(run_point("bounds_many", tree_run(100000, bound))["bound_1_verdict"] == "holds");
}

TEST_CASE("sampling until the bounds are decided stops when they are, at the spent level",
          "[bounds]") {
  const std::string text =
      replace_text(tree_run(0, bound_table("close", "<=", "exact_mean * 1.002")), "samples = 0\n",
                   "[precision]\nuntil = \"bounds_decided\"\nmin_samples = 200\n"
                   "max_samples = 1000000\n");
  const nlohmann::json p = run_point("bounds_until", text);
  CHECK(p["bound_1_verdict"] == "holds");
  CHECK(p["bound_1_level_method"] == "spent over looks");
  CHECK(p["precision_met"] == true);
  const auto batches = p["precision_batches"].get<std::uint64_t>();
  CHECK(batches > 1);
  CHECK(p["bound_1_level"].get<double>() ==
        Approx(bound_levels(0.95, 1, 1, batches).level).epsilon(1e-15));
  CHECK(p["precision_samples"].get<std::uint64_t>() < 1000000);
}

TEST_CASE("Theorem 1 written as user bounds agrees with the built-in overlap verdict", "[bounds]") {
  const std::string s = "collective_w * noise_f / (1 - noise_f)";
  const std::string bounds =
      bound_table("Theorem 1 lower", ">=",
                  fmt::format("collective_w + {} * H((collective_N + 1) / 2) + 2 * collective_tau "
                              "* (log2(collective_N + 1) - 2)",
                              s)) +
      bound_table("Theorem 1 upper", "<=",
                  fmt::format("collective_w + {} * H(collective_N) + 2 * collective_tau * "
                              "(log2(collective_N + 1) - 1)",
                              s));
  const std::string run = replace_text(tree_run(3000, bounds), "levels = 20\n",
                                       "[sweep]\nlevels = [1, 2, 3, 10, 40]\n\"noise.f\" = "
                                       "[0.01, 0.3]\n");
  const std::string file = write_text("bounds_theorem1.toml", run);
  REQUIRE(run_command_line("run " + file + " --out bounds_theorem1.h5 --force --quiet").code == 0);
  const auto points =
      nlohmann::json::parse(run_command_line("summary bounds_theorem1.h5 --json").output)["points"];
  REQUIRE(points.size() == 10);
  for (const auto& p : points) {
    CHECK(p["bound_1_value"].get<double>() ==
          Approx(p["theorem1_lower"].get<double>()).epsilon(1e-14));
    CHECK(p["bound_2_value"].get<double>() ==
          Approx(p["theorem1_upper"].get<double>()).epsilon(1e-14));
    const bool overlap = p["bound_1_verdict"] != "violated" && p["bound_2_verdict"] != "violated";
    CHECK(overlap == p["within_theorem1"].get<bool>());
  }
}

TEST_CASE("bounds that cannot apply are refused before sampling, naming the column", "[bounds]") {
  const std::string unknown =
      write_text("bounds_unknown.toml", tree_run(100, bound_table("typo", ">=", "exact_men * 2")));
  expect_refused(run_command_line("run " + unknown + " --out bounds_unknown.h5 --force"),
                 {"collnoise: error: bounds_unknown.toml: bound[1] (\"typo\"): expression "
                  "\"exact_men * 2\", column 1: unknown name \"exact_men\" (names a "
                  "tree_barrier point defines: docs/reference/keys.md and summary-fields.md)\n"});
  const std::string malformed = write_text(
      "bounds_malformed.toml", tree_run(100, bound_table("cut", ">=", "exact_mean * (2 +")));
  expect_refused(run_command_line("run " + malformed + " --out bounds_malformed.h5 --force"),
                 {"bound[1] (\"cut\"): expression \"exact_mean * (2 +\", column"});
  const std::string relation =
      write_text("bounds_relation.toml", tree_run(100, bound_table("rel", "=>", "exact_mean")));
  expect_refused(run_command_line("run " + relation + " --out bounds_relation.h5 --force"),
                 {"bound[1] (\"rel\")", "relation = \"=>\""});
  const std::string until =
      write_text("bounds_until_alone.toml",
                 replace_text(tree_run(0, ""), "samples = 0\n",
                              "[precision]\nuntil = \"bounds_decided\"\nmax_samples = 1000\n"));
  expect_refused(run_command_line("run " + until + " --out bounds_until_alone.h5 --force"),
                 {"precision.until", "[[bound]]"});
  const std::string analysis = write_text("bounds_nhalf.toml", R"(name = "n"
kind = "nhalf"
seed = 1
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_level"
[noise]
law = "exponential"
f = 0.1
[[bound]]
name = "any"
relation = ">="
expression = "1"
)");
  expect_refused(run_command_line("run " + analysis + " --out bounds_nhalf.h5 --force"),
                 {"bound[1] (\"any\"): nhalf points are analyses, not samples"});
}

TEST_CASE("bound verdicts merge from parts as a whole run gives them", "[bounds]") {
  const std::string file = write_text(
      "bounds_parts.toml",
      tree_run(3000, bound_table("lower", ">=", "exact_mean * 0.999") +
                         bound_table("median", "<=", "exact_mean", "statistic = \"median\"")));
  REQUIRE(run_command_line("run " + file + " --out bounds_whole.h5 --force --quiet").code == 0);
  for (const char* part : {"1/2", "2/2"})
    REQUIRE(run_command_line(fmt::format("run {} --part {} --out bounds_part{}.h5 --force --quiet",
                                         file, part, part[0]))
                .code == 0);
  REQUIRE(run_command_line("merge bounds_part1.h5 bounds_part2.h5 --out bounds_merged.h5 --force "
                           "--quiet")
              .code == 0);
  const nlohmann::json whole = first_point("bounds_whole.h5");
  const nlohmann::json merged = first_point("bounds_merged.h5");
  for (const char* key : {"bound_1_ci_low", "bound_1_ci_high", "bound_1_verdict",
                          "bound_2_estimate", "bound_2_verdict", "bound_2_verdict_adjusted"})
    CHECK(whole[key] == merged[key]);
}

TEST_CASE("a bound is one closed form: assignments and comma lists are refused", "[bounds]") {
  const std::string assigns =
      "'=' assigns to a name, which a bound may not do: a bound is an expression of the point's "
      "names (compare with '==')";
  const BoundExpression assignment("collective_N = 3", {"collective_N"});
  REQUIRE(assignment.fault());
  CHECK(assignment.fault()->message == assigns);
  CHECK(assignment.fault()->column == 14);
  const BoundExpression nested("(noise_f=3) + 1", {"noise_f"});
  REQUIRE(nested.fault());
  CHECK(nested.fault()->message == assigns);
  CHECK(nested.fault()->column == 9);
  const BoundExpression list("1,2", {});
  REQUIRE(list.fault());
  CHECK(list.fault()->message ==
        "a list of 2 expressions separated by commas is not one value (commas separate a "
        "function's arguments only)");
  CHECK(list.fault()->column == 0);
  const BoundExpression bracketed("(1, 2)", {});
  REQUIRE(bracketed.fault());
  CHECK(bracketed.fault()->message == "Function arguments used without a function");
  CHECK(bracketed.fault()->column == 7);
  const BoundExpression three("min(1, 2), 3, 4", {});
  REQUIRE(three.fault());
  CHECK(three.fault()->message.starts_with("a list of 3 expressions"));
  // muparser refuses the compound assignments itself.
  for (const char* text : {"noise_f += 1", "noise_f -= 1", "noise_f *= 2", "noise_f /= 2"})
    CHECK(BoundExpression(text, {"noise_f"}).fault());
  // Comparisons and functions of several arguments stay expressions.
  CHECK(evaluate("min(3, 1) + max(1, 2, 5) + sum(1, 2)") == 1.0 + 5.0 + 3.0);
  CHECK(evaluate("(noise_f == 0.5) + (noise_f <= 1) + (noise_f >= 1) + (noise_f != 2)",
                 {{"noise_f", 0.5}}) == 3.0);

  const std::string run = write_text(
      "bounds_assign.toml", tree_run(100, bound_table("fine", ">=", "1") +
                                              bound_table("assign", ">=", "collective_N = 3")));
  expect_refused(run_command_line("run " + run + " --out bounds_assign.h5 --force"),
                 {"collnoise: error: bounds_assign.toml: bound[2] (\"assign\"): expression "
                  "\"collective_N = 3\", column 14: " +
                  assigns + "\n"});
  const std::string comma =
      write_text("bounds_comma.toml", tree_run(100, bound_table("list", "<=", "1,2")));
  expect_refused(run_command_line("run " + comma + " --out bounds_comma.h5 --force"),
                 {"collnoise: error: bounds_comma.toml: bound[1] (\"list\"): expression \"1,2\": "
                  "a list of 2 expressions separated by commas is not one value (commas separate "
                  "a function's arguments only)\n"});
}

TEST_CASE("_pi and _e are the nearest doubles to pi and e", "[bounds]") {
  CHECK(evaluate("_pi") == std::numbers::pi);  // bit for bit: not muparser's 3.141592653589
  CHECK(evaluate("_e") == std::numbers::e);
  CHECK(evaluate("2 * _pi") == 2.0 * std::numbers::pi);
}

TEST_CASE("a bound without a value is refused or named under until = bounds_decided", "[bounds]") {
  const std::string until =
      "[precision]\nuntil = \"bounds_decided\"\nmin_samples = 100\nmax_samples = 400\n";
  // A closed form of the point's keys alone: its value is known before anything is sampled.
  const std::string keys = write_text(
      "bounds_until_inf.toml",
      replace_text(tree_run(0, bound_table("fine", ">=", "0") +
                                   bound_table("never", "<=", "1/(collective_N - collective_N)")),
                   "samples = 0\n", until));
  expect_refused(
      run_command_line("run " + keys + " --out bounds_until_inf.h5 --force"),
      {"collnoise: error: bounds_until_inf.toml: bound[2] (\"never\"): expression "
       "\"1/(collective_N - collective_N)\" is inf at this point, not a finite number: a bound "
       "without a value is never decided, so precision.until = \"bounds_decided\" would sample "
       "to precision.max_samples\n"});
  // Without `until` the same bound is taken: its verdict is null, with its reason.
  const nlohmann::json fixed =
      run_point("bounds_fixed_inf", tree_run(100, bound_table("never", "<=",
                                                              "1/(collective_N - "
                                                              "collective_N)")));
  CHECK(fixed["bound_1_value"].is_null());
  CHECK(fixed["bound_1_value_reason"] == "the expression is not a finite number at this point");
  CHECK(fixed["bound_1_verdict_reason"] == "the bound has no value at this point");
  CHECK(fixed["bounds_decided"] == false);
  // One that reads a summary field has its value only once sampled: the note names it.
  const nlohmann::json p =
      run_point("bounds_until_nan",
                replace_text(tree_run(0, bound_table("fine", ">=", "0") +
                                             bound_table("never", "<=", "exact_mean * (0/0)")),
                             "samples = 0\n", until));
  CHECK(p["precision_met"] == false);
  CHECK(p["precision_samples"] == 400);
  const std::string note = p["precision_note"].get<std::string>();
  INFO(note);
  CHECK(note.find("bound[2] (\"never\") has no value at this point (its expression is NaN, not a "
                  "finite number), so it can never be decided") != std::string::npos);
}
