// The theory a law brings by itself (NoiseLaw::tree_barrier_bound, nhalf_approximation,
// max_growth_note): a law the engine has never heard of gains Agarwal et al.'s theorem fields and
// an N_1/2 formula by overriding members of its own class, and the engine never asks its name.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "distributions/law_spec.hpp"
#include "distributions/noise_law.hpp"
#include "engine/tree_barrier/nhalf.hpp"
#include "engine/tree_barrier/tree_theory.hpp"

using namespace collnoise;

namespace {

// eta = 2U, U uniform on (0, 1): bounded, unit mean. Its theory is made up: it claims
// Theorem 4 with the noise term scale * leaves / 1000, and N_1/2 = 1 / overhead.
class TwiceUniformLaw final : public NoiseLaw {
 public:
  std::string name() const override { return "twice_uniform"; }
  double sf(double x) const override { return x <= 0.0 ? 1.0 : x >= 2.0 ? 0.0 : 1.0 - x / 2.0; }
  double isf(double s) const override { return 2.0 * (1.0 - s); }
  double support_max() const override { return 2.0; }
  std::optional<TreeBarrierBound> tree_barrier_bound(double leaves, double scale) const override {
    return TreeBarrierBound{4, scale * leaves / 1000.0};
  }
  std::optional<LawFormula> nhalf_approximation(double overhead, double, double) const override {
    return LawFormula{1.0 / overhead, "1 / (f/(1-f))"};
  }
};

TreeBarrierModel model_of(std::shared_ptr<const NoiseLaw> law, RankCount n) {
  TreeBarrierModel m;
  m.shape = TreeShape(n);
  m.w = 1e-3;
  m.tau = 2e-6;
  m.noise = scaled_by_overhead(std::move(law), 0.2, m.w);  // scale = w/4, overhead 1/4
  return m;
}

}  // namespace

TEST_CASE("a law's own theory: its theorem and N_1/2 formula reach the engine") {
  const auto m = model_of(std::make_shared<const TwiceUniformLaw>(), 1023);
  const TreeTheory th = tree_theory(m, {0.5});
  // Leaves (N+1)/2 = 512, printed latency 2 tau (log2(N+1) - 2) = 2 x 2e-6 x 8.
  REQUIRE(th.theorem4_lower.has_value());
  CHECK(*th.theorem4_lower.value == 1e-3 + 0.25e-3 * 512.0 / 1000.0 + 2.0 * 2e-6 * 8.0);
  CHECK_FALSE(th.theorem2_lower.has_value());
  CHECK(th.theorem2_lower.reason == "not defined for twice_uniform noise");
  CHECK_FALSE(th.theorem3_lower.has_value());
  // Only full trees have the printed theorems.
  CHECK_FALSE(tree_theory(model_of(std::make_shared<const TwiceUniformLaw>(), 1000), {0.5})
                  .theorem4_lower.has_value());

  const PaperApprox approx = nhalf_paper_approx(m);
  REQUIRE(approx.value.has_value());
  CHECK(*approx.value.value == 4.0);
  CHECK(approx.formula == "1 / (f/(1-f))");
}

TEST_CASE("a law without theory of its own: the missing values say why") {
  const auto m = model_of(make_law(LawSpec{"uniform", {}, "", {}, "noise"}), 1023);
  const TreeTheory th = tree_theory(m, {0.5});
  CHECK_FALSE(th.theorem2_lower.has_value());
  CHECK_FALSE(th.theorem4_lower.has_value());
  CHECK(th.theorem4_lower.reason == "not defined for uniform noise");
  const PaperApprox approx = nhalf_paper_approx(m);
  CHECK_FALSE(approx.value.has_value());
  CHECK(approx.value.reason == "the paper gives no N_1/2 formula for uniform noise");
  CHECK(approx.formula.empty());
}

TEST_CASE("the paper's laws declare their theory themselves") {
  const auto exponential = make_law(LawSpec{"exponential", {}, "", {}, "noise"});
  const auto pareto = make_law(LawSpec{"pareto", {{"a", 2.0}}, "", {}, "noise"});
  const auto bernoulli = make_law(LawSpec{"bernoulli", {{"p", 0.5}}, "", {}, "noise"});
  CHECK(exponential->tree_barrier_bound(4.0, 2.0)->theorem == 2);
  CHECK(exponential->tree_barrier_bound(4.0, 2.0)->noise_term == 2.0 * (1 + 0.5 + 1.0 / 3 + 0.25));
  CHECK(pareto->tree_barrier_bound(4.0, 2.0)->theorem == 3);
  // c_2 = (1/2)^(1/2): 2 x 4^(1/2) x c_2.
  CHECK(pareto->tree_barrier_bound(4.0, 2.0)->noise_term == Approx(4.0 * std::sqrt(0.5)));
  CHECK(bernoulli->tree_barrier_bound(4.0, 2.0)->theorem == 4);
  // T (1 - (1-p)^4) with s = p T: s (1 - 1/16) / p.
  CHECK(bernoulli->tree_barrier_bound(4.0, 2.0)->noise_term == Approx(2.0 * (15.0 / 16.0) / 0.5));
  CHECK(bernoulli->nhalf_approximation(0.25, 1e-3, 0.0)->value == Approx(10.0));
  // Only the exponential law explains why its light tail's growth is no power law.
  CHECK(exponential->max_growth_note() ==
        std::optional<std::string>("m H_m is not a power law (its log-log slope is 1 + 1/H_m)"));
  CHECK_FALSE(pareto->max_growth_note());
  CHECK_FALSE(make_law(LawSpec{"gamma", {{"k", 2.0}}, "", {}, "noise"})->max_growth_note());
}
