// The truncated law (docs/models/noise-laws.md): a base law's unit-mean variable capped and
// rescaled to unit mean, checked against exact values of a truncated exponential.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "distributions/exponential.hpp"
#include "distributions/law_spec.hpp"
#include "distributions/pareto.hpp"
#include "distributions/truncated.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

// E[max of n min(X, c)] for X ~ Exp(1): the integral over [0, c] of 1 - (1 - e^-y)^n, expanded
// binomially: sum over k of C(n, k) (-1)^(k+1) (1 - e^(-k c)) / k.
double truncated_exponential_max(int n, double c) {
  double sum = 0.0;
  double binomial = 1.0;
  for (int k = 1; k <= n; ++k) {
    binomial = binomial * (n - k + 1) / k;
    sum += (k % 2 ? 1.0 : -1.0) * binomial * -std::expm1(-k * c) / k;
  }
  return sum;
}

}  // namespace

TEST_CASE("truncated exponential: exact mean, survival function, atom and E[max]") {
  const double c = 2.0;
  const TruncatedLaw law(std::make_shared<ExponentialLaw>(), c, "noise.cap");
  const double m = -std::expm1(-c);  // E[min(X, c)] = 1 - e^-c
  CHECK(law.capped_mean() == Approx(m).epsilon(1e-15));
  CHECK(law.NoiseLaw::expected_max(1.0) == Approx(1.0).epsilon(1e-10));  // E[max of 1] = E[eta]
  CHECK(law.mean_excess(0.0) == Approx(1.0).epsilon(1e-14));
  // Below the cap S is the base law's at x m; at the cap it drops to 0 (an atom of e^-c).
  CHECK(law.sf(1.0 / m) == Approx(std::exp(-1.0)).epsilon(1e-15));
  CHECK(law.sf(std::nextafter(c / m, 0.0)) == Approx(std::exp(-c)).epsilon(1e-12));
  CHECK(law.sf(c / m) == 0.0);
  CHECK(law.isf(1e-9) == Approx(c / m).epsilon(1e-15));
  CHECK(law.isf(0.5) == Approx(std::log(2.0) / m).epsilon(1e-15));
  CHECK(std::isinf(law.tail_index()));
  for (const int n : {1, 2, 5, 30})
    CHECK(law.expected_max(n) == Approx(truncated_exponential_max(n, c) / m).epsilon(1e-9));
}

TEST_CASE("truncated Pareto: a heavy tail made bounded, unit mean and finite variance") {
  const TruncatedLaw law(std::make_shared<ParetoLaw>(1.5), 20.0, "noise.cap");
  CHECK(law.NoiseLaw::expected_max(1.0) == Approx(1.0).epsilon(1e-8));
  CHECK(std::isfinite(law.second_excess(0.0)));
  CHECK(law.second_excess(0.0) == Approx(law.NoiseLaw::second_excess(0.0)).epsilon(1e-7));
  // The largest of many is the cap: E[max of 1e12] is (almost) c/m.
  CHECK(law.expected_max(1e12) == Approx(20.0 / law.capped_mean()).epsilon(1e-6));
  for (const double s : {0.5, 1e-2}) CHECK(law.sf(law.isf(s)) == Approx(s).epsilon(1e-12));
}

TEST_CASE("truncated: read from run-file keys, with the base law in noise.base") {
  const ParamMap given = {{"noise.law", std::string("truncated")},
                          {"noise.cap", 3.0},
                          {"noise.f", 0.1},
                          {"noise.base.law", std::string("pareto")},
                          {"noise.base.a", 2.5}};
  ParamReader reader(given);
  const StageNoise noise = read_stage_noise(reader, "noise", 1e-3);
  CHECK(noise.eta->name() == "truncated");
  CHECK(noise.scale == Approx(1e-3 * 0.1 / 0.9));
  CHECK_NOTHROW(reader.reject_unread("a test"));
  ParamReader missing(ParamMap{{"noise.law", std::string("truncated")}, {"noise.cap", 3.0}});
  CHECK_THROWS_WITH(read_unit_law(missing, "noise"), Contains("noise.base.law is missing"));
  ParamReader none(ParamMap{{"noise.law", std::string("truncated")},
                            {"noise.cap", 3.0},
                            {"noise.base.law", std::string("none")}});
  CHECK_THROWS_WITH(read_unit_law(none, "noise"), Contains("no noise"));
  ParamReader bad_cap(ParamMap{{"noise.law", std::string("truncated")},
                               {"noise.cap", 0.0},
                               {"noise.base.law", std::string("exponential")}});
  CHECK_THROWS_WITH(read_unit_law(bad_cap, "noise"), Contains("noise.cap"));
}
