// Isoefficiency with imbalance (docs/models/isoefficiency.md): closed forms for every family,
// fitted exponents, the non-scalable case, granularity imbalance by hand, and noise curves against
// the exact ones.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "distributions/exponential.hpp"
#include "distributions/pareto.hpp"
#include "engine/isoefficiency/imbalance.hpp"
#include "engine/isoefficiency/isoefficiency_study.hpp"
#include "engine/isoefficiency/overheads.hpp"
#include "engine/isoefficiency/simulated_overhead.hpp"

using namespace collnoise;

namespace {
// W such that E reaches 0.8 with p = 2 units/s: K = p E/(1-E) = 8.
constexpr double kP = 2.0, kE = 0.8, kK = 8.0;

// Per-stage noise only (no time-based noise).
CpuNoiseSpec stage_noise_only() {
  CpuNoiseSpec spec;
  spec.stage = make_stage_noise(LawSpec{"exponential", {{"f", 0.1}}, "", {}, "noise"}, 0.0);
  return spec;
}

double solve(OverheadFamily f, double c1, double c2, double m) {
  const Overhead o = overhead_of(f, c1, c2);
  return isoefficiency_w([&](double w) { return o(w, m); }, m, kP, kE).value();
}
}  // namespace

TEST_CASE("efficiency and isoefficiency against the closed forms of each family") {
  CHECK(efficiency(100.0, 4.0, 2.0, 0.5) == Approx(1.0 / (1.0 + 4.0 * 2.0 * 0.5 / 100.0)));
  for (double m : {1.0, 3.0, 64.0, 1e4}) {
    INFO("m = " << m);
    CHECK(solve(OverheadFamily::kConstant, 0.5, 0, m) == Approx(kK * m * 0.5).epsilon(1e-9));
    CHECK(solve(OverheadFamily::kLinearM, 0.25, 0.125, m) ==
          Approx(kK * m * (0.25 + 0.125 * m)).epsilon(1e-9));
    CHECK(solve(OverheadFamily::kInverseM, 0.5, 0, m) == Approx(kK * 0.5).epsilon(1e-9));
    CHECK(solve(OverheadFamily::kInverseW, 3.0, 0, m) ==
          Approx(std::sqrt(kK * m * 3.0)).epsilon(1e-9));
    if (m > 1)
      CHECK(solve(OverheadFamily::kLog2M, 0.5, 0, m) ==
            Approx(kK * m * 0.5 * std::log2(m)).epsilon(1e-9));
  }
  // proportional_w: E = 1/(1 + m p c) whatever W; reachable iff m <= (1/E - 1)/(p c) = 12.5.
  const Overhead prop = overhead_of(OverheadFamily::kProportionalW, 0.01, 0);
  CHECK(isoefficiency_w([&](double w) { return prop(w, 12.0); }, 12.0, kP, kE).has_value());
  CHECK_FALSE(isoefficiency_w([&](double w) { return prop(w, 13.0); }, 13.0, kP, kE).has_value());
  CHECK_FALSE(predicted_growth(OverheadFamily::kProportionalW).scalable);
  CHECK(*predicted_growth(OverheadFamily::kLinearM).exponent == 2.0);
  CHECK(*predicted_growth(OverheadFamily::kInverseW).exponent == 0.5);
  CHECK(*predicted_growth(OverheadFamily::kInverseM).exponent == 0.0);
  CHECK(*predicted_growth(OverheadFamily::kConstant).exponent == 1.0);
  CHECK_FALSE(predicted_growth(OverheadFamily::kLog2M).exponent.has_value());
}

TEST_CASE("fitted growth exponents recover the exponent of synthetic curves") {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0.0, 0.02);
  for (double b : {0.5, 1.0, 1.4, 2.0}) {
    std::vector<double> m, w;
    for (int k = 0; k <= 20; ++k) {
      m.push_back(std::ldexp(1.0, k));
      w.push_back(7.0 * std::pow(m.back(), b) * std::exp(noise(rng)));
    }
    const SlopeFit fit = log_log_slope(m, w, 0.99);
    INFO("b = " << b);
    CHECK(*fit.ci_low <= b);
    CHECK(b <= *fit.ci_high);
    CHECK(fit.slope == Approx(b).margin(0.01));
  }
  // m H_m is no power law: its fitted slope over 1 .. 2^20 lies between 1 and 1 + 1/H_1.
  std::vector<double> m, w;
  for (int k = 0; k <= 20; ++k) {
    m.push_back(std::ldexp(1.0, k));
    w.push_back(m.back() * harmonic_number(m.back()));
  }
  const SlopeFit fit = log_log_slope(m, w, 0.95);
  CHECK(fit.slope > 1.0);
  CHECK(fit.slope < 1.3);
}

