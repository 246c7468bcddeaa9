// Predictions with intervals (runs/prediction.hpp; docs/calibration.md, "Predictions with
// intervals"): a point's draws' estimates give its prediction, its Monte Carlo and predictive
// intervals and the calibration's share, checked against values worked by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "engine/schedules/schedule_fields.hpp"
#include "estimators/prediction_fields.hpp"
#include "runs/prediction.hpp"
#include "tests/fixtures/record_fields.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::testing::number_field;

namespace {

const ModelKind& model_with_ranks() {
  static const ModelKind model{.name = "hand", .ranks_field = &schedule_fields::kRanks};
  return model;
}

RunSpec run_with_draws(std::size_t draws, std::optional<std::uint64_t> largest) {
  RunSpec run;
  run.confidence = 0.9;
  run.prediction_draws = draws;
  MachineFile machine;
  machine.given_path = "m.toml";
  machine.largest_ranks = largest;
  for (std::size_t d = 0; d < draws; ++d)
    machine.draws.push_back({{"loggops.o", 1e-6 * static_cast<double>(d + 1)}});
  run.machine = machine;
  return run;
}

// A draw's point: its parameters (the drawn key, the draw) and a summary whose mean is `mean`
// with an interval of half-width `half`, and whose median has none.
PreparedPoint drawn_point(std::size_t draw) {
  PreparedPoint point;
  point.model = &model_with_ranks();
  point.params.set("collective.N", Field(16.0));
  point.params.set("loggops.o", Field(1e-6 * static_cast<double>(draw + 1)));
  point.params.set_unit("loggops.o", "seconds");
  point.params.put(prediction_draw_field(), Field(static_cast<std::uint64_t>(draw + 1)));
  return point;
}

PointResult drawn_result(double mean, double half) {
  const MeanFields& completion = schedule_fields::kCompletion;
  PointResult result;
  result.summary.put(schedule_fields::kRanks, Field(std::uint64_t{16}));
  result.summary.put(completion.mean(), Field(mean));
  result.summary.put(completion.ci_low(), Field(mean - half));
  result.summary.put(completion.ci_high(), Field(mean + half));
  return result;
}

}  // namespace

TEST_CASE("a prediction is the draws' median with their percentile interval beside Monte Carlo's") {
  const RunSpec run = run_with_draws(4, 8);
  std::vector<PreparedPoint> points;
  std::vector<PointResult> results;
  const double means[] = {3.0, 1.0, 4.0, 2.0};  // any order: the draws are not sorted
  for (std::size_t d = 0; d < 4; ++d) {
    points.push_back(drawn_point(d));
    results.push_back(drawn_result(means[d], 0.1));
  }
  const std::vector<PredictionResult> predictions = predictions_of(run, points, results);
  REQUIRE(predictions.size() == 1);
  const Record& p = predictions[0].summary;
  const PredictedEstimateFields mean(schedule_fields::kCompletion.mean().name, "seconds");
  CHECK(number_field(p, mean.value().name) == Approx(2.5).epsilon(1e-15));
  CHECK(number_field(p, mean.mc_low().name) == Approx(2.4).epsilon(1e-15));
  CHECK(number_field(p, mean.mc_high().name) == Approx(2.6).epsilon(1e-15));
  // Type 7 at 0.05 and 0.95 of {1, 2, 3, 4}: 1 + 0.15 and 3 + 0.85.
  CHECK(number_field(p, mean.low().name) == Approx(1.15).epsilon(1e-15));
  CHECK(number_field(p, mean.high().name) == Approx(3.85).epsilon(1e-15));
  // Each draw's Monte Carlo sd is 0.1 / z(0.95) = 0.0607957; the draws' variance 5/3.
  const double mc_sd = 0.1 / 1.6448536269514722;
  CHECK(number_field(p, mean.calibration_share().name) ==
        Approx(1.0 - mc_sd * mc_sd / (5.0 / 3.0)).epsilon(1e-12));
  CHECK(std::get<std::string>(*p.find(mean.dominant().name)) == kCalibrationDominates);
  CHECK(p.unit_of(mean.low().name) == "seconds");
  const PredictionFields& f = prediction_fields();
  CHECK(std::get<bool>(*p.find(f.extrapolation.name)));  // 16 ranks beyond the 8 fitted
  CHECK(std::get<std::uint64_t>(*p.find(f.largest_calibrated_ranks.name)) == 8u);
  CHECK(std::get<std::uint64_t>(*p.find(f.draws.name)) == 4u);
  CHECK(std::get<double>(*p.find(f.level.name)) == 0.9);
  // The prediction's parameters are the point's, without the drawn key and the draw.
  const Record& params = predictions[0].params;
  CHECK(params.find("collective.N"));
  CHECK_FALSE(params.find("loggops.o"));
  CHECK(params.unit_of("loggops.o").empty());
  CHECK_FALSE(params.find(prediction_draw_field().name));
}

