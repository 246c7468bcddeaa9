#pragma once
// eta = exp(sigma Z - sigma^2/2), Z standard normal (unit mean; all moments finite).
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class LognormalLaw final : public NoiseLaw {
 public:
  /// Precondition sigma > 0 (checked).
  explicit LognormalLaw(double sigma, const std::string& param_name = "sigma");

  std::string name() const override { return "lognormal"; }
  std::string describe() const override;
  double sf(double x) const override;
  double cdf(double x) const override;
  double isf(double s) const override;
  double isf_seconds() const override { return 3.0e-7; }
  double quantile(double p) const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;

 private:
  double sigma_;
};

/// The law as run files name it (distributions/laws.cpp).
LawKind lognormal_law_kind();

}  // namespace collnoise
