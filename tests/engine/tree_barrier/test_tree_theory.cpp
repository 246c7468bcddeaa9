#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "distributions/law_spec.hpp"
#include "engine/tree_barrier/timed_tree_barrier.hpp"
#include "engine/tree_barrier/tree_theory.hpp"
#include "tests/fixtures/tree_barrier_models.hpp"

using namespace collnoise;

TEST_CASE("tree shape: depths and level counts for any N") {
  CHECK(TreeShape(1).depth() == 0);
  CHECK(TreeShape(2).depth() == 1);
  CHECK(TreeShape(3).depth() == 1);
  CHECK(TreeShape(3).is_full());
  CHECK(TreeShape(4).depth() == 2);
  CHECK(TreeShape(4).level_count(2) == 1);
  CHECK(TreeShape(1023).level_count(9) == 512);
  const TreeShape huge(~RankCount{0} >> 1);  // 2^127 - 1
  CHECK(huge.depth() == 126);
  CHECK(huge.is_full());
  CHECK_THROWS(TreeShape(0));
}

TEST_CASE("exact distribution equals brute-force enumeration for Bernoulli trees") {
  // Enumerate all 2^N delay patterns; T = max_i (w + T_b B_i + 2 tau d_i).
  const double w = 1e-3, tau = 3e-4, T = 5e-4, p = 0.3;
  for (int n : {1, 2, 3, 4, 5, 6, 7}) {
    std::map<double, double> pmf;
    for (int mask = 0; mask < (1 << n); ++mask) {
      double prob = 1.0, t = 0.0;
      for (int i = 0; i < n; ++i) {
        const bool hit = (mask >> i) & 1;
        prob *= hit ? p : 1 - p;
        const int depth = static_cast<int>(std::floor(std::log2(i + 1.0)));
        t = std::max(t, w + (hit ? T : 0.0) + 2 * tau * depth);
      }
      pmf[t] += prob;
    }
    double mean = 0.0, cum = 0.0;
    const auto m =
        test_model(n, LawSpec{"bernoulli", {{"p", p}, {"T", T}}, "", {}, "noise"}, w, tau);
    const auto dist = phase_time_distribution(m);
    for (const auto& [t, pr] : pmf) {
      mean += t * pr;
      cum += pr;
      CHECK(dist.cdf(t * (1 + 1e-12)) == Approx(cum).epsilon(1e-12));
    }
    INFO("N = " << n);
    CHECK(dist.mean() == Approx(mean).epsilon(1e-12));
  }
}

TEST_CASE("exact mean of huge Bernoulli trees: step sum over the levels' two values") {
  // Level d's maximum is w + 2 tau d, or w + T + 2 tau d once any of its n_d ranks is hit
  // (probability 1 - (1-p)^n_d). E[T] = sum over candidate values v of v (F(v) - F(v-)), with
  // F the product over levels. Counts up to 2^126 per level: the tail of the integral must not
  // multiply a rounding error by the count (a regression: 2^115 - 1 gave 7e13 s).
  const double w = 1e-3, tau = 2e-6, big_t = 0.5e-3, f = 0.01;
  const double p = f / (1 - f) * w / big_t;
  const auto spec = LawSpec{"bernoulli", {{"f", f}, {"T", big_t}}, "", {}, "noise"};
  for (int levels : {1, 10, 40, 80, 115, 120, 127}) {
    const auto m = test_model(pow2(levels) - 1, spec, w, tau);
    std::vector<double> low(levels), high(levels);
    for (int d = 0; d < levels; ++d) {
      low[d] = w + 2 * tau * d;
      high[d] = low[d] + big_t;
    }
    std::vector<double> values = low;
    values.insert(values.end(), high.begin(), high.end());
    std::sort(values.begin(), values.end());
    auto cdf = [&](double t) {
      double prod = 1.0;
      for (int d = 0; d < levels; ++d)
        prod *= t >= high[d]  ? 1.0
                : t >= low[d] ? std::exp(std::ldexp(1.0, d) * std::log1p(-p))
                              : 0.0;
      return prod;
    };
    double expected = 0.0, below = 0.0;
    for (double v : values) {
      const double at = cdf(v);
      expected += v * (at - below);
      below = at;
    }
    INFO("levels " << levels);
    CHECK(exact_mean_phase_time(m) == Approx(expected).epsilon(1e-9));
  }
}

TEST_CASE("exact mean: closed forms for a single rank") {
  // N = 1: T = w + s eta, E[T] = w (1 + f/(1-f)).
  for (const char* law : {"exponential", "uniform", "lognormal", "gamma", "weibull"}) {
    const auto m =
        test_model(1, LawSpec{law, {{"f", 0.2}, {"sigma", 0.5}, {"k", 2.0}}, "", {}, "noise"});
    INFO(law);
    CHECK(exact_mean_phase_time(m) == Approx(1e-3 * 1.25).epsilon(1e-10));
  }
  const auto e = test_model(1, LawSpec{"exponential", {{"f", 0.2}}, "", {}, "noise"});
  CHECK(*tree_theory(e, {0.5}).exact_sd.value == Approx(0.25e-3).epsilon(1e-9));
  CHECK(tree_theory(e, {0.5}).exact_quantiles[0] ==
        Approx(1e-3 + 0.25e-3 * std::log(2.0)).epsilon(1e-12));
}

