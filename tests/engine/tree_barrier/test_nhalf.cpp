#include <catch2/catch.hpp>
#include <cmath>

#include "distributions/law_spec.hpp"
#include "engine/tree_barrier/nhalf.hpp"
#include "engine/tree_barrier/tree_theory.hpp"

using namespace collnoise;

namespace {
TreeBarrierModel model(LawSpec spec) {
  TreeBarrierModel m;
  m.w = 1e-3;
  m.tau = 2e-6;  // tau/w = 0.002, as docs/models/tree-barrier.md fixes for the paper's numbers
  m.noise = make_stage_noise(spec, m.w);
  return m;
}
bool three_sig(double value, double quoted) {
  return std::abs(value / quoted - 1) < 5e-3;
}
}  // namespace

TEST_CASE("the paper's eight N_1/2 values from its approximate formulas") {
  CHECK(three_sig(
      *nhalf_paper_approx(model({"exponential", {{"f", 0.01}}, "", {}, "noise"})).value.value,
      2.3e27));
  CHECK(three_sig(
      *nhalf_paper_approx(model({"exponential", {{"f", 0.1}}, "", {}, "noise"})).value.value,
      5196));
  CHECK(three_sig(
      *nhalf_paper_approx(model({"pareto", {{"f", 0.005}, {"a", 3}}, "", {}, "noise"})).value.value,
      35.4e6));
  CHECK(three_sig(
      *nhalf_paper_approx(model({"pareto", {{"f", 0.005}, {"a", 2}}, "", {}, "noise"})).value.value,
      158404));
  CHECK(
      three_sig(*nhalf_paper_approx(model({"pareto", {{"f", 0.005}, {"a", 1.5}}, "", {}, "noise"}))
                     .value.value,
                9724));
  CHECK(three_sig(
      *nhalf_paper_approx(model({"pareto", {{"f", 0.01}, {"a", 2}}, "", {}, "noise"})).value.value,
      39203));
  CHECK(three_sig(
      *nhalf_paper_approx(model({"pareto", {{"f", 0.02}, {"a", 2}}, "", {}, "noise"})).value.value,
      9604));
  CHECK(three_sig(
      *nhalf_paper_approx(model({"bernoulli", {{"f", 0.01}, {"T", 5e-3}}, "", {}, "noise"}))
           .value.value,
      200));
}

TEST_CASE("exact N_1/2 is the first N with E[T] >= 2w") {
  const auto m = model({"exponential", {{"f", 0.1}}, "", {}, "noise"});
  const auto r = exact_nhalf(m, false);
  REQUIRE(r.found);
  CHECK(r.resolved);
  CHECK(mean_at_n(m, r.n) >= 2e-3);
  CHECK(mean_at_n(m, r.n - 1) < 2e-3);
  const auto full = exact_nhalf(m, true);
  CHECK(full.n == pow2(floor_log2(full.n + 1)) - 1);
  CHECK(full.n >= r.n);
  CHECK(mean_at_n(m, (full.n - 1) / 2) < 2e-3);
}

TEST_CASE("exact N_1/2 near 1e27 is reported as unresolved with a range", "[nhalf]") {
  const auto r = exact_nhalf(model({"exponential", {{"f", 0.01}}, "", {}, "noise"}), false);
  REQUIRE(r.found);
  CHECK_FALSE(r.resolved);
  CHECK(r.low <= r.n);
  CHECK(r.n <= r.high);
  CHECK(to_double(r.n) > 1e26);
}