TEST_CASE("granularity imbalance by hand") {
  std::vector<double> loads;
  const Pcg32 stream = make_stream(1);
  // 10 equal jobs on 3 nodes: blocks [0,3) [3,6) [6,10) and cyclically 4, 3, 3 jobs: the busiest
  // node has 4 units, 2/3 above the mean 10/3.
  CHECK(granularity_excess(10.0, 3, 1.0, nullptr, Assignment::kBlock, stream, loads) ==
        Approx(2.0 / 3.0).epsilon(1e-12));
  CHECK(granularity_excess(10.0, 3, 1.0, nullptr, Assignment::kCyclic, stream, loads) ==
        Approx(2.0 / 3.0).epsilon(1e-12));
  // 10 jobs on 5 nodes: perfectly balanced; on 20 nodes, ten idle: the busiest has 1 unit of 0.5.
  CHECK(granularity_excess(10.0, 5, 1.0, nullptr, Assignment::kBlock, stream, loads) ==
        Approx(0.0).margin(1e-12));
  CHECK(granularity_excess(10.0, 20, 1.0, nullptr, Assignment::kCyclic, stream, loads) ==
        Approx(0.5).epsilon(1e-12));
  // Jobs of 2.5 units (W = 10 in 4 jobs) on 3 nodes: 2, 1, 1 jobs: 5 - 10/3.
  CHECK(granularity_excess(10.0, 3, 2.5, nullptr, Assignment::kCyclic, stream, loads) ==
        Approx(5.0 - 10.0 / 3.0).epsilon(1e-12));
  // Random sizes and nodes: the work is conserved, the excess is never negative, and the same
  // stream gives the same answer (common random numbers).
  const ExponentialLaw sizes;
  for (std::uint64_t k = 0; k < 20; ++k) {
    const double a =
        granularity_excess(100.0, 7, 1.0, &sizes, Assignment::kRandom, make_stream(k), loads);
    double total = 0;
    for (double x : loads) total += x;
    CHECK(a >= 0.0);
    CHECK(a ==
          granularity_excess(100.0, 7, 1.0, &sizes, Assignment::kRandom, make_stream(k), loads));
  }
}

TEST_CASE("the largest of m delays, drawn exactly, has the exact mean") {
  const ExponentialLaw e;
  const ParetoLaw p(3.0);
  for (double m : {1.0, 10.0, 1e6}) {
    Pcg32 stream = make_stream(static_cast<std::uint64_t>(m));
    double sum_e = 0, sum2_e = 0, sum_p = 0;
    const int n = 20000;
    for (int k = 0; k < n; ++k) {
      const double y = max_of_iid(e, m, stream);
      sum_e += y;
      sum2_e += y * y;
      sum_p += max_of_iid(p, m, stream);
    }
    const double mean = sum_e / n;
    const double se = std::sqrt((sum2_e / n - mean * mean) / n);
    INFO("m = " << m);
    CHECK(std::abs(mean - harmonic_number(m)) < 4.0 * se);  // 6 checks: family-wise < 4e-4
    CHECK(sum_p / n == Approx(p.expected_max(m)).epsilon(0.03));
  }
}

TEST_CASE(
    "simulated communication overheads: tree barrier against its exact mean, butterfly "
    "against its closed form") {
  TreeBarrierModel tree;
  tree.w = 1e-3;
  tree.tau = 2e-6;
  tree.noise = make_stage_noise(LawSpec{"exponential", {{"f", 0.01}}, "", {}, "noise"}, tree.w);
  const auto tree_o = tree_barrier_overhead(tree, 4000);
  int covered = 0;
  for (double m : {1.0, 7.0, 1000.0, 1e6}) {
    const SimulatedOverhead o = tree_o(m, 2, 11, 0.99);
    REQUIRE(o.exact);
    REQUIRE(o.low);
    REQUIRE(o.high);
    CHECK(o.method == "student_t");
    covered += *o.low <= *o.exact && *o.exact <= *o.high;
    // The same draws whatever the thread count.
    CHECK(tree_o(m, 1, 11, 0.99).mean == o.mean);
  }
  CHECK(covered >= 3);  // 99% intervals: P(two of four miss) < 6e-4

  // Without work, per-stage noise cannot touch a butterfly: every sample is the closed form,
  // log2(m) rounds of 2o + L + (s-1)(G + 2O).
  CycleSetup setup;
  setup.work = 0.0;
  const auto bfly = butterfly_overhead(setup, stage_noise_only(), 5);
  const SimulatedOverhead b = bfly(16.0, 1, 3, 0.95);
  REQUIRE(b.exact);
  CHECK(b.mean == Approx(4 * setup.net.noiseless_round()).epsilon(1e-12));
  CHECK(*b.exact == Approx(b.mean).epsilon(1e-12));
}

TEST_CASE("the efficiency surface under proportional delays uses each node count's own T_q") {
  // With delays in proportion to each node's work the efficiency does not depend on W, so every
  // surface value at node count m must equal that m's efficiency at any W (computed while its row
  // was solved). A T_q that kept a reference to a node count past its row gave the surface of
  // another m.
  IsoefficiencySpec s;
  s.target = 0.5;
  s.p = 1.0e6;
  s.m = {2.0, 64.0, 4096.0};
  s.surface_w = {1.0e3, 1.0e6};
  s.samples = 1000;
  s.imbalance = IsoefficiencySpec::Imbalance::kNoise;
  s.proportional = true;
  s.overhead = 0.1 / 0.9;
  s.law = std::make_shared<const ExponentialLaw>();
  IsoefficiencyStudy study(s);
  study.set_stream_key(7);
  const Record r = study.analyse(1, {}).record;
  const auto series = [&](const char* key) { return std::get<Series>(*r.find(key)); };
  const Series any_w = series("efficiency_any_W");
  const Series surface_m = series("surface_m");
  const Series surface_e = series("surface_E");
  REQUIRE(any_w.size() == 3);
  REQUIRE(surface_e.size() == 6);
  for (std::size_t k = 0; k < surface_e.size(); ++k) {
    const std::size_t i = k / 2;
    INFO("surface value " << k);
    CHECK(*surface_m[k] == s.m[i]);
    CHECK(*surface_e[k] == Approx(*any_w[i]).epsilon(1e-12));
  }
  // The three node counts have different efficiencies: the check above tells them apart.
  CHECK(*any_w[0] > *any_w[1]);
  CHECK(*any_w[1] > *any_w[2]);
}
