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
#include <optional>
#include <string>
#include <vector>

namespace collnoise {

/// A lower bound of Agarwal, Garg and Vishnoi on a full tree barrier's expected phase time
/// (docs/models/tree-barrier.md, Theorems 2-4): the theorem that proves it for a law, and its
/// noise term in seconds.
struct TreeBarrierBound {
  int theorem = 0;          ///< 2, 3 or 4: the summary field theorem<k>_lower it fills
  double noise_term = 0.0;  ///< seconds: what the theorem puts for E[max of the leaves' delays]
};

/// A closed form a paper gives for a law: its value and its formula as text.
struct LawFormula {
  double value = 0.0;
  std::string formula;
};

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
  /// The probability that a draw comes from a fitted tail beyond the data (a spliced law's k/n,
  /// docs/models/tails.md): isf(s) is drawn from it exactly when s <= this. 0 for every other law.
  virtual double fitted_tail_share() const { return 0.0; }
  /// Lower end of the support.
  virtual double support_min() const { return 0.0; }
  /// Upper end of the support: +infinity unless eta is bounded.
  virtual double support_max() const { return std::numeric_limits<double>::infinity(); }
  /// Points where S jumps or has a kink (atoms, support ends); used to split integrals.
  virtual std::vector<double> breakpoints() const { return {support_min()}; }
  /// True when eta takes finitely many values (S is a step function).
  virtual bool is_discrete() const { return false; }
  /// Seconds of one isf() call on one core, for work estimates (bench/HISTORY.md, "Cost
  /// model"; within a factor of 3): a closed form by default.
  virtual double isf_seconds() const { return 4.0e-8; }

  /// E[max of n iid eta] for real n >= 1 (exact closed form where one exists; numerical
  /// integration of 1 - F^n otherwise). Accurate up to n = 2^63 and beyond.
  virtual double expected_max(double n) const;
  /// E[(eta - x)^+] = integral of S over [x, inf).
  virtual double mean_excess(double x) const;
  /// Integral of y S(y) over [x, inf) (half of E[(eta^2 - x^2)^+]); +inf when alpha <= 2.
  virtual double second_excess(double x) const;

  // What papers prove for this law, where they do. The engine's theory uses these members and
  // never the law's name: a law gains a closed form by overriding them in its own file; where a
  // law does not, the theory reports why the value is missing.

  /// Agarwal et al.'s lower bound for this law on a full tree barrier whose `leaves` ranks (the
  /// deepest level, (N+1)/2) draw delays scale * eta (scale in seconds).
  virtual std::optional<TreeBarrierBound> tree_barrier_bound(double /*leaves*/,
                                                             double /*scale*/) const {
    return std::nullopt;
  }
  /// Agarwal et al.'s approximation of N_1/2 (docs/models/nhalf.md) for this law, on stages of
  /// w seconds with mean relative overhead `overhead` = f/(1-f) and hop latency tau seconds.
  virtual std::optional<LawFormula> nhalf_approximation(double /*overhead*/, double /*w*/,
                                                        double /*tau*/) const {
    return std::nullopt;
  }
  /// For a light, unbounded tail: why m E[max of m eta] is not a power law of m, in the words
  /// of this law's closed form of E[max] (isoefficiency's predicted growth); none: no closed
  /// form says more than the light tail does.
  virtual std::optional<std::string> max_growth_note() const { return std::nullopt; }
};

}  // namespace collnoise
