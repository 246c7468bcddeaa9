// The log-logistic law (docs/models/noise-laws.md): exact survival function, unit mean, and the
// closed-form E[max of n] against hand values and the generic numerical integration.
#include <catch2/catch.hpp>
#include <cmath>

#include "distributions/law_spec.hpp"
#include "distributions/loglogistic.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

TEST_CASE("log-logistic: exact values by hand") {
  // beta = 2: alpha = 2 sin(pi/2) / pi = 2/pi, S(x) = 1 / (1 + (x/alpha)^2).
  const LogLogisticLaw law(2.0);
  const double alpha = 2.0 / M_PI;
  CHECK(law.alpha() == Approx(alpha).epsilon(1e-15));
  CHECK(law.sf(alpha) == Approx(0.5).epsilon(1e-15));
  CHECK(law.sf(3.0 * alpha) == Approx(0.1).epsilon(1e-14));
  CHECK(law.cdf(alpha / 3.0) == Approx(0.1).epsilon(1e-14));
  CHECK(law.sf(0.0) == 1.0);
  CHECK(law.cdf(0.0) == 0.0);
  // Far tail: S(x) ~ (x/alpha)^-2 without cancellation, F near 0 likewise.
  CHECK(law.sf(1e6 * alpha) == Approx(1e-12).epsilon(1e-9));
  CHECK(law.cdf(1e-6 * alpha) == Approx(1e-12).epsilon(1e-9));
  CHECK(law.log_cdf(1e-6 * alpha) == Approx(std::log(1e-12)).epsilon(1e-9));
  // E[max of 2] = alpha Gamma(1/2) Gamma(5/2) / Gamma(2) = (2/pi) (3 pi / 4) = 1.5.
  CHECK(law.expected_max(1.0) == Approx(1.0).epsilon(1e-14));
  CHECK(law.expected_max(2.0) == Approx(1.5).epsilon(1e-14));
  CHECK(law.tail_index() == 2.0);
}

TEST_CASE("log-logistic: unit mean, inverse, and E[max] against numerical integration") {
  for (const double beta : {1.5, 2.5, 4.0, 12.0}) {
    const LogLogisticLaw law(beta);
    INFO("beta = " << beta);
    CHECK(law.NoiseLaw::mean_excess(0.0) == Approx(1.0).epsilon(1e-8));
    for (const double s : {0.9, 0.5, 1e-3, 1e-12})
      CHECK(law.sf(law.isf(s)) == Approx(s).epsilon(1e-12));
    for (const double p : {1e-9, 0.3, 0.99})
      CHECK(law.cdf(law.quantile(p)) == Approx(p).epsilon(1e-12));
    for (const double n : {1.0, 3.0, 100.0, 1.0e5})
      CHECK(law.expected_max(n) == Approx(law.NoiseLaw::expected_max(n)).epsilon(1e-7));
  }
}

TEST_CASE("log-logistic: its keys, range and a run against the exact mean") {
  CHECK_THROWS_WITH(make_law(LawSpec{"loglogistic", {{"beta", 1.0}}, "", {}, "noise"}),
                    Contains("noise.beta"));
  CHECK_THROWS_WITH(make_law(LawSpec{"loglogistic", {}, "", {}, "noise"}),
                    Contains("noise.beta is missing"));
  const StageNoise n =
      make_stage_noise(LawSpec{"loglogistic", {{"beta", 3.0}, {"f", 0.1}}, "", {}, "noise"}, 2e-3);
  CHECK(n.scale == Approx(2e-3 * 0.1 / 0.9));
  collnoise::testing::write_text("loglogistic.toml", R"(name = "loglogistic"
seed = 5
samples = 4000
[collective]
kind = "tree_barrier"
w = 1.0e-3
N = 1000
sampling = "per_level"
[noise]
law = "loglogistic"
beta = 3.0
f = 0.05
)");
  const auto run = collnoise::testing::run_command_line(
      "run loglogistic.toml --out loglogistic.h5 --force --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = collnoise::testing::run_command_line("summary loglogistic.h5 --json");
  CHECK(json.output.find("\"exact_in_ci_adjusted\": true") != std::string::npos);
  CHECK(json.output.find("tail index 3 <= 4") != std::string::npos);
}
