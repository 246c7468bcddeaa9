#pragma once
// The log-logistic law of shape beta, rescaled to unit mean (docs/models/noise-laws.md):
//   P(eta > x) = 1 / (1 + (x/alpha)^beta),   alpha = beta sin(pi/beta) / pi,
// a heavy tail of index beta (beta > 1 for a finite mean; infinite variance for beta <= 2),
// lighter than Pareto's near zero. E[max of n] = alpha Gamma(1 - 1/beta) Gamma(n + 1/beta) /
// Gamma(n), exact for real n >= 1.
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class LogLogisticLaw final : public NoiseLaw {
 public:
  /// Precondition 1.001 <= beta <= 1000 (checked; InputError naming `param_name`).
  explicit LogLogisticLaw(double beta, const std::string& param_name = "beta");

  std::string name() const override { return "loglogistic"; }
  std::string describe() const override;
  double sf(double x) const override;
  double cdf(double x) const override;
  double log_cdf(double x) const override;
  double isf(double s) const override;
  double quantile(double p) const override;
  double tail_index() const override { return beta_; }
  double isf_seconds() const override { return 8.0e-8; }
  double expected_max(double n) const override;

  double beta() const { return beta_; }
  double alpha() const { return alpha_; }

 private:
  double beta_;
  double alpha_;  ///< the scale that makes the mean 1
};

/// The law as run files name it (distributions/laws.cpp).
LawKind loglogistic_law_kind();

}  // namespace collnoise
