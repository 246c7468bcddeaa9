#pragma once
// eta = X / Gamma(1 + 1/k), X ~ Weibull(shape k, scale 1): P(eta > x) = exp(-(lambda x)^k) with
// lambda = Gamma(1 + 1/k) (unit mean). k < 1 is a stretched-exponential (subexponential) tail.
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class WeibullLaw final : public NoiseLaw {
 public:
  /// Precondition k > 0 (checked).
  explicit WeibullLaw(double k, const std::string& param_name = "k");

  std::string name() const override { return "weibull"; }
  std::string describe() const override;
  double sf(double x) const override;
  double cdf(double x) const override;
  double isf(double s) const override;
  double isf_seconds() const override { return 1.6e-7; }
  double quantile(double p) const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;

 private:
  double k_;
  double lambda_;
};

/// The law as run files name it (distributions/laws.cpp).
LawKind weibull_law_kind();

}  // namespace collnoise