TEST_CASE("Theorem 1 bounds contain the exact mean for full trees") {
  const std::vector<LawSpec> laws = {{"exponential", {{"f", 0.01}}, "", {}, "noise"},
                                     {"pareto", {{"f", 0.005}, {"a", 1.5}}, "", {}, "noise"},
                                     {"pareto", {{"f", 0.05}, {"a", 3.0}}, "", {}, "noise"},
                                     {"bernoulli", {{"p", 1e-3}, {"T", 2e-3}}, "", {}, "noise"},
                                     {"lognormal", {{"f", 0.1}, {"sigma", 1.0}}, "", {}, "noise"}};
  for (const auto& law : laws) {
    for (int k : {1, 2, 5, 10, 20, 40, 63}) {
      const auto m = test_model(pow2(k) - 1, law);
      const auto th = tree_theory(m, {0.5});
      INFO(law.law << " k=" << k);
      const double exact = *th.exact_mean.value;
      CHECK(*th.theorem1_lower.value <= exact * (1 + 1e-12));
      CHECK(*th.theorem1_lower_corrected.value <= exact * (1 + 1e-12));
      CHECK(exact <= *th.theorem1_upper.value * (1 + 1e-12));
      CHECK(*th.bound_lower.value <= exact * (1 + 1e-12));
    }
  }
}

TEST_CASE("non-full trees: printed Theorem 1 is null with a reason, general bounds hold") {
  const auto m = test_model(1000, LawSpec{"exponential", {{"f", 0.1}}, "", {}, "noise"});
  const auto th = tree_theory(m, {0.5});
  CHECK_FALSE(th.theorem1_lower.has_value());
  CHECK(th.theorem1_lower.reason.find("full tree") != std::string::npos);
  CHECK(*th.bound_lower.value <= *th.exact_mean.value);
  CHECK(*th.exact_mean.value <= *th.bound_upper.value);
}

TEST_CASE("Theorems 2-4 as printed") {
  const auto e = test_model(1023, LawSpec{"exponential", {{"f", 0.1}}, "", {}, "noise"});
  const double s = 1e-3 / 9.0;
  double h512 = 0;
  for (int k = 1; k <= 512; ++k) h512 += 1.0 / k;
  CHECK(*tree_theory(e, {0.5}).theorem2_lower.value == Approx(1e-3 + s * h512 + 2 * 2e-6 * 8));
  const auto p = test_model(1023, LawSpec{"pareto", {{"f", 0.1}, {"a", 2.0}}, "", {}, "noise"});
  CHECK(*tree_theory(p, {0.5}).theorem3_lower.value ==
        Approx(1e-3 + s * std::sqrt(512.0) * std::sqrt(0.5) + 2 * 2e-6 * 8));
  const auto b =
      test_model(1023, LawSpec{"bernoulli", {{"p", 0.01}, {"T", 1e-3}}, "", {}, "noise"});
  CHECK(*tree_theory(b, {0.5}).theorem4_lower.value ==
        Approx(1e-3 + 1e-3 * (1 - std::pow(0.99, 512)) + 2 * 2e-6 * 8));
}

TEST_CASE("heavy tails: infinite variance is null, not NaN") {
  const auto m = test_model(7, LawSpec{"pareto", {{"f", 0.01}, {"a", 1.5}}, "", {}, "noise"});
  const auto th = tree_theory(m, {0.5});
  CHECK_FALSE(th.exact_sd.has_value());
  CHECK(std::isfinite(*th.exact_mean.value));
}

TEST_CASE("tree barrier under time-based noise: worked example") {
  // N = 3, w = 10 us, tau = 1 us, 2 phases; rank 2 is unavailable on [5, 8) us.
  // Phase 1 (root starts at 0): root computes [0, 10]; ranks 1 and 2 start at 1: rank 1 ends 11,
  // rank 2 works [1, 5) and [8, 14). Root done at max(10, 11 + 1, 14 + 1) = 15.
  // Phase 2 (starts at 15): root [15, 25], ranks 1 and 2 [16, 26]; done at 27.
  ListedCpu cpu({{}, {}, {{5e-6, 8e-6}}});
  const auto r = simulate_timed_tree(TimedTreeSetup{3, 10e-6, 1e-6, 2}, cpu, 1);
  REQUIRE(r.phase_end.size() == 2);
  CHECK(r.phase_end[0] == Approx(15e-6).epsilon(1e-12));
  CHECK(r.phase_end[1] == Approx(27e-6).epsilon(1e-12));
  // Without noise each phase is w + 2 tau D, here 12 us.
  QuietCpu quiet;
  CHECK(simulate_timed_tree(TimedTreeSetup{3, 10e-6, 1e-6, 2}, quiet, 1).phase_end[1] ==
        Approx(24e-6).epsilon(1e-12));
}

TEST_CASE("tree barrier under time-based noise: any thread count, same bits") {
  const auto noise = periodic_noise(2e-5, 3e-6);
  const TimedTreeSetup setup{100000, 1e-5, 1e-6, 4};
  std::vector<double> first;
  for (int threads : {1, 2, 3}) {
    PatternCpu cpu(*noise.pattern, 9, setup.ranks);
    const auto r = simulate_timed_tree(setup, cpu, threads);
    if (first.empty()) first = r.phase_end;
    CHECK(r.phase_end == first);
  }
}
