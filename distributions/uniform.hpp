#pragma once
// eta ~ U[0, 2] (unit mean, bounded).
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class UniformLaw final : public NoiseLaw {
 public:
  std::string name() const override { return "uniform"; }
  double sf(double x) const override;
  double cdf(double x) const override;
  double isf(double s) const override { return 2.0 * (1.0 - s); }
  double support_max() const override { return 2.0; }
  double quantile(double p) const override { return 2.0 * p; }
  std::vector<double> breakpoints() const override { return {0.0, 2.0}; }
  double expected_max(double n) const override { return 2.0 * n / (n + 1.0); }
  double mean_excess(double x) const override;
  double second_excess(double x) const override;
};

/// The law as run files name it (distributions/laws.cpp).
LawKind uniform_law_kind();

}  // namespace collnoise
