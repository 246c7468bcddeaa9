#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "core/errors.hpp"
#include "distributions/bernoulli.hpp"
#include "distributions/empirical.hpp"
#include "distributions/exponential.hpp"
#include "distributions/gamma.hpp"
#include "distributions/law_spec.hpp"
#include "distributions/lognormal.hpp"
#include "distributions/pareto.hpp"
#include "distributions/uniform.hpp"
#include "distributions/weibull.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {
// E[max of n] by the generic numerical path of the base class.
double numeric_expected_max(const NoiseLaw& law, double n) {
  return law.NoiseLaw::expected_max(n);
}
double numeric_mean_excess(const NoiseLaw& law, double x) {
  return law.NoiseLaw::mean_excess(x);
}
}  // namespace

TEST_CASE("harmonic numbers: exact sums and the large-n expansion") {
  CHECK(harmonic_number(1) == 1.0);
  CHECK(harmonic_number(4) == Approx(25.0 / 12.0).epsilon(1e-15));
  double h = 0;
  for (int k = 1000000; k >= 1; --k) h += 1.0 / k;
  CHECK(harmonic_number(1e6) == Approx(h).epsilon(1e-14));
  // H_n - ln n - gamma ~ 1/(2n) at n = 2^63.
  const double n = 0x1.0p63;
  CHECK(harmonic_number(n) == Approx(std::log(n) + 0.57721566490153286).epsilon(1e-15));
}

TEST_CASE("closed-form E[max of n] agree with numerical integration") {
  const ExponentialLaw e;
  const ParetoLaw p3(3.0), p15(1.5);
  const BernoulliLaw b(0.01);
  const UniformLaw u;
  for (double n : {1.0, 2.0, 7.0, 1000.0, 1e6}) {
    CHECK(e.expected_max(n) == Approx(numeric_expected_max(e, n)).epsilon(1e-9));
    CHECK(p3.expected_max(n) == Approx(numeric_expected_max(p3, n)).epsilon(1e-8));
    CHECK(p15.expected_max(n) == Approx(numeric_expected_max(p15, n)).epsilon(1e-8));
    CHECK(b.expected_max(n) == Approx(numeric_expected_max(b, n)).epsilon(1e-12));
    if (n <= 1000) CHECK(u.expected_max(n) == Approx(numeric_expected_max(u, n)).epsilon(1e-9));
  }
  CHECK(e.expected_max(1.0) == Approx(1.0));
  CHECK(b.expected_max(1.0) == Approx(1.0));
}

TEST_CASE("Pareto gamma ratio: expansion continuous with the exact ratio, product formula") {
  for (double a : {1.1, 1.5, 2.0, 3.0}) {
    const double d = 1.0 / a;
    const double below = gamma_ratio(std::nextafter(1e6, 0.0), d);
    const double above = gamma_ratio(1e6, d);
    CHECK(above / below == Approx(1.0).epsilon(1e-13));
    // E[max of n X] = 1 / prod_{k<=n} (1 - 1/(k a)).
    double prod = 1.0;
    for (int k = 1; k <= 50; ++k) prod *= 1.0 - 1.0 / (k * a);
    CHECK(gamma_ratio(51.0, d) * std::tgamma(1.0 - d) == Approx(1.0 / prod).epsilon(1e-12));
  }
  const ParetoLaw p(2.0);
  CHECK(std::isfinite(p.expected_max(0x1.0p63)));
  CHECK(p.expected_max(0x1.0p63) / std::sqrt(0x1.0p63) ==
        Approx(0.5 * std::sqrt(M_PI)).epsilon(1e-9));
}

TEST_CASE("every law is unit mean, and ISF inverts the survival function") {
  std::vector<std::shared_ptr<NoiseLaw>> laws = {
      std::make_shared<ExponentialLaw>(),  std::make_shared<ParetoLaw>(2.5),
      std::make_shared<LognormalLaw>(0.8), std::make_shared<WeibullLaw>(0.7),
      std::make_shared<GammaLaw>(2.0),     std::make_shared<UniformLaw>()};
  for (const auto& law : laws) {
    INFO(law->describe());
    CHECK(law->mean_excess(0.0) == Approx(1.0).epsilon(1e-9));  // E[eta] = integral of S
    CHECK(numeric_mean_excess(*law, 0.7) == Approx(law->mean_excess(0.7)).epsilon(1e-7));
    for (double s : {0.9, 0.5, 1e-3}) CHECK(law->sf(law->isf(s)) == Approx(s).epsilon(1e-9));
    for (double p : {1e-3, 0.3, 0.99}) CHECK(law->cdf(law->quantile(p)) == Approx(p).epsilon(1e-9));
    // Far tails: the ISF keeps relative accuracy where 1 - F cannot.
    if (law->name() != "uniform") CHECK(law->sf(law->isf(1e-12)) == Approx(1e-12).epsilon(1e-6));
  }
}

