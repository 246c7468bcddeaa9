#include "distributions/registry.hpp"

#include <fmt/format.h>
#include <cmath>
#include <optional>

#include "core/errors.hpp"
#include "distributions/bernoulli.hpp"
#include "distributions/empirical.hpp"
#include "distributions/exponential.hpp"
#include "distributions/gamma.hpp"
#include "distributions/lognormal.hpp"
#include "distributions/mixture.hpp"
#include "distributions/none.hpp"
#include "distributions/pareto.hpp"
#include "distributions/uniform.hpp"
#include "distributions/weibull.hpp"

namespace collnoise {
namespace {

std::string key(const LawSpec& spec, const std::string& name) {
  return fmt::format("{}.{}", spec.where, name);
}

double required(const LawSpec& spec, const std::string& name) {
  const auto it = spec.numbers.find(name);
  if (it == spec.numbers.end())
    throw InputError(fmt::format("{} is missing: the {} law needs it", key(spec, name), spec.law));
  return it->second;
}

std::optional<double> optional_number(const LawSpec& spec, const std::string& name) {
  const auto it = spec.numbers.find(name);
  if (it == spec.numbers.end()) return std::nullopt;
  return it->second;
}

double overhead_fraction(const LawSpec& spec) {
  const double f = required(spec, "f");
  if (!(f >= 0.0 && f < 1.0))
    throw InputError(fmt::format("{} = {} is invalid: the overhead fraction f must lie in [0, 1)",
                                 key(spec, "f"), f));
  return f;
}

}  // namespace

const std::vector<std::string>& law_names() {
  static const std::vector<std::string> names = {"exponential", "pareto", "bernoulli", "lognormal",
                                                 "weibull",     "gamma",  "uniform",   "none",
                                                 "empirical",   "mixture"};
  return names;
}

std::vector<std::string> law_keys(const std::string& law, bool as_component) {
  std::vector<std::string> keys;
  if (law == "pareto") keys = {"a"};
  if (law == "lognormal") keys = {"sigma"};
  if (law == "weibull" || law == "gamma") keys = {"k"};
  if (law == "bernoulli") keys = {"p"};
  if (law == "empirical") keys = {"file"};
  if (as_component) {
    keys.push_back("weight");
    return keys;
  }
  if (law == "bernoulli") keys.push_back("T");
  if (law == "mixture") keys.push_back("components");
  if (law != "none") keys.push_back("f");
  return keys;
}

std::shared_ptr<const NoiseLaw> make_law(const LawSpec& spec) {
  const std::string& law = spec.law;
  if (law == "exponential") return std::make_shared<ExponentialLaw>();
  if (law == "pareto") return std::make_shared<ParetoLaw>(required(spec, "a"), key(spec, "a"));
  if (law == "bernoulli") {
    const double p = required(spec, "p");
    if (p == 0.0) return std::make_shared<NoneLaw>();
    return std::make_shared<BernoulliLaw>(p, key(spec, "p"));
  }
  if (law == "lognormal")
    return std::make_shared<LognormalLaw>(required(spec, "sigma"), key(spec, "sigma"));
  if (law == "weibull") return std::make_shared<WeibullLaw>(required(spec, "k"), key(spec, "k"));
  if (law == "gamma") return std::make_shared<GammaLaw>(required(spec, "k"), key(spec, "k"));
  if (law == "uniform") return std::make_shared<UniformLaw>();
  if (law == "none") return std::make_shared<NoneLaw>();
  if (law == "empirical") {
    if (spec.file.empty())
      throw InputError(
          fmt::format("{} is missing: the empirical law needs a delay file", key(spec, "file")));
    return std::make_shared<EmpiricalLaw>(EmpiricalLaw::from_file(spec.file));
  }
  if (law == "mixture") {
    std::vector<MixtureComponent> parts;
    for (const auto& component : spec.components) {
      if (component.law == "mixture")
        throw InputError(
            fmt::format("{}.law = \"mixture\": mixtures cannot nest", component.where));
      parts.push_back({make_law(component), required(component, "weight")});
    }
    return std::make_shared<MixtureLaw>(std::move(parts), key(spec, "components"));
  }
  throw InputError(fmt::format("{}.law = \"{}\" is not a known noise law (known: {})", spec.where,
                               law, fmt::join(law_names(), ", ")));
}

StageNoise make_stage_noise(const LawSpec& spec, double w) {
  if (!(w >= 0.0) || !std::isfinite(w))
    throw InputError(fmt::format("the work per stage must be >= 0 seconds, got {}", w));
  const auto relative = [&](double scale) { return w > 0.0 ? scale / w : 0.0; };
  if (spec.law == "none") return {std::make_shared<NoneLaw>(), 0.0, 0.0};
  if (spec.law == "bernoulli") {
    // Bernoulli is parametrised by (p, T); f with T is accepted and gives p = f/(1-f) w / T.
    const double T = required(spec, "T");
    if (!(T >= 0.0 && T <= 1.0e6))
      throw InputError(
          fmt::format("{} = {} is out of range: the Bernoulli delay T must lie in [0, 1e6] seconds",
                      key(spec, "T"), T));
    auto p = optional_number(spec, "p");
    const auto f = optional_number(spec, "f");
    if (p && f)
      throw InputError(fmt::format("{} and {} both given: Bernoulli takes p or f, not both",
                                   key(spec, "p"), key(spec, "f")));
    if (!p && !f)
      throw InputError(
          fmt::format("{} is missing: the bernoulli law needs p (or f)", key(spec, "p")));
    if (f) {
      const double ff = overhead_fraction(spec);
      if (w == 0.0 && ff > 0.0)
        throw InputError(fmt::format(
            "{} = {} needs a compute stage: with zero work give the probability p instead",
            key(spec, "f"), ff));
      p = T > 0.0 ? ff / (1.0 - ff) * w / T : 0.0;
      if (*p > 1.0)
        throw InputError(fmt::format("{} = {} with T = {} s needs p = {} > 1: raise T or lower f",
                                     key(spec, "f"), ff, T, *p));
    }
    if (!(*p >= 0.0 && *p <= 1.0))
      throw InputError(
          fmt::format("{} = {} is invalid: a probability must lie in [0, 1]", key(spec, "p"), *p));
    if (*p == 0.0 || T == 0.0) return {std::make_shared<NoneLaw>(), 0.0, 0.0};
    auto law = std::make_shared<BernoulliLaw>(*p, key(spec, "p"));
    return {law, *p * T, relative(*p * T)};
  }
  auto law = make_law(spec);
  if (spec.law == "empirical" && !spec.numbers.contains("f")) {
    // Measured delays are absolute: their own mean is the scale.
    const double scale = dynamic_cast<const EmpiricalLaw&>(*law).mean_delay_seconds();
    return {law, scale, relative(scale)};
  }
  const double f = overhead_fraction(spec);
  const double overhead = f / (1.0 - f);
  return {law, w * overhead, overhead};
}

}  // namespace collnoise
