#pragma once
// A weighted mixture of unit-mean laws, rescaled to unit mean: eta = X / E[X], where X is drawn
// from component j with probability weight_j. Sampling is by the exact generalised inverse of
// the mixture's survival function (bisection to the last bit), so the engine's per-level
// extreme trick stays exact.
#include <memory>
#include <vector>

#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

struct MixtureComponent {
  std::shared_ptr<const NoiseLaw> law;
  double weight = 0.0;  ///< > 0; weights are normalised to sum 1
};

class MixtureLaw final : public NoiseLaw {
 public:
  /// Preconditions: at least one component, weights finite and > 0, E[X] > 0 (checked).
  MixtureLaw(std::vector<MixtureComponent> components, const std::string& param_name);

  std::string name() const override { return "mixture"; }
  std::string describe() const override;
  double sf(double x) const override;
  double cdf(double x) const override;
  double isf(double s) const override;
  /// A bisection over the components' survival functions.
  double isf_seconds() const override;
  double quantile(double p) const override;
  double tail_index() const override;
  double support_min() const override;
  double support_max() const override;
  std::vector<double> breakpoints() const override;
  bool is_discrete() const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;

 private:
  std::vector<MixtureComponent> components_;
  double raw_mean_ = 1.0;  ///< E[X] before rescaling
};

/// The law as run files name it (distributions/laws.cpp).
LawKind mixture_law_kind();

}  // namespace collnoise