TEST_CASE("Monte Carlo dominates when the draws agree within their own intervals") {
  const RunSpec run = run_with_draws(2, 16);
  std::vector<PreparedPoint> points;
  std::vector<PointResult> results;
  // Two points of the run file, two draws each: point b's draws are points 2b and 2b + 1.
  for (const double mean : {1.0, 1.01, 5.0, 5.0}) {
    points.push_back(drawn_point(points.size() % 2));
    results.push_back(drawn_result(mean, 0.5));
  }
  const std::vector<PredictionResult> predictions = predictions_of(run, points, results);
  REQUIRE(predictions.size() == 2);
  const PredictedEstimateFields mean(schedule_fields::kCompletion.mean().name, "seconds");
  CHECK(number_field(predictions[0].summary, mean.value().name) == Approx(1.005));
  CHECK(number_field(predictions[0].summary, mean.calibration_share().name) == 0.0);
  CHECK(std::get<std::string>(*predictions[0].summary.find(mean.dominant().name)) ==
        kMonteCarloDominates);
  CHECK(std::get<std::uint64_t>(
            *predictions[1].summary.find(prediction_fields().first_point.name)) == 2u);
  // Draws that agree exactly: no calibration variance at all.
  CHECK(number_field(predictions[1].summary, mean.calibration_share().name) == 0.0);
  CHECK(number_field(predictions[1].summary, mean.low().name) == 5.0);
  // 16 ranks are within the calibration's 16.
  CHECK_FALSE(std::get<bool>(*predictions[1].summary.find(prediction_fields().extrapolation.name)));
}

TEST_CASE("a draw without the estimate makes its prediction null, with the draw's reason") {
  const RunSpec run = run_with_draws(2, std::nullopt);
  std::vector<PreparedPoint> points;
  std::vector<PointResult> results;
  for (std::size_t d = 0; d < 2; ++d) {
    points.push_back(drawn_point(d));
    results.push_back(drawn_result(1.0, 0.1));
  }
  results[1].summary.put(schedule_fields::kCompletion.mean(), Field(Null{"no samples"}));
  const Record summary = predictions_of(run, points, results).at(0).summary;
  const PredictedEstimateFields mean(schedule_fields::kCompletion.mean().name, "seconds");
  for (const FieldSpec& field : mean.specs()) {
    INFO(field.name);
    REQUIRE(std::holds_alternative<Null>(*summary.find(field.name)));
    CHECK(std::get<Null>(*summary.find(field.name)).reason == "no samples");
  }
  // A machine file fitted to no table cannot say whether a point extrapolates.
  CHECK_THAT(std::get<Null>(*summary.find(prediction_fields().extrapolation.name)).reason,
             Contains("fitted to no table"));
}

TEST_CASE("a share of samples with its exact interval is predicted as an estimate too") {
  // The tail share of three draws: 0.1, 0.3, 0.2, each with its interval (share - 0.05,
  // share + 0.1): the prediction is their median with the intervals' median distances.
  const RunSpec run = run_with_draws(3, 16);
  std::vector<PreparedPoint> points;
  std::vector<PointResult> results;
  const double shares[] = {0.1, 0.3, 0.2};
  const ProportionFields& tail = schedule_fields::kSlowestTail;
  for (std::size_t d = 0; d < 3; ++d) {
    points.push_back(drawn_point(d));
    PointResult result = drawn_result(1.0, 0.1);
    put_proportion(result.summary, tail, {shares[d], shares[d] - 0.05, shares[d] + 0.1});
    results.push_back(result);
  }
  const std::vector<PredictionResult> predictions = predictions_of(run, points, results);
  REQUIRE(predictions.size() == 1);
  const Record& p = predictions[0].summary;
  const PredictedEstimateFields share(tail.share().name, "");
  CHECK(number_field(p, share.value().name) == Approx(0.2).epsilon(1e-15));
  CHECK(number_field(p, share.mc_low().name) == Approx(0.15).epsilon(1e-15));
  CHECK(number_field(p, share.mc_high().name) == Approx(0.3).epsilon(1e-15));
  // Type 7 at 0.05 and 0.95 of {0.1, 0.2, 0.3}: 0.1 + 0.01 and 0.2 + 0.09.
  CHECK(number_field(p, share.low().name) == Approx(0.11).epsilon(1e-12));
  CHECK(number_field(p, share.high().name) == Approx(0.29).epsilon(1e-12));
}
