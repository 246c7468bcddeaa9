#pragma once
// eta ~ Gamma(shape k, scale 1/k) (unit mean, variance 1/k).
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class GammaLaw final : public NoiseLaw {
 public:
  /// Precondition k > 0 (checked).
  explicit GammaLaw(double k, const std::string& param_name = "k");

  std::string name() const override { return "gamma"; }
  std::string describe() const override;
  double sf(double x) const override;
  double cdf(double x) const override;
  double isf(double s) const override;
  double isf_seconds() const override { return 2.2e-6; }  // Boost's iterative inverse
  double quantile(double p) const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;

 private:
  double k_;
};

/// The law as run files name it (distributions/laws.cpp).
LawKind gamma_law_kind();

}  // namespace collnoise
