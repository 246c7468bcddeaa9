#pragma once
// Any unit-mean law with its delays capped (docs/models/noise-laws.md): with X from the base
// law and a cap c > 0 on X,
//   eta = min(X, c) / m,   m = E[min(X, c)] = 1 - E[(X - c)^+],
// so eta has unit mean again and f keeps its meaning (the fraction of time in noise). The cap
// models a machine that never stalls longer than some bound (a watchdog, a time slice); every
// tail becomes bounded. S_eta(x) = S_X(x m) for x m < c and 0 beyond: an atom at c/m of mass
// S_X(c). E[max of n] = (1/m) integral over [0, c] of (1 - F_X(y)^n) dy.
#include <memory>

#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class TruncatedLaw final : public NoiseLaw {
 public:
  /// Preconditions (checked; InputError naming `param_name`): cap > 0, and a base law with
  /// noise (E[min(X, cap)] > 0).
  TruncatedLaw(std::shared_ptr<const NoiseLaw> base, double cap, const std::string& param_name);

  std::string name() const override { return "truncated"; }
  std::string describe() const override;
  double sf(double x) const override;
  double cdf(double x) const override;
  double isf(double s) const override;
  double quantile(double p) const override;
  double tail_index() const override { return std::numeric_limits<double>::infinity(); }
  double support_min() const override;
  double support_max() const override { return cap_ / m_; }
  std::vector<double> breakpoints() const override;
  bool is_discrete() const override { return base_->is_discrete(); }
  double isf_seconds() const override { return base_->isf_seconds() + 2.0e-9; }
  double mean_excess(double x) const override;
  double second_excess(double x) const override;

  /// The cap on X, and the mean m of min(X, cap).
  double cap() const { return cap_; }
  double capped_mean() const { return m_; }

 private:
  std::shared_ptr<const NoiseLaw> base_;
  double cap_;
  double m_;
};

/// The law as run files name it (distributions/laws.cpp).
LawKind truncated_law_kind();

}  // namespace collnoise
