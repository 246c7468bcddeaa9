// Generalised Pareto tails (docs/models/tails.md): the threshold rule, the maximum-likelihood fit
// against samples whose excesses are a GPD's exact quantiles (no sampling noise, so the fit must
// return the law's own shape and scale), the likelihood's maximum against a brute-force grid, and
// the spliced law's survival, inverse and moments against their closed forms.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "core/rng.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/gpd_tail.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/spliced_tail_law.hpp"
#include "distributions/time_noise_kind.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

// n values: a body of n - k evenly spaced below `threshold`, the threshold itself, and k
// excesses at the GPD(xi, sigma) quantiles (i + 0.5) / k above it, k by the threshold rule.
std::vector<double> stratified_sample(std::size_t n, double threshold, double xi, double sigma) {
  const std::size_t k = gpd_exceedances(n);
  GpdTail law;
  law.shape = xi;
  law.scale = sigma;
  std::vector<double> out;
  for (std::size_t i = 0; i + 1 < n - k; ++i)
    out.push_back(threshold * static_cast<double>(i) / static_cast<double>(n - k));
  out.push_back(threshold);
  for (std::size_t i = 0; i < k; ++i)
    out.push_back(threshold +
                  law.excess_isf((static_cast<double>(i) + 0.5) / static_cast<double>(k)));
  return out;
}

double log_likelihood(const std::vector<double>& excesses, double xi, double sigma) {
  double sum = 0.0;
  for (const double y : excesses) {
    if (1.0 + xi * y / sigma <= 0.0) return -INFINITY;
    // log1p, and the exponential's form where 1/xi would lose the digits of log(1 + xi y/s).
    sum += -std::log(sigma) -
           (std::abs(xi) < 1e-9 ? y / sigma : (1.0 + 1.0 / xi) * std::log1p(xi * y / sigma));
  }
  return sum;
}

GpdTail fitted(const std::vector<double>& values, std::size_t bootstrap = 0) {
  std::string why;
  const auto tail = fit_gpd_tail(values, 0.9, 7, why, bootstrap);
  INFO(why);
  REQUIRE(tail.has_value());
  return *tail;
}

}  // namespace

TEST_CASE("gpd tails: the threshold rule takes round(sqrt(n)) exceedances, at least 20") {
  CHECK(gpd_exceedances(40) == 20);
  CHECK(gpd_exceedances(400) == 20);
  CHECK(gpd_exceedances(1000) == 32);
  CHECK(gpd_exceedances(10000) == 100);
  std::string why;
  const std::vector<double> small(39, 1.0);
  CHECK_FALSE(fit_gpd_tail(small, 0.9, 1, why).has_value());
  CHECK_THAT(why, Contains("39 values") && Contains("at least 40"));
  const std::vector<double> ties(100, 2.0);
  CHECK_FALSE(fit_gpd_tail(ties, 0.9, 1, why).has_value());
  CHECK_THAT(why, Contains("equal the threshold"));
}

TEST_CASE("gpd tails: a GPD's own quantiles give back its shape and scale") {
  // With k = 100 exact quantiles, the fit's error is the discretisation's: well within 0.05.
  for (const double xi : {-0.3, 0.0, 0.25, 0.6}) {
    const GpdTail tail = fitted(stratified_sample(10000, 5.0, xi, 2.0));
    INFO("xi = " << xi);
    CHECK(tail.threshold == 5.0);
    CHECK(tail.exceedances == 100);
    CHECK(tail.shape == Approx(xi).margin(0.05));
    CHECK(tail.scale == Approx(2.0).epsilon(0.08));
    CHECK_FALSE(tail.shape_at_bound);
  }
}

TEST_CASE("gpd tails: the fit is the likelihood's maximum over a fine grid") {
  Pcg32 rng = make_stream(11);
  std::vector<double> values;
  for (int i = 0; i < 900; ++i) values.push_back(-std::log(rng.next_uniform()) * 3.0);
  const GpdTail tail = fitted(values);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> excesses;
  for (std::size_t i = sorted.size() - tail.exceedances; i < sorted.size(); ++i)
    excesses.push_back(sorted[i] - tail.threshold);
  const double best = log_likelihood(excesses, tail.shape, tail.scale);
  INFO("fit: shape " << tail.shape << ", scale " << tail.scale << ", k " << tail.exceedances);
  for (double xi = -0.5; xi <= 0.95; xi += 0.01)
    for (double sigma = 0.2; sigma <= 10.0; sigma *= 1.02)
      CHECK(log_likelihood(excesses, xi, sigma) <= best + 1e-6);
}

TEST_CASE("gpd tails: the shape's bootstrap interval holds the fit and is repeatable") {
  // Exact quantiles of a GPD of shape 0.3, k = 63: the fit is the shape, and its interval about
  // as wide as the estimate's spread, 2 x 1.645 (1 + xi) / sqrt(k) = 0.54 (Smith 1985).
  const std::vector<double> values = stratified_sample(4000, 5.0, 0.3, 2.0);
  const GpdTail a = fitted(values, 200), b = fitted(values, 200);
  CHECK(a.shape == Approx(0.3).margin(0.05));
  CHECK(a.shape_low < a.shape);
  CHECK(a.shape < a.shape_high);
  CHECK(a.shape_low == b.shape_low);
  CHECK(a.shape_high == b.shape_high);
  CHECK(a.shape_high - a.shape_low > 0.54 / 2);
  CHECK(a.shape_high - a.shape_low < 0.54 * 2);
}

