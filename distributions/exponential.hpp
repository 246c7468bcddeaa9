#pragma once
// eta ~ Exp(1). E[max of n] = H_n, the n-th harmonic number.
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class ExponentialLaw final : public NoiseLaw {
 public:
  std::string name() const override { return "exponential"; }
  double sf(double x) const override;
  double cdf(double x) const override;
  double log_cdf(double x) const override;
  double isf(double s) const override;
  double quantile(double p) const override;
  double expected_max(double n) const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;
  /// Theorem 2: s H_leaves.
  std::optional<TreeBarrierBound> tree_barrier_bound(double leaves, double scale) const override;
  /// exp(1 / (f/(1-f) + 2 tau/(w ln 2))).
  std::optional<LawFormula> nhalf_approximation(double overhead, double w,
                                                double tau) const override;
  std::optional<std::string> max_growth_note() const override;
};

/// H_n = sum_{k<=n} 1/k for real n >= 0 (psi(n+1) + gamma), exact to rounding for all n.
double harmonic_number(double n);

/// The law as run files name it (distributions/laws.cpp).
LawKind exponential_law_kind();

}  // namespace collnoise