TEST_CASE("bad law parameters name the parameter") {
  LawSpec pareto{"pareto", {{"a", 1.0}, {"f", 0.01}}, "", {}, "noise"};
  CHECK_THROWS_WITH(make_stage_noise(pareto, 1e-3), Contains("noise.a"));
  LawSpec exp_bad_f{"exponential", {{"f", 1.0}}, "", {}, "noise"};
  CHECK_THROWS_WITH(make_stage_noise(exp_bad_f, 1e-3), Contains("noise.f"));
  LawSpec bern{"bernoulli", {{"p", 1.5}, {"T", 1e-3}}, "", {}, "noise"};
  CHECK_THROWS_WITH(make_stage_noise(bern, 1e-3), Contains("noise.p"));
  LawSpec bern_t{"bernoulli", {{"p", 0.1}, {"T", -1e-3}}, "", {}, "noise"};
  CHECK_THROWS_WITH(make_stage_noise(bern_t, 1e-3), Contains("noise.T"));
  LawSpec unknown{"cauchy", {{"f", 0.1}}, "", {}, "noise"};
  CHECK_THROWS_WITH(make_stage_noise(unknown, 1e-3), Contains("cauchy"));
}

TEST_CASE("Bernoulli scale and f parametrisation") {
  LawSpec spec{"bernoulli", {{"f", 0.01}, {"T", 1e-3}}, "", {}, "noise"};
  const StageNoise n = make_stage_noise(spec, 2e-3);
  CHECK(n.scale == Approx(0.01 / 0.99 * 2e-3));  // p T = f/(1-f) w
  CHECK(n.scale * n.eta->expected_max(10) == Approx(1e-3 * (1 - std::pow(1 - n.scale / 1e-3, 10))));
}

TEST_CASE("empirical law: file errors carry file and line, exact max") {
  const std::string path = "empirical_test_delays.txt";
  {
    std::ofstream f(path);
    f << "# measured\n1e-6\n3e-6\n\n2e-6\n";
  }
  const auto law = EmpiricalLaw::from_file(path);
  CHECK(law.mean_delay_seconds() == Approx(2e-6));
  CHECK(law.expected_max(1) == Approx(1.0));
  // max of 2 draws from {0.5, 1, 1.5}: P = 1/9, 3/9, 5/9.
  CHECK(law.expected_max(2) == Approx((0.5 * 1 + 1.0 * 3 + 1.5 * 5) / 9.0));
  CHECK(law.expected_max(2) == Approx(numeric_expected_max(law, 2)).epsilon(1e-12));
  {
    std::ofstream f(path);
    f << "1e-6\nabc\n";
  }
  CHECK_THROWS_WITH(EmpiricalLaw::from_file(path), Contains(path + ":2"));
  {
    std::ofstream f(path);
    f << "1e-6\n-2e-6\n";
  }
  CHECK_THROWS_WITH(EmpiricalLaw::from_file(path), Contains("negative"));
  {
    std::ofstream f(path);
    f << "# nothing\n";
  }
  CHECK_THROWS_WITH(EmpiricalLaw::from_file(path), Contains("no delays"));
  CHECK_THROWS_WITH(EmpiricalLaw::from_file("no/such/file.txt"), Contains("no/such/file.txt"));
  std::remove(path.c_str());
}

TEST_CASE("mixture: exact inverse and rescaled unit mean") {
  LawSpec spec{"mixture", {{"f", 0.1}}, "", {}, "noise"};
  spec.components = {
      LawSpec{"exponential", {{"weight", 0.9}}, "", {}, "noise.components[0]"},
      LawSpec{"pareto", {{"weight", 0.1}, {"a", 1.5}}, "", {}, "noise.components[1]"}};
  const auto law = make_law(spec);
  CHECK(law->mean_excess(0.0) == Approx(1.0).epsilon(1e-9));
  CHECK(law->tail_index() == 1.5);
  for (double s : {0.5, 1e-3, 1e-9}) CHECK(law->sf(law->isf(s)) == Approx(s).epsilon(1e-12));
}
