#pragma once
// eta = ((a-1)/a) X with P(X > x) = x^-a for x >= 1 (unit mean; heavy tail of index a > 1,
// infinite variance for a <= 2). E[max of n X] = Gamma(n+1) Gamma(1-1/a) / Gamma(n+1-1/a).
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class ParetoLaw final : public NoiseLaw {
 public:
  /// Precondition a > 1 (checked; InputError naming `param_name`).
  explicit ParetoLaw(double a, const std::string& param_name = "a");

  std::string name() const override { return "pareto"; }
  std::string describe() const override;
  double sf(double x) const override;
  double cdf(double x) const override;
  double isf(double s) const override;
  double quantile(double p) const override;
  double tail_index() const override { return a_; }
  double support_min() const override { return c_; }
  double expected_max(double n) const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;
  /// Theorem 3: s c_a leaves^(1/a), c_a = ((a-1)/a)^(1-1/a).
  std::optional<TreeBarrierBound> tree_barrier_bound(double leaves, double scale) const override;
  /// min(2 ((1-f)/(f c_a))^a, 2^(w/(2 tau) + 2)): noise alone or latency alone reaching w.
  std::optional<LawFormula> nhalf_approximation(double overhead, double w,
                                                double tau) const override;

  double a() const { return a_; }

 private:
  double a_;
  double c_;            ///< (a-1)/a, the lower end of eta's support
  double zero_beyond_;  ///< x/c beyond which S(x) underflows to 0: e^(747/a), with a margin
};

/// Gamma(z) / Gamma(z - delta) for z >= 1, 0 <= delta < 1: boost's ratio for moderate z, the
/// asymptotic (Tricomi-Erdelyi) expansion beyond z = 1e6, where lgamma differences cancel.
double gamma_ratio(double z, double delta);

/// The law as run files name it (distributions/laws.cpp).
LawKind pareto_law_kind();

}  // namespace collnoise
