#include "distributions/bernoulli.hpp"

#include <fmt/format.h>
#include <cmath>
#include <memory>

#include "core/errors.hpp"
#include "distributions/none.hpp"

namespace collnoise {

BernoulliLaw::BernoulliLaw(double p, const std::string& param_name) : p_(p) {
  if (!(p > 0.0 && p <= 1.0))
    throw InputError(fmt::format("{} = {} is invalid: a Bernoulli probability must lie in (0, 1]",
                                 param_name, p));
}

std::string BernoulliLaw::describe() const {
  return fmt::format("bernoulli(p={})", p_);
}

double BernoulliLaw::sf(double x) const {
  if (x < 0.0) return 1.0;
  return x < 1.0 / p_ ? p_ : 0.0;
}
double BernoulliLaw::isf(double s) const {
  return s < p_ ? 1.0 / p_ : 0.0;
}
double BernoulliLaw::quantile(double q) const {
  return q > 1.0 - p_ ? 1.0 / p_ : 0.0;
}
double BernoulliLaw::expected_max(double n) const {
  return -std::expm1(n * std::log1p(-p_)) / p_;
}
double BernoulliLaw::mean_excess(double x) const {
  if (x < 0.0) return 1.0 - x;
  return x < 1.0 / p_ ? 1.0 - p_ * x : 0.0;
}
double BernoulliLaw::second_excess(double x) const {
  const double top = 1.0 / p_;
  if (x >= top) return 0.0;
  if (x < 0.0) return 0.5 * (p_ * top * top) - 0.5 * x * x;
  return 0.5 * p_ * (top - x) * (top + x);
}

std::optional<TreeBarrierBound> BernoulliLaw::tree_barrier_bound(double leaves,
                                                                 double scale) const {
  return TreeBarrierBound{4, scale * expected_max(leaves)};
}

std::optional<LawFormula> BernoulliLaw::nhalf_approximation(double overhead, double, double) const {
  const double f = overhead / (1.0 + overhead);
  return LawFormula{2.0 / f, "2/f, f/(1-f) = pT/w"};
}

namespace {

const KeySpec& probability_key() {
  static const KeySpec p{.name = "p",
                         .meaning = "probability that a stage is delayed (by T seconds)",
                         .bounds = {0.0, 1.0}};
  return p;
}

const KeySpec& delay_key() {
  static const KeySpec t{.name = "T",
                         .meaning = "the delay of a delayed stage",
                         .unit = "seconds",
                         .bounds = {0.0, 1.0e6}};
  return t;
}

// The shape: eta = 1/p with probability p, else 0 (p = 0 is no noise).
std::shared_ptr<const NoiseLaw> bernoulli_shape(double p, const std::string& key) {
  if (p == 0.0) return std::make_shared<const NoneLaw>();
  return std::make_shared<const BernoulliLaw>(p, key);
}

// Parametrised by (p, T); f with T is accepted and gives p = f/(1-f) w / T. The point records
// both p and f, whichever the run file gave.
StageNoise bernoulli_stage(ParamReader& reader, const std::string& prefix, double w) {
  const KeySpec& f_key = overhead_fraction_key();
  const double T = reader.number(delay_key(), prefix);
  auto p = reader.optional_number(probability_key(), prefix);
  const auto f = reader.optional_number(f_key, prefix);
  const std::string p_name = full_key(probability_key(), prefix);
  const std::string f_name = full_key(f_key, prefix);
  if (p && f)
    throw InputError(
        fmt::format("{} and {} both given: Bernoulli takes p or f, not both", p_name, f_name));
  if (!p && !f)
    throw InputError(fmt::format("{} is missing: the bernoulli law needs p (or f)", p_name));
  if (f) {
    if (w == 0.0 && *f > 0.0)
      throw InputError(fmt::format(
          "{} = {} needs a compute stage: with zero work give the probability p instead", f_name,
          *f));
    p = T > 0.0 ? *f / (1.0 - *f) * w / T : 0.0;
    if (*p > 1.0)
      throw InputError(fmt::format("{} = {} with T = {} s needs p = {} > 1: raise T or lower f",
                                   f_name, *f, T, *p));
  }
  StageNoise noise{std::make_shared<const NoneLaw>(), 0.0, 0.0};
  if (*p > 0.0 && T > 0.0) {
    const double scale = *p * T;
    noise = {bernoulli_shape(*p, p_name), scale, w > 0.0 ? scale / w : 0.0};
  }
  reader.derive(p_name, noise.scale > 0.0 ? noise.scale / T : 0.0);
  reader.derive(f_name, noise.overhead / (1.0 + noise.overhead));
  return noise;
}

}  // namespace

LawKind bernoulli_law_kind() {
  return {.name = "bernoulli",
          .meaning = "a stage is delayed by T seconds with probability p (or the p that gives f)",
          .shape_keys = {probability_key()},
          .make =
              [](ParamReader& reader, const std::string& prefix) {
                return bernoulli_shape(reader.number(probability_key(), prefix),
                                       full_key(probability_key(), prefix));
              },
          .scale_keys = {delay_key(), overhead_fraction_key()},
          .stage = bernoulli_stage};
}

}  // namespace collnoise
