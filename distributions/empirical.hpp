#pragma once
// Resampled measured delays. The file holds one delay per line, in seconds (blank lines and
// '#' comments allowed). eta = d / mean(d), drawn uniformly from the measured values, so the
// law is discrete with an atom at every measured value.
#include <span>
#include <string>
#include <vector>

#include "distributions/law_kind.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class EmpiricalLaw final : public NoiseLaw {
 public:
  /// Reads `path`; InputError naming the file (and line) if it is missing, empty, malformed,
  /// negative or all zero.
  static EmpiricalLaw from_file(const std::string& path);
  /// Precondition: delays non-empty, all finite and >= 0, mean > 0 (checked).
  EmpiricalLaw(std::vector<double> delays_seconds, std::string source);

  std::string name() const override { return "empirical"; }
  std::string describe() const override;
  double sf(double x) const override;
  double isf(double s) const override;
  double quantile(double p) const override;
  std::vector<double> breakpoints() const override;
  bool is_discrete() const override { return true; }
  double support_max() const override { return eta_.back(); }
  double expected_max(double n) const override;
  double mean_excess(double x) const override;
  double second_excess(double x) const override;

  /// Mean of the measured delays, seconds: the stage scale when no f is given.
  double mean_delay_seconds() const { return mean_delay_; }
  std::size_t size() const { return eta_.size(); }

 private:
  std::size_t count_above(double x) const;

  std::vector<double> eta_;         ///< sorted ascending, unit mean
  std::vector<double> suffix_sum_;  ///< suffix_sum_[i] = sum of eta_[i..]
  std::vector<double> suffix_sq_;   ///< suffix_sq_[i] = sum of eta_[i..]^2
  double mean_delay_ = 0.0;
  std::string source_;
};

/// The law as run files name it (distributions/laws.cpp).
LawKind empirical_law_kind();

}  // namespace collnoise