TEST_CASE("spliced tail law: survival, inverse and moments of body and tail") {
  // n = 400, k = 20: body 0, 0.1, ..., 37.9 (380 values, the last the threshold), tail from an
  // exponential of scale 2 (shape 0) above u = 37.9.
  std::vector<double> values;
  for (int i = 0; i < 380; ++i) values.push_back(0.1 * i);
  for (int i = 0; i < 20; ++i) values.push_back(40.0 + i);
  GpdTail tail;
  tail.threshold = 37.9;
  tail.exceedances = 20;
  tail.sample_size = 400;
  tail.shape = 0.0;
  tail.scale = 2.0;
  const SplicedTailLaw law(values, tail, "test");
  // Mean: (sum of the body + 20 (37.9 + 2)) / 400.
  const double body_sum = 0.1 * 379.0 * 380.0 / 2.0;
  const double m = (body_sum + 20.0 * 39.9) / 400.0;
  CHECK(law.mean_seconds() == Approx(m).epsilon(1e-12));
  CHECK(law.mean_excess(0.0) == Approx(1.0).epsilon(1e-12));  // unit mean
  CHECK(law.tail_probability() == 0.05);
  const double u = 37.9 / m;
  CHECK(law.sf(u + 2.0 / m) == Approx(0.05 * std::exp(-1.0)).epsilon(1e-12));
  CHECK(law.isf(0.05 * std::exp(-1.0)) == Approx(u + 2.0 / m).epsilon(1e-12));
  // The body: S(b_j) = (399 - j) / 400, and the generalised inverse finds the atom.
  CHECK(law.sf(0.1 * 10 / m) == Approx(389.0 / 400.0));
  CHECK(law.isf(389.0 / 400.0) == Approx(0.1 * 10 / m));
  CHECK(law.isf(0.5) == Approx(0.1 * 199 / m));
  CHECK(law.tail_index() == INFINITY);
  // Above the threshold: E[(eta - x)^+] = 0.05 e^(-y/s) s, the exponential's memorylessness.
  const double x = u + 1.0 / m;
  CHECK(law.mean_excess(x) == Approx(0.05 * std::exp(-0.5) * 2.0 / m).epsilon(1e-12));
  // Half of E[(eta^2 - x^2)^+] there: 0.05 e^(-1/2) (2 x s + 2 s^2) / 2, s = 2 / m.
  const double s = 2.0 / m;
  CHECK(law.second_excess(x) ==
        Approx(0.5 * 0.05 * std::exp(-0.5) * (2.0 * x * s + 2.0 * s * s)).epsilon(1e-12));
}

TEST_CASE("spliced tail law: a tail fitted to other values is refused") {
  std::vector<double> values(100, 1.0);
  GpdTail tail;
  tail.threshold = 2.0;
  tail.exceedances = 20;
  tail.sample_size = 100;
  tail.scale = 1.0;
  CHECK_THROWS_AS(SplicedTailLaw(values, tail, "x"), InputError);
}

TEST_CASE("latency pools with a gpd tail draw the top k/n of u from it") {
  std::vector<double> pool;
  for (int i = 0; i < 400; ++i) pool.push_back(1e-6 * (1.0 + 0.01 * i));
  LatencySamples samples({{8, pool}}, 0.0, "test");
  const double empirical_top = samples.draw(8, 0.999);
  CHECK(samples.fit_gpd_tails().empty());
  const auto& tail = samples.tail(8);
  REQUIRE(tail.has_value());
  CHECK(tail->exceedances == 20);
  CHECK(tail->threshold == pool[379]);
  // Below the tail's share, the pool as measured; in it, u_k + GPD.
  CHECK(samples.draw(8, 0.5) == pool[200]);
  CHECK(samples.draw(8, 0.95) == Approx(tail->threshold));
  const double deep = samples.draw(8, 1.0 - 1e-6);
  CHECK(deep == Approx(tail->threshold + tail->excess_isf(1e-6 / 0.05)));
  CHECK(deep != empirical_top);
  LatencySamples few({{8, std::vector<double>(30, 1e-6)}}, 0.0, "few");
  CHECK(few.fit_gpd_tails() == std::vector<std::uint64_t>{8});
}

TEST_CASE("detour traces drawn as a Poisson process, with and without a gpd tail") {
  std::filesystem::create_directories("tails");
  const std::string path = "tails/trace.txt";
  {
    std::ofstream f(path);
    for (int i = 0; i < 400; ++i) f << 1000 * i << "\t" << 10 + (i * 7919) % 97 << "\n";
  }
  const TimeNoiseKind kind = trace_noise_kind();
  const auto read = [&](ParamMap given) {
    given["noise.file"] = path;
    ParamReader reader(std::move(given));
    return kind.make(reader, "noise");
  };
  CHECK(std::holds_alternative<PatternNoise>(read({})));
  const auto plain = std::get<std::shared_ptr<const PoissonDetours>>(
      read({{"noise.replay", std::string("poisson")}}));
  // 400 detours over the trace's span (its last start, 399 us, plus its last detour).
  const DetourPattern pattern = read_detour_trace(path, trace_unit("ns"));
  CHECK(plain->rate() == Approx(400.0 / pattern.span()).epsilon(1e-12));
  double total = 0.0;
  for (const Detour& d : pattern.busy()) total += d.end - d.start;
  CHECK(plain->mean_duration() == Approx(total / 400.0).epsilon(1e-12));
  CHECK(plain->duration_law()->name() == "empirical");
  const auto tailed = std::get<std::shared_ptr<const PoissonDetours>>(
      read({{"noise.replay", std::string("poisson")}, {"noise.tail", std::string("gpd")}}));
  CHECK(tailed->duration_law()->name() == "spliced_gpd");
  CHECK(tailed->rate() == plain->rate());
  CHECK_THROWS_WITH(read({{"noise.tail", std::string("gpd")}}),
                    Contains("noise.tail applies with noise.replay = \"poisson\""));
}
