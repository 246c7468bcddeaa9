#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "core/rng.hpp"
#include "distributions/law_spec.hpp"
#include "engine/tree_barrier/sampler.hpp"
#include "engine/tree_barrier/tree_theory.hpp"
#include "estimators/accumulator.hpp"
#include "tests/fixtures/tree_barrier_models.hpp"

using namespace collnoise;

namespace {

std::vector<double> phases(const TreeBarrierModel& m, TreeSampling path, std::uint64_t key,
                           std::size_t count, int threads = 2) {
  std::vector<double> out(count);
  TreeBarrierSampler(m, path, key).sample(0, out, threads);
  return out;
}

// Two-sample Kolmogorov-Smirnov statistic.
double ks_statistic(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  double d = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::abs(double(i) / a.size() - double(j) / b.size()));
  }
  return d;
}
}  // namespace

TEST_CASE("per-rank sampling is exactly 'transform every rank, take the max'") {
  // Rebuild one phase by brute force from the same words.
  const auto m = test_model(300000, LawSpec{"pareto", {{"f", 0.05}, {"a", 2.5}}, "", {}, "noise"});
  const std::uint64_t key = 99;
  const TreeBarrierSampler sampler(m, TreeSampling::kPerRank, key);
  for (std::uint64_t phase : {0ULL, 7ULL}) {
    const std::uint64_t pkey = hash_combine(
        hash_combine(key, static_cast<std::uint64_t>(StreamPurpose::kTreePerRank)), phase);
    double brute = 0.0;
    const std::uint64_t n = 300000;
    for (std::uint64_t b = 0; b * TreeBarrierSampler::kBlockRanks < n; ++b) {
      Pcg32Lanes lanes(hash_combine(pkey, b));
      std::vector<std::uint64_t> words(TreeBarrierSampler::kBlockRanks);
      lanes.fill(words);
      for (std::uint64_t j = 0;
           j < TreeBarrierSampler::kBlockRanks && b * TreeBarrierSampler::kBlockRanks + j < n;
           ++j) {
        const std::uint64_t rank = b * TreeBarrierSampler::kBlockRanks + j;
        const int depth = 63 - __builtin_clzll(rank + 1);
        brute =
            std::max(brute, m.w + m.noise.scale * m.noise.eta->isf(uniform_from_word(words[j])) +
                                2 * m.tau * depth);
      }
    }
    CHECK(sampler.phase_time(phase) == brute);
  }
}

TEST_CASE("phase times are bitwise identical for 1, 2 and 5 threads") {
  for (auto path : {TreeSampling::kPerRank, TreeSampling::kPerLevel}) {
    const auto m = test_model(200000, LawSpec{"exponential", {{"f", 0.1}}, "", {}, "noise"});
    const auto one = phases(m, path, 5, 64, 1);
    CHECK(one == phases(m, path, 5, 64, 2));
    CHECK(one == phases(m, path, 5, 64, 5));
    std::vector<double> tail(32);
    TreeBarrierSampler(m, path, 5).sample(32, tail, 3);  // a later start gives the same phases
    CHECK(std::equal(tail.begin(), tail.end(), one.begin() + 32));
  }
}

TEST_CASE("per-rank and per-level paths agree in distribution (KS)") {
  for (const auto& law : {LawSpec{"exponential", {{"f", 0.1}}, "", {}, "noise"},
                          LawSpec{"pareto", {{"f", 0.01}, {"a", 1.5}}, "", {}, "noise"},
                          LawSpec{"lognormal", {{"f", 0.1}, {"sigma", 1.0}}, "", {}, "noise"}}) {
    const auto m = test_model(5000, law);
    const auto a = phases(m, TreeSampling::kPerRank, 11, 4000);
    const auto b = phases(m, TreeSampling::kPerLevel, 11, 4000);
    // Critical value at alpha = 0.001 (three laws: family-wise < 0.003): 1.95 sqrt(2/n).
    INFO(law.law);
    CHECK(ks_statistic(a, b) < 1.95 * std::sqrt(2.0 / 4000));
  }
}

TEST_CASE("per-rank and per-level paths agree on Bernoulli atoms (chi-square)") {
  const auto m = test_model(100, LawSpec{"bernoulli", {{"p", 0.002}, {"T", 1e-3}}, "", {}, "noise"},
                            1e-3, 1e-5);
  const auto a = phases(m, TreeSampling::kPerRank, 3, 20000);
  const auto b = phases(m, TreeSampling::kPerLevel, 3, 20000);
  std::map<double, std::pair<double, double>> table;
  for (double x : a) table[x].first += 1;
  for (double x : b) table[x].second += 1;
  double chi2 = 0;
  int cells = 0;
  for (const auto& [x, c] : table) {
    const double total = c.first + c.second;
    if (total < 10) continue;
    chi2 += (c.first - total / 2) * (c.first - total / 2) / (total / 2) +
            (c.second - total / 2) * (c.second - total / 2) / (total / 2);
    ++cells;
  }
  REQUIRE(cells >= 3);
  const boost::math::chi_squared dist(cells - 1);
  CHECK(chi2 < boost::math::quantile(dist, 0.999));
}

TEST_CASE("sample means match the exact mean (closed forms against Monte Carlo)", "[heavy]") {
  for (const auto& law : {LawSpec{"exponential", {{"f", 0.1}}, "", {}, "noise"},
                          LawSpec{"uniform", {{"f", 0.3}}, "", {}, "noise"},
                          LawSpec{"gamma", {{"f", 0.1}, {"k", 2.0}}, "", {}, "noise"},
                          LawSpec{"weibull", {{"f", 0.1}, {"k", 0.8}}, "", {}, "noise"}}) {
    for (auto path : {TreeSampling::kPerRank, TreeSampling::kPerLevel}) {
      const auto m = test_model(1023, law);
      Accumulator acc;
      for (double t : phases(m, path, 17, 20000)) acc.add(t);
      const double exact = exact_mean_phase_time(m);
      INFO(law.law << " path " << int(path));
      // 8 laws x paths: |z| < 3.5 keeps the family-wise false alarm rate below 0.4%.
      CHECK(std::abs(acc.mean - exact) < 3.5 * acc.sd() / std::sqrt(20000.0));
    }
  }
}

TEST_CASE("per-level path reaches N = 2^127 - 1") {
  const auto m =
      test_model(~RankCount{0} >> 1, LawSpec{"exponential", {{"f", 0.01}}, "", {}, "noise"});
  Accumulator acc;
  for (double t : phases(m, TreeSampling::kPerLevel, 1, 5000)) acc.add(t);
  CHECK(std::abs(acc.mean - exact_mean_phase_time(m)) < 4 * acc.sd() / std::sqrt(5000.0));
}
