#pragma once
// A per-stage noise law (docs/models/noise-laws.md): the distribution of the dimensionless,
// unit-mean variable eta >= 0. A stage of nominal length w seconds then takes w + s * eta seconds,
// with the scale s in seconds (s = w f/(1-f) for the f-parametrised laws; see law_kind.hpp).
//
// Every law offers the survival function S and its generalised inverse (the inverse survival
// function, ISF) so that tails stay exact where S is tiny: the engine samples by eta = ISF(U),
// which is monotone non-increasing in U, and draws the maximum of n iid copies as
// ISF(-expm1(log(U) / n)).
#include <limits>
#include <string>
#include <vector>

namespace collnoise {

class NoiseLaw {
 public:
  virtual ~NoiseLaw() = default;

  /// Short name as in run files ("pareto").
  virtual std::string name() const = 0;
  /// Name with parameters, for reports ("pareto(a=1.5)").
  virtual std::string describe() const { return name(); }

  /// S(x) = P(eta > x).
  virtual double sf(double x) const = 0;
  /// F(x) = P(eta <= x); laws override where 1 - S loses precision.
  virtual double cdf(double x) const { return 1.0 - sf(x); }
  /// log F(x), exact where S is tiny (log1p(-S)) and where F is tiny.
  virtual double log_cdf(double x) const;
  /// Generalised inverse survival: inf{x : S(x) <= s}, for s in (0, 1].
  virtual double isf(double s) const = 0;
  /// Generalised quantile: inf{x : F(x) >= p}, for p in [0, 1).
  virtual double quantile(double p) const { return isf(1.0 - p); }

  /// E[eta]: 1 for every law but `none` (0).
  virtual double mean() const { return 1.0; }
  /// Tail index alpha (P(eta > x) ~ x^-alpha); +infinity for light tails.
  virtual double tail_index() const { return std::numeric_limits<double>::infinity(); }
  /// Lower end of the support.
  virtual double support_min() const { return 0.0; }
  /// Upper end of the support: +infinity unless eta is bounded.
  virtual double support_max() const { return std::numeric_limits<double>::infinity(); }
  /// Points where S jumps or has a kink (atoms, support ends); used to split integrals.
  virtual std::vector<double> breakpoints() const { return {support_min()}; }
  /// True when eta takes finitely many values (S is a step function).
  virtual bool is_discrete() const { return false; }
  /// Seconds of one isf() call on one core, for work estimates (bench/RESULTS.md, "Cost
  /// model"; within a factor of 3): a closed form by default.
  virtual double isf_seconds() const { return 4.0e-8; }

  /// E[max of n iid eta] for real n >= 1 (exact closed form where one exists; numerical
  /// integration of 1 - F^n otherwise). Accurate up to n = 2^63 and beyond.
  virtual double expected_max(double n) const;
  /// E[(eta - x)^+] = integral of S over [x, inf).
  virtual double mean_excess(double x) const;
  /// Integral of y S(y) over [x, inf) (half of E[(eta^2 - x^2)^+]); +inf when alpha <= 2.
  virtual double second_excess(double x) const;
};

}  // namespace collnoise
