#pragma once
// No noise: eta = 0 (the only law whose mean is not 1).
#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class NoneLaw final : public NoiseLaw {
 public:
  std::string name() const override { return "none"; }
  double sf(double x) const override { return x < 0.0 ? 1.0 : 0.0; }
  double cdf(double x) const override { return x < 0.0 ? 0.0 : 1.0; }
  double isf(double /*s*/) const override { return 0.0; }
  double quantile(double /*p*/) const override { return 0.0; }
  double mean() const override { return 0.0; }
  double support_max() const override { return 0.0; }
  bool is_discrete() const override { return true; }
  double expected_max(double /*n*/) const override { return 0.0; }
  double mean_excess(double x) const override { return x < 0.0 ? -x : 0.0; }
  double second_excess(double x) const override { return x < 0.0 ? -0.5 * x * x : 0.0; }
};

/// The law as run files name it (distributions/laws.cpp).
LawKind none_law_kind();

}  // namespace collnoise
