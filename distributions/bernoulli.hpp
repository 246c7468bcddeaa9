#pragma once
// Bernoulli noise (Agarwal et al.): the stage takes w + T with probability p, else w. As a
// unit-mean law, eta = B/p with B ~ Bernoulli(p), and the stage scale is s = p T (seconds), so
// s * eta = T B. E[max of n (T B)] = T (1 - (1-p)^n).
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class BernoulliLaw final : public NoiseLaw {
 public:
  /// Precondition 0 < p <= 1 (checked; p = 0 is the `none` law, built by the factory).
  explicit BernoulliLaw(double p, const std::string& param_name = "p");

  std::string name() const override { return "bernoulli"; }
  std::string describe() const override;
  double sf(double x) const override;
  double isf(double s) const override;
  double support_max() const override { return 1.0 / p_; }
  double isf_seconds() const override { return 1.0e-9; }
  double quantile(double q) const override;
  std::vector<double> breakpoints() const override { return {0.0, 1.0 / p_}; }
  bool is_discrete() const override { return true; }
  double expected_max(double n) const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;
  /// Theorem 4: T (1 - (1-p)^leaves) = s E[max of leaves eta].
  std::optional<TreeBarrierBound> tree_barrier_bound(double leaves, double scale) const override;
  /// 2/f.
  std::optional<LawFormula> nhalf_approximation(double overhead, double w,
                                                double tau) const override;

 private:
  double p_;
};

/// The law as run files name it (distributions/laws.cpp).
LawKind bernoulli_law_kind();

}  // namespace collnoise
